"""Find the page in a model's completion.

``extract_page`` prefers the html family's ``extract_html`` (a fenced ```html block
or a bare ``<!DOCTYPE html>``/``<html>`` document). Pages are often written without
the ``<html>`` wrapper, so a single fenced ``html`` block, or a completion that is
itself markup, is accepted too (Chromium adds the missing wrapper).
"""

from __future__ import annotations

import re

from designrl.fences import fenced_blocks
from designrl.tasks.html.extract import extract_html

_MARKUP = re.compile(r"^\s*<(?:!doctype|html|head|body|main|div|section|header|style|form|h1)\b",
                     re.I)


def extract_page(completion: str) -> tuple[str | None, bool]:
    """(html, well_formatted); (None, False) when the completion holds no page."""
    if not isinstance(completion, str):
        return None, False
    html, well_formatted = extract_html(completion)
    if html is not None:
        return html, well_formatted
    text = completion.strip()
    fenced = fenced_blocks(text, ("html", "HTML"))  # tagged only: a bare one may hold anything
    if len(fenced) == 1 and fenced[0].body.strip():
        return fenced[0].body, text.startswith("```") and text.endswith("```")
    if _MARKUP.match(text):
        return text, True
    return None, False
