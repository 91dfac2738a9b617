"""The runs of one ``<text>``: the pieces of it its ``<tspan>``s set apart, each with its own
words, computed style and box ("<tspan fill="#333">Orbit</tspan><tspan dx="8"
fill="#6b3fd4">Labs</tspan>": two words in two colours), for ``facts``.

A run is the text a ``<tspan>`` holds directly, or the text between spans, which keeps its
parent's style. Boxes are laid out as the renderer does, roughly: a pen starts at the
text's position, each run advances it by its letters (0.58 of the font size each), a span's
``x``/``y`` move it there and ``dx``/``dy`` shift it; a line starting at ``x`` is shifted
by its ``text-anchor`` ("middle": half its width).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from designrl.tasks.svg.geometry import parse_length, parse_numbers
from designrl.tasks.svg.parse import local_name
from designrl.tasks.svg.style import Stylesheet, compute_style

ADVANCE = 0.58
"""A letter's width as a share of the font size (as ``outlines`` sizes a whole text)."""


@dataclass(frozen=True)
class Run:
    """Words set in one style at one place: ``box`` is (x, top, width, height), local."""

    text: str
    style: dict[str, str]
    box: tuple[float, float, float, float]


def text_runs(element: Element, style: dict[str, str], sheet: Stylesheet) -> list[Run]:
    """The runs of ``element`` (a ``<text>`` with its computed ``style``) that show letters;
    empty when it has fewer than two, as a text with no spans is one run, the text itself."""
    pieces: list[tuple[str, dict[str, str], Element | None]] = []
    _collect(element, style, sheet, pieces, placed=element)
    if sum(bool(text.strip()) for text, _, _ in pieces) < 2:
        return []
    xs, ys = parse_numbers(element.get("x")), parse_numbers(element.get("y"))
    pen = [xs[0] if xs else 0.0, ys[0] if ys else 0.0]
    lines: list[list[int]] = [[]]
    laid: list[tuple[str, dict[str, str], list[float]]] = []
    for text, piece_style, span in pieces:
        if span is not None and span is not element:
            pen, new_line = _moved(span, pen)
            if new_line and lines[-1]:
                lines.append([])
        size = parse_length(piece_style.get("font-size"), default=16.0)
        width = ADVANCE * size * len(text)
        if text.strip():
            lines[-1].append(len(laid))
            laid.append((text.strip(), piece_style, [pen[0], pen[1] - 0.8 * size, width, size]))
        pen = [pen[0] + width, pen[1]]
    for line in lines:
        _anchor(laid, line)
    return [Run(text, piece_style, tuple(box)) for text, piece_style, box in laid]


def _collect(node: Element, style: dict[str, str], sheet: Stylesheet,
             pieces: list[tuple[str, dict[str, str], Element | None]], placed: Element | None
             ) -> None:
    """Append ``node``'s text pieces in reading order, whitespace collapsed as SVG does; the
    first piece of a span carries the span, whose position attributes move the pen."""
    if node.text and " ".join(node.text.split()):
        pieces.append((_collapsed(node.text), style, placed))
        placed = None
    for child in node:
        if local_name(child.tag) == "tspan":
            child_style = compute_style(child, style, sheet)
            if child_style.get("display") != "none" \
                    and child_style.get("visibility", "visible") == "visible":
                _collect(child, child_style, sheet, pieces, placed=child)
        if child.tail and " ".join(child.tail.split()):
            pieces.append((_collapsed(child.tail), style, None))


def _collapsed(text: str) -> str:
    """Runs of whitespace as one space, kept at the ends (they space words apart)."""
    inner = " ".join(text.split())
    return (" " if text[:1].isspace() else "") + inner + (" " if text[-1:].isspace() else "")


def _moved(span: Element, pen: list[float]) -> tuple[list[float], bool]:
    """The pen after a span's ``x``/``y`` (absolute) and ``dx``/``dy`` (shifts); and whether
    an ``x`` starts a new line (which its anchor places)."""
    xs, ys = parse_numbers(span.get("x")), parse_numbers(span.get("y"))
    x = xs[0] if xs else pen[0]
    y = ys[0] if ys else pen[1]
    return [x + _first_length(span.get("dx")), y + _first_length(span.get("dy"))], bool(xs)


def _first_length(value: str | None) -> float:
    """The first of a list of lengths ("8", "1.2em", "0 5 5"): the shift before the span's
    first letter."""
    tokens = re.split(r"[\s,]+", (value or "").strip())
    return parse_length(tokens[0]) if tokens[0] else 0.0


def _anchor(laid: list[tuple[str, dict[str, str], list[float]]], line: list[int]) -> None:
    """Shift a line's runs by its ``text-anchor`` (its first run's): left of the pen by the
    line's whole width for "end", half of it for "middle"."""
    if not line:
        return
    anchor = laid[line[0]][1].get("text-anchor", "start")
    start = laid[line[0]][2][0]
    width = laid[line[-1]][2][0] + laid[line[-1]][2][2] - start
    shift = width / 2 if anchor == "middle" else width if anchor == "end" else 0.0
    for index in line:
        laid[index][2][0] -= shift
