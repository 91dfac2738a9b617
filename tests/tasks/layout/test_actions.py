"""Action parsing: the strict action language names what is wrong and what is allowed;
the designgym profile's parse is lenient where it is strict."""

import pytest

from designrl.tasks.layout.actions import ACTION_TYPES, Move, action_json_schema, parse_action
from designrl.tasks.layout.designgym import parse_action_lenient


def test_valid_move_parses():
    action, error = parse_action({"action_type": "move", "element_id": "title", "dx": 0.02, "dy": -0.01})
    assert error is None and isinstance(action, Move) and action.dx == 0.02


def test_json_text_is_accepted():
    action, error = parse_action('{"action_type": "finalize"}')
    assert error is None and action.action_type == "finalize"


@pytest.mark.parametrize("raw, needle", [
    ({"action_type": "rotate"}, "allowed: move, resize"),
    ({"action_type": "move", "element_id": "a", "rotation": 3}, "rotation: unknown field"),
    ({"action_type": "resize", "element_id": "a", "anchor": "se-ish"}, "anchor"),
    ({"action_type": "align", "element_ids": ["a", "b"], "axis": "x", "mode": "top"}, "allowed: left, center, right"),
    ({"action_type": "align", "element_ids": ["a", "b"], "axis": "z", "mode": "top"}, "axis"),
    ({"action_type": "snap", "element_id": "a", "grid": 0}, "grid"),
    ({"action_type": "move", "element_id": "a", "dx": "far"}, "dx"),
    ({"action_type": "swap_z", "element_ids": ["a"]}, "element_ids"),
    ("[1, 2", "not valid JSON"),
    ([1, 2], "must be a JSON object"),
    ("x" * 20_000, "limit"),
])
def test_rejections_are_readable(raw, needle):
    action, error = parse_action(raw)
    assert action is None
    assert needle in error


def test_schema_lists_every_action_type():
    schema = action_json_schema()
    text = str(schema)
    assert all(kind in text for kind in ACTION_TYPES)


@pytest.mark.parametrize("raw", [
    {"action_type": "move", "element_id": "a", "rotation": 3},  # unknown field
    {"action_type": "resize", "element_id": "a", "anchor": "se-ish"},  # unlisted anchor
    {"action_type": "rotate"},  # unknown type
    {"element_id": "a"},  # no type at all
])
def test_designgym_parse_is_lenient_where_the_action_language_is_strict(raw):
    """The designgym profile accepts what DesignGym accepts (its vectors replay only
    so); the action language used for training rejects the same payloads."""
    fields, error = parse_action_lenient(raw)
    assert error is None and "rotation" not in fields
    assert fields["action_type"] == raw.get("action_type", "noop")
    action, error = parse_action(raw)
    assert action is None and error


def test_both_parsers_reject_a_non_object():
    assert parse_action_lenient([1, 2])[0] is None
    assert parse_action([1, 2])[0] is None
