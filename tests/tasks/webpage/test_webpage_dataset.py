"""Our webpage prompts, the chat prompt built from them, and finding the page in a completion."""

from __future__ import annotations

import json

import pytest

from designrl.tasks.webpage import build_messages, extract_page, load_prompts, split_items
from designrl.tasks.webpage.dataset import parse_prompts

PAGE = "<!DOCTYPE html>\n<html><body><h1>Hi</h1></body></html>"


def test_shipped_prompts():
    items = load_prompts()
    assert 8 <= len(items) <= 12
    assert len({i.id for i in items}) == len(items)
    ids = {i.id for i in items}
    assert {"landing-page", "pricing-table", "todo-app", "contact-form", "image-gallery",
            "calculator"} <= ids
    assert all(len(i.prompt) > 40 for i in items)
    assert {i.category for i in items} <= {"website", "app", "game", "ui-component",
                                           "data-visualisation"}


def test_split_is_seeded_and_disjoint():
    items = load_prompts()
    train, test = split_items(items, test_share=0.2, seed=3)
    assert len(test) == 2 and len(train) == len(items) - 2
    assert not {i.id for i in train} & {i.id for i in test}
    assert split_items(items, seed=3) == split_items(items, seed=3)
    assert split_items(items[:1]) == (items[:1], [])


def test_bad_prompt_files_name_the_entry(tmp_path):
    with pytest.raises(ValueError, match=r"\[1\].*prompt"):
        parse_prompts([{"prompt": "ok"}, {"prompt": ""}])
    with pytest.raises(ValueError, match="duplicate id"):
        parse_prompts([{"id": "a", "prompt": "x"}, {"id": "a", "prompt": "y"}])
    path = tmp_path / "p.json"
    path.write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        load_prompts(path)
    path.write_text(json.dumps([{"id": "x", "prompt": "Make a page"}]))
    assert load_prompts(path)[0].category == "website"


def test_messages():
    item = load_prompts()[0]
    messages = build_messages(item)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[1]["content"] == item.prompt and "```html" in messages[0]["content"]
    assert build_messages("a page")[1]["content"] == "a page"


@pytest.mark.parametrize(("completion", "expected", "well_formatted"), [
    (PAGE, PAGE, True),
    (f"```html\n{PAGE}\n```", PAGE, True),
    (f"Here you go:\n```html\n{PAGE}\n```\nEnjoy!", PAGE, False),
    ("```html\n<main><h1>Hi</h1></main>\n```", "<main><h1>Hi</h1></main>\n", True),
    ("<div class='app'>Hi</div>", "<div class='app'>Hi</div>", True),
    ("I cannot write that page.", None, False),
    ("", None, False),
])
def test_extract_page(completion, expected, well_formatted):
    html, formatted = extract_page(completion)
    assert html == expected
    assert formatted == well_formatted
