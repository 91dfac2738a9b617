"""Helpers for the webpage tests: fixture ladders (the pool runner is ``browser_support``'s)."""

from __future__ import annotations

import re
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LADDER_PROMPTS = {
    "todo": "todo-app",
    "contact": "contact-form",
    "pricing": "pricing-table",
    "calculator": "calculator",
}
RUNGS = ("good", "contrast", "overlap", "dead", "jserror", "blank")
BLANK = "<!DOCTYPE html><html lang='en'><head><title>Blank</title></head><body></body></html>"


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


def ladder(name: str) -> list[tuple[str, str]]:
    """(rung, html) from best to worst for one of ``LADDER_PROMPTS``."""
    folder = FIXTURES / "ladder"
    good = (folder / f"{name}_good.html").read_text(encoding="utf-8")
    return [
        ("good", good),
        ("contrast", (folder / f"{name}_contrast.html").read_text(encoding="utf-8")),
        ("overlap", (folder / f"{name}_overlap.html").read_text(encoding="utf-8")),
        ("dead", dead_controls(good)),
        ("jserror", with_load_error(good)),
        ("blank", BLANK),
    ]
