"""Find the page in a model's completion.

``extract_page`` prefers the html family's ``extract_html`` (a fenced ```html block
or a bare ``<!DOCTYPE html>``/``<html>`` document). Pages are often written without
the ``<html>`` wrapper, so a single fenced ``html`` block, or a completion that is
itself markup, is accepted too (Chromium adds the missing wrapper).
"""

from __future__ import annotations

import re

from designrl.tasks.html.extract import extract_html

_HTML_FENCE = re.compile(r"```(?:html|HTML)[ \t]*\n(.*?)```", re.S)
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
    fenced = _HTML_FENCE.findall(text)
    if len(fenced) == 1 and fenced[0].strip():
        return fenced[0], text.startswith("```") and text.endswith("```")
    if _MARKUP.match(text):
        return text, True
    return None, False
