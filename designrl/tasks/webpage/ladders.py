"""The webpage reward's ladders: for four shipped requests, six pages from best to worst,
which the reward must score in that order.

``data/ladders.json`` holds, per request id, three hand-written pages: ``good`` (clean,
accessible, responsive, every control working), ``contrast`` (poor contrast, tiny
targets) and ``overlap`` (overlapping and clipped text, nothing aligned). The other rungs
are made from the good page: ``dead`` (every script removed and in-page links pointing
nowhere: it looks the same and nothing responds), ``jserror`` (its script throws on the
first line, so no handler is attached) and ``blank``. Every page answers its request, so
the ladder measures design and behaviour at a fixed, high instruction alignment.

``bench/reward_validity.py`` and ``tests/tasks/webpage`` score them through
``FAMILY.scorer(pool).score_item``.
"""

from __future__ import annotations

import json
import re
from importlib import resources

from designrl.tasks.integrity import Ladder
from designrl.tasks.webpage.dataset import load_prompts

TASK = "webpage-prompts"
RUNGS = ("good", "contrast", "overlap", "dead", "jserror", "blank")
BLANK = "<!DOCTYPE html><html lang='en'><head><title>Blank</title></head><body></body></html>"


def fenced(html: str) -> str:
    """A page as a model replies with it: one ```html fence."""
    return f"```html\n{html.strip()}\n```"


def dead_controls(html: str) -> str:
    """The same page with every script removed and in-page links pointing nowhere: it looks
    the same, and none of its buttons, forms or links does anything."""
    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I)
    return re.sub(r'href="#[^"]+"', 'href="#"', html)


def with_load_error(html: str) -> str:
    """The same page whose script throws on its first line (a call to an undefined function),
    so no handler is ever attached."""
    return html.replace(
        "<script>", "<script>\n  loadSavedState(); // not defined: throws before any handler\n", 1)


def ladder_pages() -> dict[str, dict[str, str]]:
    """The hand-written pages, by request id and rung (``good``, ``contrast``, ``overlap``)."""
    text = resources.files("designrl.tasks.webpage").joinpath("data/ladders.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def rungs(pages: dict[str, str]) -> list[tuple[str, str]]:
    """(rung, raw html) from best to worst, from one request's hand-written pages."""
    good = pages["good"]
    return [("good", good), ("contrast", pages["contrast"]), ("overlap", pages["overlap"]),
            ("dead", dead_controls(good)), ("jserror", with_load_error(good)), ("blank", BLANK)]


def ladders() -> list[Ladder]:
    """One ladder per request in ``data/ladders.json``, each rung a fenced page, best first."""
    items = {item.id: item for item in load_prompts()}
    return [Ladder(TASK, items[item_id], tuple((name, fenced(html)) for name, html in rungs(pages)))
            for item_id, pages in ladder_pages().items()]
