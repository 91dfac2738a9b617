"""The svg expert's markup: a plan, laid out on its grid, written as one SVG document
(a background rectangle, then every group's shapes, children inside their parent)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from designrl.policies.svg_expert.layout import Box, cell_box, member_boxes, place_groups
from designrl.policies.svg_expert.plan import UNFILLED, Group, Plan
from designrl.tasks.svg.colour_names import RGB

FONT = "Arial, Helvetica, sans-serif"
TEXT_ADVANCE = 0.72
"""Width of a bold character in font sizes, at most (the checker estimates 0.58): labels fit."""


def write_svg(plan: Plan, seed: int) -> str:
    """The SVG document for ``plan``; ``seed`` picks among the equally good layouts."""
    width, height = plan.size
    top = [g for g in plan.groups if g.parent is None]
    cells, rows, cols = place_groups(top, plan.relations, plan.placements, plan.size, seed)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
           f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}">',
           f'  <rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
           f'fill="{_hex(plan.bg_rgb)}"/>']
    for group in top:
        _draw_group(group, cell_box(cells[group], rows, cols, plan.size), out)
    out.append("</svg>")
    return "\n".join(out)


def _draw_group(group: Group, box: Box, out: list[str]) -> None:
    """Draw the group's shapes in ``box`` and its children inside the first one."""
    inner: Box | None = None
    for i, member in enumerate(member_boxes(group, box)):
        drawn = _draw_shape(group, member, out)
        if i == 0:
            inner = drawn
    if group.children and inner is not None:
        ix, iy, iw, ih = inner
        share = iw / len(group.children)
        for k, child in enumerate(group.children):
            _draw_group(child, (ix + k * share, iy, share, ih), out)


def _draw_shape(group: Group, box: Box, out: list[str]) -> Box:
    """One shape of ``group`` centred in ``box``; returns the box its children go in."""
    x, y, w, h = box
    cx, cy, s = x + w / 2, y + h / 2, min(w, h)
    fill = _hex(group.fill_rgb or (0, 0, 0))
    stroke = ""
    if group.stroke_rgb is not None and group.kind not in UNFILLED:
        stroke = f' stroke="{_hex(group.stroke_rgb)}" stroke-width="{_n(max(1.5, 0.04 * s))}"'
    kind = group.kind
    if kind == "circle":
        r = 0.45 * s
        out.append(f'  <circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}"{stroke}/>')
        side = 1.2 * r
        return (cx - side / 2, cy - side / 2, side, side)
    if kind == "ellipse":
        rx = min(0.45 * w, 0.45 * h * 1.6)
        ry = rx / 1.6
        out.append(f'  <ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(rx)}" ry="{_n(ry)}" '
                   f'fill="{fill}"{stroke}/>')
        return (cx - 0.6 * rx, cy - 0.6 * ry, 1.2 * rx, 1.2 * ry)
    if kind in ("square", "rectangle"):
        if kind == "square":
            bw = bh = 0.9 * s
        else:
            bh = min(0.9 * h, 0.9 * w / 1.6)
            bw = 1.6 * bh
        out.append(f'  <rect x="{_n(cx - bw / 2)}" y="{_n(cy - bh / 2)}" width="{_n(bw)}" '
                   f'height="{_n(bh)}" fill="{fill}"{stroke}/>')
        return (cx - 0.4 * bw, cy - 0.4 * bh, 0.8 * bw, 0.8 * bh)
    if kind == "line":
        width = max(2.0, 0.05 * s)
        out.append(f'  <line x1="{_n(cx - 0.45 * w)}" y1="{_n(cy)}" x2="{_n(cx + 0.45 * w)}" '
                   f'y2="{_n(cy)}" stroke="{fill}" stroke-width="{_n(width)}" '
                   f'stroke-linecap="round"/>')
        return (cx, cy, 0, 0)
    if kind == "polyline":
        points = [(cx - 0.45 * w + i * 0.225 * w, cy + (0.25 if i % 2 else -0.25) * h)
                  for i in range(5)]
        out.append(f'  <polyline points="{_points(points)}" fill="none" stroke="{fill}" '
                   f'stroke-width="{_n(max(2.0, 0.05 * s))}" stroke-linejoin="round"/>')
        return (cx, cy, 0, 0)
    if kind == "path":
        x0, x1 = cx - 0.45 * w, cx + 0.45 * w
        out.append(f'  <path d="M {_n(x0)} {_n(cy)} Q {_n(cx - 0.225 * w)} {_n(cy - 0.4 * h)} '
                   f'{_n(cx)} {_n(cy)} T {_n(x1)} {_n(cy)}" fill="none" stroke="{fill}" '
                   f'stroke-width="{_n(max(2.0, 0.05 * s))}"/>')
        return (cx, cy, 0, 0)
    if kind == "text":
        text = "".join(ch for ch in group.text or "Text" if ch.isprintable()) or "Text"
        size = min(0.5 * h, 0.9 * w / (TEXT_ADVANCE * max(1, len(text))))
        out.append(f'  <text x="{_n(cx)}" y="{_n(cy + 0.3 * size)}" font-family="{FONT}" '
                   f'font-size="{_n(size)}" font-weight="bold" text-anchor="middle" '
                   f'fill="{fill}">{escape(text)}</text>')
        return (cx, cy, 0, 0)
    points = _polygon(kind, cx, cy, s, w)
    out.append(f'  <polygon points="{_points(points)}" fill="{fill}"{stroke}/>')
    if kind == "triangle":
        return (cx - 0.2 * s, cy, 0.4 * s, 0.3 * s)
    return (cx - 0.22 * s, cy - 0.22 * s, 0.44 * s, 0.44 * s)


def _polygon(kind: str, cx: float, cy: float, s: float, w: float) -> list[tuple[float, float]]:
    r = 0.45 * s
    if kind == "triangle":
        return [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if kind == "star":
        return [(cx + (r if i % 2 == 0 else 0.45 * r) * math.sin(i * math.pi / 5),
                 cy - (r if i % 2 == 0 else 0.45 * r) * math.cos(i * math.pi / 5))
                for i in range(10)]
    sides = {"pentagon": 5, "hexagon": 6, "octagon": 8}.get(kind)
    if sides is not None:
        turn = math.pi / sides if kind == "octagon" else 0.0
        return [(cx + r * math.sin(turn + 2 * math.pi * i / sides),
                 cy - r * math.cos(turn + 2 * math.pi * i / sides)) for i in range(sides)]
    half = min(0.45 * w, 1.6 * r)  # a generic polygon: a trapezoid
    return [(cx - half, cy - 0.5 * r), (cx + half, cy - 0.5 * r), (cx + 0.6 * half, cy + 0.5 * r),
            (cx - 0.6 * half, cy + 0.5 * r)]


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
