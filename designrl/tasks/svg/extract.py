"""Find the SVG document in a model's completion.

The SVG is taken from the first fenced code block that holds one (```svg,
```xml, ```html or a bare fence), else from the completion itself: from the
first ``<svg`` (with any XML declaration or DOCTYPE right before it, so the
parser sees and refuses a hostile one) to its matching ``</svg>``, counting
nested ``<svg>`` elements. Work is linear in the completion's length, and a
completion over the cap is refused before any search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from designrl.fences import fenced_blocks
from designrl.tasks.svg.parse import DEFAULT_LIMITS, SvgLimits

_START = re.compile(r"<svg[\s>/]", re.I)
_PROLOG = re.compile(
    r"(?:<\?xml[^>]*\?>\s*)?(?:<!--(?:[^-]|-(?!->))*-->\s*)*"
    r"(?:<!DOCTYPE[^\[>]*(?:\[[^\]]*\])?\s*>\s*)?(?:<!--(?:[^-]|-(?!->))*-->\s*)*",
    re.I)
PROLOG_WINDOW = 100_000
"""How far before ``<svg`` an XML declaration or DOCTYPE is looked for."""
_SVG_TAG = re.compile(r"<(/?)svg\b[^>]*?(/?)>", re.I)


@dataclass(frozen=True)
class Extraction:
    """``svg`` is the document text, or None with ``error`` saying why.

    ``well_formatted``: the completion is a bare SVG document or exactly one fenced block
    holding nothing but one.
    """

    svg: str | None
    well_formatted: bool = False
    error: str | None = None


def extract_svg(completion: str, limits: SvgLimits = DEFAULT_LIMITS) -> Extraction:
    if len(completion) > limits.max_completion_chars:
        return Extraction(None, error=f"completion_too_large: {len(completion)} characters, "
                                      f"over the {limits.max_completion_chars} cap")
    text = completion.strip()
    fences = fenced_blocks(text)  # any tag: the first block holding an <svg> is the drawing
    region, fenced = text, None
    for fence in fences:
        if _START.search(fence.body):
            region, fenced = fence.body, fence
            break
    found = _START.search(region)
    if found is None:
        return Extraction(None, error="no_svg: no <svg> element in the completion")
    end = _matching_end(region, found.start())
    if end is None:
        return Extraction(None, error="unclosed_svg: <svg> is never closed")
    svg = region[_prolog_start(region, found.start()):end]
    if fenced is not None:
        formatted = (len(fences) == 1 and fenced.start == 0 and fenced.end == len(text)
                     and region.strip() == svg)
    else:
        formatted = svg == text
    return Extraction(svg, formatted)


def _prolog_start(text: str, svg_start: int) -> int:
    """Where the XML declaration or DOCTYPE just before ``<svg`` begins (``svg_start`` if none);
    looked for in a bounded window, so hostile text before the SVG costs linear time."""
    low = max(0, svg_start - PROLOG_WINDOW)
    window = text[low:svg_start].lower()
    starts = [i for i in (window.rfind("<?xml"), window.rfind("<!doctype")) if i >= 0]
    if not starts:
        return svg_start
    begin = low + min(starts)
    if _PROLOG.fullmatch(text, begin, svg_start):
        return begin
    return svg_start


def _matching_end(text: str, start: int) -> int | None:
    """Index just past the ``</svg>`` that closes the ``<svg`` at ``start``."""
    depth = 0
    for tag in _SVG_TAG.finditer(text, start):
        closing, self_closing = tag.group(1), tag.group(2)
        if self_closing:
            if depth == 0:
                return tag.end()
            continue
        depth += -1 if closing else 1
        if depth == 0:
            return tag.end()
    return None
