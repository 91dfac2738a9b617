"""The html family's calibration policies: ``reference`` (the ceiling) and ``blank``
(the floor). Every html table shows both, so a model's score reads against them.

``reference`` answers with the reference page itself: it sees the answer, so it is
an oracle, never a model to compare with as an equal.
"""

from __future__ import annotations

from designrl.tasks.html.spec import HtmlItem

BLANK_PAGE = "<!DOCTYPE html>\n<html><head><title>blank</title></head><body></body></html>"


def reference_page(item: HtmlItem, seed: int = 0) -> str:
    """The reference page in one ``html`` fence, as a model would answer."""
    return f"```html\n{item.html}\n```"


def blank_page(item: HtmlItem, seed: int = 0) -> str:
    """An empty, valid page in one ``html`` fence."""
    return f"```html\n{BLANK_PAGE}\n```"
