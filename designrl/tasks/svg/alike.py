"""Counting things that are not primitive shapes ("exactly five fallen leaves", "two fluffy
white clouds") by their repeated parts.

A drawing of N like things repeats each of their parts N times: five leaves drawn as an
ellipse and a vein each show five alike ellipses and five alike veins, whatever each
leaf's colour or angle. So "N things" is evidenced by a set of exactly N alike visible
shapes: the same element, the same outline area and length (both unchanged by moving,
turning or mirroring), and the colour when the sentence gives one. It is evidence, not
proof (five alike shapes may be something else), so the atom passes or stays undecided;
it never fails, since things drawn unlike one another repeat nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from designrl.tasks.svg.colour_names import ColorSpec
from designrl.tasks.svg.predicates import Scene, painted

Verdict = bool | None

SLACK = 0.12
"""How far two outlines' area and length may differ (as a share) and still be alike."""
MIN_SHARE = 0.0004
"""A part smaller than this share of the canvas (its box) is not a thing's part: 1-pixel
copies evidence nothing."""


@dataclass(frozen=True)
class Alike:
    """``n`` things (of ``color``): some set of alike visible shapes has exactly ``n``
    members (at least ``n`` when ``at_least``)."""

    n: int
    color: ColorSpec | None = None
    at_least: bool = False

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        least = MIN_SHARE * scene.facts.canvas_area
        shapes = [s for s in scene.facts.drawn if s.tag not in ("text", "image")
                  and s.box_area >= least
                  and (self.color is None or painted(self.color, s.main_colors))]
        sizes = sorted({len(group) for group in alike_sets(shapes)}, reverse=True)
        met = any(size >= self.n if self.at_least else size == self.n for size in sizes)
        return (True if met else None), \
            f"sets of alike shapes: {', '.join(map(str, sizes[:8])) or 'none'}"

    def describe(self) -> str:
        color = f"{self.color.text} " if self.color else ""
        return f"{'at least ' if self.at_least else ''}{self.n} alike {color}things"


@dataclass(frozen=True)
class SameSize:
    """"All the dots are the same size": the most repeated kind of shape (element and
    colour, three or more) is one alike set. Evidence only: which shapes the sentence
    means is not read."""

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        groups: dict[tuple, list] = {}
        for s in scene.facts.drawn:
            if s.tag not in ("text", "image") and s.main_colors:
                groups.setdefault((s.tag, s.main_colors[0]), []).append(s)
        most = max(groups.values(), key=len, default=[])
        if len(most) < 3:
            return None, "no shape repeated three times"
        sets = alike_sets(most)
        same = len(sets) == 1 and len(sets[0]) == len(most)
        return (True if same else None), f"{len(most)} {most[0].tag}s, " \
            f"{'all alike' if same else 'not all alike'}"

    def describe(self) -> str:
        return "the repeated shapes are the same size"


def alike_sets(shapes) -> list[list]:
    """The shapes grouped by element and outline (single linkage within ``SLACK``); sets
    of one left out."""
    keyed = sorted(((s.tag, *_measure(s), s) for s in shapes), key=lambda k: (k[0], k[1], k[2]))
    groups: list[list] = []
    for tag, area, length, shape in keyed:
        last = groups[-1][-1] if groups else None
        if last is not None and last[0] == tag and _near(last[1], area) \
                and _near(last[2], length):
            groups[-1].append((tag, area, length, shape))
        else:
            groups.append([(tag, area, length, shape)])
    return [[k[3] for k in group] for group in groups if len(group) > 1]


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= SLACK * max(abs(a), abs(b), 1e-9)


def _measure(shape) -> tuple[float, float]:
    """The outline's area and length (summed over subpaths)."""
    area = length = 0.0
    for points, closed in shape.subpaths:
        ring = points + points[:1] if closed else points
        length += sum(math.dist(a, b) for a, b in zip(ring, ring[1:], strict=False))
        if closed and len(points) > 2:
            area += abs(sum(a[0] * b[1] - b[0] * a[1]
                            for a, b in zip(ring, ring[1:], strict=False))) / 2
    return area, length
