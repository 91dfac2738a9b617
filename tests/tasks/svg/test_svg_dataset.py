"""Items: SVGBench's questions.json format, our packaged prompts, splits and the prompt."""

from __future__ import annotations

import json

import pytest

from designrl.tasks.svg import build_messages, build_prompt, load_prompts, load_questions
from designrl.tasks.svg.dataset import parse_questions, split_items
from designrl.tasks.svg.requirements import parse_requirement

QUESTIONS = [
    {"requirements": ["The overall background of the SVG must be white",
                      "Place a prominent search bar directly below the logo"],
     "prompt": "Write `svg` code for a screenshot of a search homepage."},
    {"requirements": ["Include exactly 4 sets of cutlery"], "prompt": "A dinner table."},
]


def test_load_svgbench_questions(tmp_path):
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(QUESTIONS), encoding="utf-8")
    items = load_questions(path)
    assert [i.id for i in items] == ["svgbench-0", "svgbench-1"]
    assert items[0].prompt.startswith("Write `svg` code")
    assert items[0].requirements == tuple(QUESTIONS[0]["requirements"])
    assert len(load_questions(path, limit=1)) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [({"prompt": "x"}, "expected a JSON list"),
     ([["x"]], r"\[0\]: expected an object"),
     ([{"prompt": "", "requirements": ["a"]}], "'prompt' must be"),
     ([{"prompt": "x", "requirements": []}], "'requirements' must be"),
     ([{"prompt": "x", "requirements": ["a", 3]}], "'requirements' must be"),
     ([{"id": "a", "prompt": "x", "requirements": ["r"]},
       {"id": "a", "prompt": "y", "requirements": ["r"]}], "duplicate id")],
)
def test_bad_questions_name_the_entry(data, message):
    with pytest.raises(ValueError, match=message):
        parse_questions(data)


def test_not_json_is_a_clear_error(tmp_path):
    path = tmp_path / "questions.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON"):
        load_questions(path)


def test_packaged_prompts_are_mostly_checkable():
    items = load_prompts()
    assert 10 <= len(items) <= 15
    assert len({i.id for i in items}) == len(items)
    assert all(4 <= len(i.requirements) <= 8 for i in items)
    requirements = [r for i in items for r in i.requirements]
    checkable = [r for r in requirements if parse_requirement(r) is not None]
    assert len(checkable) / len(requirements) >= 0.75
    assert len(checkable) < len(requirements)  # some are left for the judge


def test_split_is_seeded_and_disjoint():
    items = load_prompts()
    train, test = split_items(items, test_fraction=0.25, seed=3)
    assert len(test) == 3 and len(train) == len(items) - 3
    assert not {i.id for i in train} & {i.id for i in test}
    assert split_items(items, 0.25, seed=3) == (train, test)
    assert split_items(items, 0.25, seed=4) != (train, test)


def test_prompt_numbers_requirements_and_asks_for_a_fenced_svg():
    item = load_prompts()[0]
    prompt = build_prompt(item)
    assert prompt.startswith(item.prompt)
    assert f"1. {item.requirements[0]}" in prompt and "```svg" in prompt
    assert item.requirements[0] not in build_prompt(item, show_requirements=False)
    messages = build_messages(item)
    assert [m["role"] for m in messages] == ["system", "user"]
