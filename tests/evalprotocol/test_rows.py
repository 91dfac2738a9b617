"""A row as the episode it runs (``designrl.evalprotocol.rows``) and what a rollout reports
(``results``): the item named by ``row_id`` (or ``completion_params.task`` and a bare key),
the row's prompt checked against the item's, and the status codes of each episode state."""

from __future__ import annotations

import pytest

from designrl.evalprotocol.results import status_of
from designrl.evalprotocol.rows import RowError, item_messages, row_target
from designrl.evalprotocol.wire import InitRequest, rollout_id_of, tags
from designrl.store.models import Episode
from designrl.tasks import FAMILIES, find_item


def init(row_id: str, **params) -> InitRequest:
    return InitRequest.model_validate({
        "completion_params": {"model": "expert", **params}, "messages": None,
        "metadata": {"invocation_id": "i", "experiment_id": "e", "rollout_id": "r",
                     "run_id": "u", "row_id": row_id, "later": 1}, "unknown": True})


@pytest.mark.parametrize(("row_id", "params", "task", "key"), [
    ("gen-svg:1000003", {}, "gen-svg", "1000003"),
    ("1000003", {}, "gen-svg", "1000003"),  # the svg family's generated task by default
    ("gen-svg:gen-svg-1000003", {}, "gen-svg", "1000003"),  # load_rows' item id
    ("svg-prompts:house", {}, "svg-prompts", "house"),
    ("house", {"task": "svg-prompts"}, "svg-prompts", "house"),
    ("webpage-prompts:todo-app", {}, "webpage-prompts", "todo-app"),
    ("svgbench:q:1", {"dataset": "mine"}, "svgbench", "q:1"),  # ids may hold colons
])
def test_the_row_id_names_the_item(row_id, params, task, key):
    target = row_target(init(row_id, **params))
    assert (target.task_id, target.key, target.policy) == (task, key, "expert")
    assert target.seed == (int(key) if task == "gen-svg" else None)
    assert target.dataset == params.get("dataset")


def test_the_row_s_prompt_must_be_the_item_s():
    target = row_target(init("svg-prompts:house"))
    messages = FAMILIES["svg"].messages(find_item("svg-prompts", "house"), None)
    assert item_messages(target, None, []) == messages  # no prompt: the item's is asked
    spaced = [{"role": "user", "content": [
        {"type": "text", "text": "  " + messages[-1]["content"].replace("\n", " \n ")}]}]
    assert item_messages(target, None, [{"role": "system", "content": "other"}, *spaced]) \
        == messages  # whitespace and content parts aside, the same words
    with pytest.raises(RowError, match="is not the prompt of svg-prompts item 'house'"):
        item_messages(target, None, [{"role": "user", "content": "Draw a house."}])


def test_wire_types_take_nulls_and_extra_keys_and_name_the_tags():
    request = init("gen-svg:5")
    assert request.messages == [] and request.tools is None
    assert tags(request.metadata) == ["invocation_id:i", "experiment_id:e", "rollout_id:r",
                                      "run_id:u", "row_id:gen-svg:5"]
    assert rollout_id_of(["run_id:u", "rollout_id:abc-1"]) == "abc-1"
    assert rollout_id_of(["rollout_id:"]) is None


@pytest.mark.parametrize(("status", "outcome", "code"), [
    ("queued", None, 101), ("running", None, 101), ("completed", "ok", 100),
    ("completed", "invalid_output", 100),  # a scored 0 is a result
    ("completed", "error", 13), ("completed", "infra_error", 13), ("failed", None, 13),
    ("cancelled", None, 1),
])
def test_each_episode_state_has_its_status_code(status, outcome, code):
    episode = Episode(status=status, outcome=outcome, total_reward=0.0, error="why")
    assert status_of(episode)["code"] == code
