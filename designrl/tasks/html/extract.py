"""Find the HTML document in a model's completion."""

from __future__ import annotations

import re

from designrl.fences import fenced_blocks

HTML_TAGS = ("html", "HTML", "")
"""Fence tags that may hold the document (bare fences too)."""
_DOCUMENT = re.compile(r"(<!DOCTYPE html.*?</html\s*>|<html\b.*?</html\s*>)", re.S | re.I)


def extract_html(completion: str) -> tuple[str | None, bool]:
    """(html, well_formatted). Well formatted: the completion is a bare document or one
    fenced block holding one. A document buried in chatter is still extracted, but
    not well formatted; no ``<html>`` at all gives (None, False)."""
    text = completion.strip()
    fenced = fenced_blocks(text, HTML_TAGS)
    if len(fenced) == 1 and _DOCUMENT.search(fenced[0].body):
        doc = _DOCUMENT.search(fenced[0].body).group(1)
        return doc, text.startswith("```") and text.endswith("```")
    found = _DOCUMENT.search(text)
    if found is None:
        return None, False
    return found.group(1), found.group(1) == text
