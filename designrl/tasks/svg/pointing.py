"""Which way things point and face: "a white triangle pointing right", "an orange carrot
nose pointing to the right", "the flamingo faces to the left".

A shape points the way its outline narrows: at the tip of a play button's triangle the
outline is one vertex, at the opposite end a whole edge, so the shape points toward
the narrow end (``pointing_way``). A figure faces the way its eye sits: a side view
draws the eye toward the front of the head or body that holds it (``Facing``); that
is a habit of drawing, not a rule, so it is evidence only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from designrl.tasks.svg.colour_names import ColorSpec, hsl
from designrl.tasks.svg.predicates import Scene, painted

Verdict = bool | None

WAYS = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "up": (0.0, -1.0), "down": (0.0, 1.0)}
_WAY_WORDS = {"left": "left", "right": "right", "up": "up", "upward": "up", "upwards": "up",
              "down": "down", "downward": "down", "downwards": "down"}
_POINTING = re.compile(
    r"\bpoint(?:s|ing|ed)?\s+(?:to the |towards the |toward the |to |)"
    r"(?P<way>left|right|upwards?|downwards?|up|down)\b"
    r"|\b(?P<pre>left|right|up|upward|down|downward)-pointing\b")
_FACING = re.compile(r"\b(?:faces|facing|face|heading|heads|looking|looks)\s+(?:to the |towards "
                     r"the |toward the |to |)(?P<way>left|right)\b")
EDGE = 0.08
"""How near an extreme (a share of the shape's size) an outline point still counts as at it."""


def pointing_way(shape) -> str | None:
    """The way the outline narrows: where it ends in a point while the opposite end is
    broad (by at least a third of its size); None for shapes that point nowhere."""
    points = [p for ring, _ in shape.subpaths for p in ring]
    if len(points) < 3:
        return None
    x0, y0, x1, y1 = shape.bbox
    size = max(x1 - x0, y1 - y0, 1e-9)
    best, margin = None, size / 3
    for way, (dx, dy) in WAYS.items():
        along = [px * dx + py * dy for px, py in points]
        across = [py * dx - px * dy for px, py in points]  # perpendicular
        top, bottom = max(along), min(along)
        front = [c for a, c in zip(along, across, strict=True) if a >= top - EDGE * size]
        back = [c for a, c in zip(along, across, strict=True) if a <= bottom + EDGE * size]
        score = (max(back) - min(back)) - (max(front) - min(front))
        if score > margin:
            best, margin = way, score
    return best


@dataclass(frozen=True)
class Pointing:
    """Something (of ``color``; a triangle when ``triangle``) points ``way``: passes when
    such a shape does; fails only for a coloured triangle when every sizeable one points
    another way."""

    way: str
    color: ColorSpec | None = None
    triangle: bool = False

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        least = 0.0005 * scene.facts.canvas_area
        shapes = [s for s in scene.facts.drawn if s.tag not in ("text", "image")
                  and s.box_area >= least
                  and (self.color is None or painted(self.color, s.colors))
                  and (not self.triangle or "triangle" in s.kinds)]
        ways = [pointing_way(s) for s in shapes]
        detail = f"{len(shapes)} shapes pointing {', '.join(str(w) for w in ways[:6]) or '-'}"
        if self.way in ways:
            return True, detail
        sure = self.triangle and self.color is not None and ways and None not in ways
        return (False if sure else None), detail

    def describe(self) -> str:
        what = "triangle" if self.triangle else "shape"
        color = f"{self.color.text} " if self.color else ""
        return f"a {color}{what} pointing {self.way}"


@dataclass(frozen=True)
class Facing:
    """The figure faces ``way`` (left or right): an eye (a small dark round shape) sits
    toward that side of the largest shape holding it. Evidence only."""

    way: str

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        width = scene.facts.canvas_size[0]
        drawn = [s for s in scene.facts.drawn if s.tag not in ("text", "image")]
        eyes = [s for s in drawn if s.tag in ("circle", "ellipse") and s.main_colors
                and hsl(s.main_colors[0])[2] < 0.3
                and s.box_area <= 0.003 * scene.facts.canvas_area]
        sides = set()
        for eye in eyes:
            ex, ey = eye.center
            holders = [s for s in drawn if s is not eye and s.bbox[0] < ex < s.bbox[2]
                       and s.bbox[1] < ey < s.bbox[3] and s.bbox[2] - s.bbox[0] < 0.6 * width
                       and s.box_area > 4 * eye.box_area]
            if not holders:
                continue
            holder = max(holders, key=lambda s: s.box_area)
            offset = (ex - holder.center[0]) / max(1e-9, holder.bbox[2] - holder.bbox[0])
            if abs(offset) >= 0.1:
                sides.add("right" if offset > 0 else "left")
        detail = f"eyes toward the {' and '.join(sorted(sides)) or '?'} of what holds them"
        return (True if sides == {self.way} else None), detail

    def describe(self) -> str:
        return f"facing {self.way}"


def pointing_atoms(lower: str, objects) -> list[Pointing | Facing]:
    """"A white triangle pointing right", "a right-pointing arrow", "the bus faces left"."""
    out: list[Pointing | Facing] = []
    found = _POINTING.search(lower)
    if found:
        way = _WAY_WORDS[found.group("way") or found.group("pre")]
        before = [specs for (start, _), specs in objects if start < found.start()]
        color = before[-1][0] if before and len(before[-1]) == 1 else None  # the nearest
        out.append(Pointing(way, color, bool(re.search(r"\btriangles?\b", lower))))
    found = _FACING.search(lower)
    if found:
        out.append(Facing(found.group("way")))
    return out
