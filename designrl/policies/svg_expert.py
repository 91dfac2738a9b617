"""The svg expert: a model-free drawing of what an item's requirements ask for.

It reads only the requirement sentences (through ``parse_requirement``, the
same reader the reward uses), so it works on generated items, designrl's own
prompts and SVGBench-style questions alike; sentences no computed check reads
are ignored. From the predicates it collects a plan:

* the canvas size and background colour;
* groups of identical shapes (kind, colour, count, outline, quoted text), one
  per shape the requirements name, then more shapes until every count holds
  ("exactly 3 circles", "at least 5 shapes") without breaking an exact one;
* colours: "all stars must be yellow", colours a palette must use (given to a
  shape without a colour, else as an outline), and for the rest colours that
  no requirement names, so no count of "red circles" grows by accident;
* where groups go: one cell each on a grid (3 x 3, larger for long chains),
  found by a small search that meets every "above"/"left of" order and every
  "in the top left corner"/"centered" placement; a group that must be inside
  another is drawn inside its first shape, sized to fit.

The reply is what a model would send: one ```svg block holding a complete SVG
document. It is deterministic; ``seed`` only varies which of the valid layouts
is drawn. It is the svg family's SFT teacher.
"""

from __future__ import annotations

import colorsys
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from xml.sax.saxutils import escape

from designrl.tasks.svg.colors import RGB, ColorSpec, hsl
from designrl.tasks.svg.predicates import (
    ANY_ELEMENT,
    ANY_SHAPE,
    CENTER_TOLERANCE,
    AllColored,
    BackgroundColor,
    CanvasSize,
    ColorsUsed,
    Outlined,
    Placement,
    Predicate,
    Relation,
    Selector,
    ShapeCount,
)
from designrl.tasks.svg.requirements import parse_requirement
from designrl.tasks.svg.spec import SvgItem

__all__ = ["draw_svg"]

DEFAULT_CANVAS = (400.0, 400.0)
MAX_CANVAS = 2000.0
MAX_GRID = 5
MAX_GROUP_COUNT = 12
SEARCH_BUDGET = 4_000
MAX_SOLUTIONS = 200
FONT = "Arial, Helvetica, sans-serif"
TEXT_ADVANCE = 0.72
"""Width of a bold character in font sizes, at most (the checker estimates 0.58): labels fit."""

_ANSWERS = {
    "circle": {"circle"}, "ellipse": {"ellipse"}, "rectangle": {"rectangle"},
    "square": {"square", "rectangle"}, "triangle": {"triangle", "polygon"},
    "pentagon": {"pentagon", "polygon"}, "hexagon": {"hexagon", "polygon"},
    "octagon": {"octagon", "polygon"}, "star": {"star", "polygon"}, "polygon": {"polygon"},
    "line": {"line"}, "polyline": {"polyline"}, "path": {"path"}, "text": {"text"},
}
"""The nouns a drawn shape of each kind answers to (as ``facts`` classifies our drawings)."""
_FILLERS = ("circle", "square", "triangle", "star", "ellipse", "hexagon", "pentagon",
            "rectangle", "line")
"""Kinds tried, in order, when a requirement asks for "shapes" of no particular kind."""
_FAMILY_RGB: dict[str, RGB] = {
    "red": (220, 20, 20), "orange": (255, 140, 0), "yellow": (255, 215, 0),
    "green": (34, 139, 34), "cyan": (0, 188, 212), "blue": (30, 90, 220),
    "purple": (123, 44, 191), "magenta": (214, 26, 170), "pink": (255, 150, 190),
    "brown": (139, 69, 19), "black": (20, 20, 20), "white": (255, 255, 255),
    "gray": (128, 128, 128),
}
_DEFAULT_ORDER = ("blue", "red", "green", "orange", "purple", "yellow", "cyan", "brown",
                  "magenta", "gray", "black", "white")
"""Colours for shapes no requirement colours, tried in this order."""
_NICE_CELLS = ((1, 1), (0, 0), (2, 2), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1))


@dataclass(eq=False)
class _Group:
    """``count`` identical shapes drawn together; identity is the group itself."""

    kind: str
    color: ColorSpec | None = None
    count: int = 1
    exact: bool = False
    text: str | None = None
    stroke: ColorSpec | None = None
    parent: _Group | None = None
    children: list[_Group] = field(default_factory=list)
    fill_rgb: RGB | None = None
    stroke_rgb: RGB | None = None

    def answers(self, noun: str) -> bool:
        if noun == ANY_ELEMENT:
            return True
        if noun == ANY_SHAPE:
            return self.kind != "text"
        return noun in _ANSWERS[self.kind]

    def top(self) -> _Group:
        group = self
        while group.parent is not None:
            group = group.parent
        return group


def draw_svg(item: SvgItem, seed: int = 0) -> str:
    """A completion for ``item``: one fenced SVG document drawing what its requirements ask."""
    predicates = [p for p in (parse_requirement(r) for r in item.requirements) if p is not None]
    plan = _Plan(predicates)
    return f"```svg\n{plan.draw(seed)}\n```"


class _Plan:
    """What to draw, read off the predicates; ``draw`` lays it out and writes the SVG."""

    def __init__(self, predicates: Sequence[Predicate]) -> None:
        self.size = DEFAULT_CANVAS
        self.background: ColorSpec | None = None
        self.groups: list[_Group] = []
        self.relations: list[tuple[_Group, str, _Group]] = []
        self.placements: list[tuple[_Group, str]] = []
        self.counts = [p for p in predicates if isinstance(p, ShapeCount)]
        self.rules = [p for p in predicates if isinstance(p, AllColored)]
        self.mentioned = _mentioned_colors(predicates)
        for p in predicates:
            if isinstance(p, CanvasSize) and 0 < p.width <= MAX_CANVAS and 0 < p.height <= MAX_CANVAS:
                self.size = (p.width, p.height)
            elif isinstance(p, BackgroundColor) and self.background is None:
                self.background = p.color
        self.bg_rgb = _rgb(self.background) if self.background else (255, 255, 255)
        self._name_shapes(predicates)
        self._meet_counts()
        if not any(g.kind != "text" for g in self.groups):  # draw something, or it is blank
            filler = _Group(self._concrete(ANY_SHAPE))
            if self._room(filler, 1):
                self.groups.append(filler)
        self._color_groups([p for p in predicates if isinstance(p, ColorsUsed)])

    # -- which shapes ---------------------------------------------------------------------

    def _name_shapes(self, predicates: Sequence[Predicate]) -> None:
        for p in self.counts:  # shapes a count names by colour or text
            sel = p.selector
            if p.n < 1 or p.op == "<=" or (sel.color is None and sel.text is None):
                continue
            group = self._ensure(sel)
            wanted = min(p.n, MAX_GROUP_COUNT)
            if p.op == "==" and not group.exact:
                group.count, group.exact = wanted, True
            elif not group.exact:
                group.count = max(group.count, wanted)
        for p in predicates:
            if isinstance(p, Relation):
                a, b = self._ensure(p.a), self._ensure(p.b)
                if a is b:
                    continue
                if p.relation == "inside":
                    if a.parent is None and not _contains(a, b) and b.kind not in (
                            "line", "polyline", "path", "text"):
                        a.parent = b
                        b.children.append(a)
                else:
                    self.relations.append((a, p.relation, b))
            elif isinstance(p, Placement):
                self.placements.append((self._ensure(p.selector), p.region))
            elif isinstance(p, Outlined):
                group = self._ensure(p.selector)
                if group.stroke is None:
                    group.stroke = p.color
        for rule in self.rules:  # "all stars must be yellow" needs a star
            if not any(g.answers(rule.selector.kind) for g in self.groups):
                self._ensure(Selector(rule.selector.kind, rule.color))

    def _ensure(self, sel: Selector) -> _Group:
        """The group ``sel`` names, adopting a colour into an uncoloured one, else a new one."""
        for group in self.groups:
            if sel.text is not None:
                if group.kind == "text" and sel.text.lower() in (group.text or "").lower():
                    return group
                continue
            if not group.answers(sel.kind) or group.kind == "text" and sel.kind != "text":
                continue
            if sel.color is None or group.color is not None and self._same(group.color,
                                                                           sel.color):
                return group
        if sel.color is not None:  # an uncoloured shape of the kind takes the colour
            for group in self.groups:
                if sel.text is None and group.color is None and group.answers(sel.kind) \
                        and group.kind != "text":
                    group.color = sel.color
                    return group
        if sel.text is not None:
            group = _Group("text", sel.color, text=sel.text)
        else:
            group = _Group(self._concrete(sel.kind), sel.color)
        self.groups.append(group)
        return group

    def _same(self, mine: ColorSpec, asked: ColorSpec) -> bool:
        return mine.text == asked.text or asked.matches(_rgb(mine))

    def _selects(self, sel: Selector, group: _Group) -> bool:
        if sel.text is not None:
            return group.kind == "text" and sel.text.lower() in (group.text or "").lower()
        if not group.answers(sel.kind):
            return False
        return sel.color is None or group.color is not None and self._same(group.color, sel.color)

    def _count(self, sel: Selector) -> int:
        return sum(g.count for g in self.groups if self._selects(sel, g))

    def _room(self, group: _Group, extra: int) -> bool:
        """Whether ``extra`` more shapes like ``group`` break no "exactly"/"at most" count."""
        return all(self._count(p.selector) + extra <= p.n for p in self.counts
                   if p.op in ("==", "<=") and self._selects(p.selector, group))

    def _concrete(self, noun: str, color: ColorSpec | None = None) -> str:
        if noun in _ANSWERS:
            return noun
        for kind in _FILLERS:  # "shape", "element": a kind no exact count limits
            if self._room(_Group(kind, color), 1):
                return kind
        return "circle"

    def _meet_counts(self) -> None:
        for _ in range(3):
            changed = False
            for p in self.counts:
                have, sel = self._count(p.selector), p.selector
                if p.op in (">=", "==") and have < p.n:
                    changed |= self._add(sel, min(p.n, MAX_GROUP_COUNT) - have)
                elif p.op in ("==", "<=") and have > p.n:
                    changed |= self._remove(sel, have - p.n)
            if not changed:
                return

    def _add(self, sel: Selector, missing: int) -> bool:
        if missing <= 0:
            return False
        for group in self.groups:
            if self._selects(sel, group) and not group.exact and group.kind != "text" \
                    and self._room(group, missing):
                group.count += missing
                return True
        if sel.text is not None:
            return False
        group = _Group(self._concrete(sel.kind), sel.color, count=missing)
        if not self._room(group, missing):
            return False
        self.groups.append(group)
        return True

    def _remove(self, sel: Selector, excess: int) -> bool:
        changed = False
        for group in self.groups:
            if excess > 0 and self._selects(sel, group) and not group.exact and group.count > 1:
                cut = min(excess, group.count - 1)
                group.count -= cut
                excess -= cut
                changed = True
        return changed

    # -- which colours --------------------------------------------------------------------

    def _color_groups(self, palettes: Sequence[ColorsUsed]) -> None:
        for group in self.groups:
            for rule in self.rules:
                if group.color is None and group.answers(rule.selector.kind):
                    group.color = rule.color
        for palette in palettes:
            for spec in palette.colors:
                if self._painted(spec):
                    if palette.any_of:
                        break
                    continue
                free = [g for g in self.groups if g.color is None]
                free.sort(key=lambda g: g.kind == "text")
                if free:
                    free[0].color = spec
                else:
                    outlined = [g for g in self.groups if g.stroke is None
                                and g.kind not in ("text", "line", "polyline", "path")]
                    extra = _Group(self._concrete(ANY_SHAPE, spec), spec)
                    if outlined:
                        outlined[0].stroke = spec
                    elif self._room(extra, 1):  # a small shape of its own
                        self.groups.append(extra)
                if palette.any_of:
                    break
        taken = [_rgb(g.color) for g in self.groups if g.color is not None]
        for group in sorted(self.groups, key=lambda g: g.kind == "text"):  # labels: see behind
            if group.color is not None:
                group.fill_rgb = _rgb(group.color, self.mentioned)
            elif group.kind == "text":
                group.fill_rgb = _contrast(self._backdrop(group))
            else:
                group.fill_rgb = self._free_rgb(taken)
                taken.append(group.fill_rgb)
            if group.stroke is not None:
                group.stroke_rgb = _rgb(group.stroke, self.mentioned)
        for group in self.groups:  # keep every shape visible against what is behind it
            behind = self._backdrop(group)
            if group.stroke_rgb is None and _distance(group.fill_rgb, behind) < 60 \
                    and group.kind not in ("text", "line", "polyline", "path"):
                group.stroke_rgb = _contrast(behind)

    def _painted(self, spec: ColorSpec) -> bool:
        if spec.matches(self.bg_rgb):  # the background is a drawn rectangle too
            return True
        return any(c is not None and self._same(c, spec)
                   for g in self.groups for c in (g.color, g.stroke))

    def _backdrop(self, group: _Group) -> RGB:
        if group.parent is not None:
            parent = group.parent
            return parent.fill_rgb or (_rgb(parent.color) if parent.color else self.bg_rgb)
        return self.bg_rgb

    def _free_rgb(self, taken: list[RGB]) -> RGB:
        """A colour no requirement names, far from the background and the other shapes."""
        candidates = [_FAMILY_RGB[name] for name in _DEFAULT_ORDER]
        for strict in (True, False):
            for rgb in candidates:
                if any(spec.matches(rgb) for spec in self.mentioned):
                    continue
                if _distance(rgb, self.bg_rgb) < 120:
                    continue
                if strict and any(_distance(rgb, t) < 60 for t in taken):
                    continue
                return rgb
        return _contrast(self.bg_rgb)

    # -- where ----------------------------------------------------------------------------

    def draw(self, seed: int) -> str:
        width, height = self.size
        top = [g for g in self.groups if g.parent is None]
        cells, rows, cols = self._layout(top, seed)
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
               f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}">',
               f'  <rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
               f'fill="{_hex(self.bg_rgb)}"/>']
        for group in top:
            _draw_group(group, self._cell_box(cells[group], rows, cols), out)
        out.append("</svg>")
        return "\n".join(out)

    def _layout(self, top: list[_Group],
                seed: int) -> tuple[dict[_Group, tuple[int, int]], int, int]:
        """A cell for each top-level group on a rows x cols grid meeting the relations and
        placements (the last placements dropped when no grid up to ``MAX_GRID`` meets them
        all, and with none met, one group per column in an order the relations allow), then
        the empty rows and columns squeezed out where the placements still hold."""
        if not top:
            return {}, 1, 1
        relations = _consistent([(a.top(), rel, b.top()) for a, rel, b in self.relations
                                 if a.top() is not b.top()])
        placements = [(g.top(), region) for g, region in self.placements]
        rows_needed = max(_levels(top, relations, "row").values()) + 1
        cols_needed = max(_levels(top, relations, "col").values()) + 1
        for keep in range(len(placements), max(-1, len(placements) - 4), -1):
            constraints: list[tuple] = [*placements[:keep], *relations]
            for size in range(3, MAX_GRID + 1):
                rows, cols = max(size, rows_needed), max(size, cols_needed)
                found = self._solve(top, constraints, rows, cols, seed)
                if found is not None:
                    return self._squeeze(found, constraints, rows, cols)
        row_level = _levels(top, relations, "row")
        col_level = _levels(top, relations, "col")
        order = sorted(range(len(top)), key=lambda i: (col_level[top[i]], i))
        cells = {top[i]: (row_level[top[i]], rank) for rank, i in enumerate(order)}
        return self._squeeze(cells, [], rows_needed, len(top))

    def _cell_box(self, cell: tuple[int, int], rows: int, cols: int) -> Box:
        width, height = self.size
        margin = 0.05 * min(width, height)
        cw, ch = (width - 2 * margin) / cols, (height - 2 * margin) / rows
        return _shrink((margin + cell[1] * cw, margin + cell[0] * ch, cw, ch), 0.9)

    def _fits(self, group: _Group, cell: tuple[int, int], region: str, rows: int,
              cols: int) -> bool:
        """Whether some shape of ``group``, drawn in ``cell``, has its centre in ``region``."""
        width, height = self.size
        return any(_in_region((x + w / 2) / width, (y + h / 2) / height, region)
                   for x, y, w, h in _member_boxes(group, self._cell_box(cell, rows, cols)))

    def _squeeze(self, cells: dict[_Group, tuple[int, int]], constraints: list[tuple], rows: int,
                 cols: int) -> tuple[dict[_Group, tuple[int, int]], int, int]:
        """Drop empty rows and columns (bigger shapes) unless a placement then fails."""
        regions = [k for k in constraints if len(k) == 2]
        used_rows = sorted({r for r, _ in cells.values()})
        used_cols = sorted({c for _, c in cells.values()})
        for squeeze_rows, squeeze_cols in ((True, True), (True, False), (False, True)):
            row_of = {r: i for i, r in enumerate(used_rows)} if squeeze_rows else None
            col_of = {c: i for i, c in enumerate(used_cols)} if squeeze_cols else None
            n_rows = len(used_rows) if squeeze_rows else rows
            n_cols = len(used_cols) if squeeze_cols else cols
            moved = {g: (row_of[r] if row_of else r, col_of[c] if col_of else c)
                     for g, (r, c) in cells.items()}
            if all(self._fits(g, moved[g], region, n_rows, n_cols) for g, region in regions):
                return moved, max(1, n_rows), max(1, n_cols)
        return cells, rows, cols

    def _solve(self, top: list[_Group], constraints: list[tuple], rows: int, cols: int,
               seed: int) -> dict[_Group, tuple[int, int]] | None:
        """The most compact assignment found (ties: the seed picks), or None."""
        if len(top) > rows * cols:
            return None
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        if rows == cols == 3:
            cells = list(_NICE_CELLS)
        if seed:
            random.Random(seed).shuffle(cells)
        regions = [k for k in constraints if len(k) == 2]
        domains = {g: [c for c in cells if all(self._fits(g, c, r, rows, cols)
                                               for h, r in regions if h is g)] for g in top}
        pairs = [k for k in constraints if len(k) == 3]
        order = sorted(top, key=lambda g: len(domains[g]))
        chosen: dict[_Group, tuple[int, int]] = {}
        used: set[tuple[int, int]] = set()
        found: list[dict[_Group, tuple[int, int]]] = []
        budget = [SEARCH_BUDGET]

        pairs_of: dict[_Group, list[tuple]] = {g: [] for g in top}
        for pair in pairs:
            pairs_of[pair[0]].append(pair)
            pairs_of[pair[2]].append(pair)

        def ok(group: _Group, cell: tuple[int, int]) -> bool:
            for a, rel, b in pairs_of[group]:
                if a is group and b in chosen and not _ordered(cell, rel, chosen[b]):
                    return False
                if b is group and a in chosen and not _ordered(chosen[a], rel, cell):
                    return False
            return True

        def search(index: int) -> None:
            budget[0] -= 1
            if budget[0] < 0 or len(found) >= MAX_SOLUTIONS:
                return
            if index == len(order):
                found.append(dict(chosen))
                return
            group = order[index]
            for cell in domains[group]:
                if cell in used or not ok(group, cell):
                    continue
                chosen[group] = cell
                used.add(cell)
                search(index + 1)
                del chosen[group]
                used.discard(cell)

        search(0)
        if not found:
            return None
        costs = [_spread(f, rows, cols) for f in found]
        best = [f for f, c in zip(found, costs, strict=True) if c == min(costs)]
        return random.Random(seed).choice(best) if seed else best[0]


def _spread(cells: dict[_Group, tuple[int, int]], rows: int, cols: int) -> tuple[int, float]:
    """How loose an assignment is: the rows x columns it spans, then how far off centre."""
    used_rows = {r for r, _ in cells.values()}
    used_cols = {c for _, c in cells.values()}
    mid_r = (min(used_rows) + max(used_rows)) / 2 - (rows - 1) / 2
    mid_c = (min(used_cols) + max(used_cols)) / 2 - (cols - 1) / 2
    return len(used_rows) * len(used_cols), abs(mid_r) + abs(mid_c)


def _contains(group: _Group, other: _Group) -> bool:
    """Whether ``other`` is ``group`` or drawn inside it (nesting it would make a cycle)."""
    while other is not None:
        if other is group:
            return True
        other = other.parent
    return False


def _consistent(relations: list[tuple[_Group, str, _Group]]
                ) -> list[tuple[_Group, str, _Group]]:
    """The relations in order, leaving out each one that contradicts those kept before it
    (a cycle of "above" or of "left of"), so the layout search never chases the impossible."""
    before: dict[str, dict[_Group, set[_Group]]] = {"row": {}, "col": {}}
    kept = []
    for a, rel, b in relations:
        axis = "row" if rel in ("above", "below") else "col"
        first, second = (a, b) if rel in ("above", "left_of") else (b, a)
        graph = before[axis]
        if _reaches(graph, second, first):
            continue
        graph.setdefault(first, set()).add(second)
        kept.append((a, rel, b))
    return kept


def _reaches(graph: dict[_Group, set[_Group]], start: _Group, goal: _Group) -> bool:
    stack, seen = [start], set()
    while stack:
        node = stack.pop()
        if node is goal:
            return True
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(graph.get(node, ()))
    return False


def _levels(top: list[_Group], relations: list[tuple[_Group, str, _Group]],
            axis: str) -> dict[_Group, int]:
    """Each group's row (``axis`` "row") or column level: 0, or one past every group the
    (acyclic) relations put before it."""
    names = ("above", "below") if axis == "row" else ("left_of", "right_of")
    before: dict[_Group, list[_Group]] = {g: [] for g in top}
    for a, rel, b in relations:
        if rel == names[0]:
            before[b].append(a)
        elif rel == names[1]:
            before[a].append(b)
    level: dict[_Group, int] = {}

    def visit(group: _Group) -> int:
        if group not in level:
            level[group] = 0  # provisional; relations are acyclic
            level[group] = max((visit(g) + 1 for g in before[group]), default=0)
        return level[group]

    for group in top:
        visit(group)
    return level


def _ordered(a: tuple[int, int], relation: str, b: tuple[int, int]) -> bool:
    if relation == "above":
        return a[0] < b[0]
    if relation == "below":
        return a[0] > b[0]
    if relation == "left_of":
        return a[1] < b[1]
    if relation == "right_of":
        return a[1] > b[1]
    return True


def _in_region(u: float, v: float, region: str) -> bool:
    """Where a centre at (u, v) of the canvas counts as ``region`` (as ``Placement`` reads it)."""
    tol = CENTER_TOLERANCE * 0.8  # a margin for the shapes of a group around their cell's centre
    checks = {"center": abs(u - 0.5) <= tol and abs(v - 0.5) <= tol, "hcenter": abs(u - 0.5) <= tol,
              "vcenter": abs(v - 0.5) <= tol, "top": v < 0.45, "bottom": v > 0.55,
              "left": u < 0.45, "right": u > 0.55}
    if region in checks:
        return checks[region]
    vertical, _, horizontal = region.removesuffix("_corner").partition("_")
    limit = 0.3 if region.endswith("_corner") else 0.45
    ok_v = v < limit if vertical == "top" else v > 1 - limit
    ok_h = u < limit if horizontal == "left" else u > 1 - limit
    return ok_v and ok_h


# -- drawing ------------------------------------------------------------------------------

Box = tuple[float, float, float, float]
"""(x, y, width, height)."""


def _shrink(box: Box, factor: float) -> Box:
    x, y, w, h = box
    return (x + w * (1 - factor) / 2, y + h * (1 - factor) / 2, w * factor, h * factor)


def _member_boxes(group: _Group, box: Box) -> list[Box]:
    """Where each shape of ``group`` goes in ``box``: a small grid, short last row centred."""
    n = group.count
    cols = 1 if group.kind == "line" else math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    x, y, w, h = box
    mw, mh = w / cols, h / rows
    boxes = []
    for i in range(n):
        r, c = divmod(i, cols)
        left = x + c * mw
        if r == rows - 1 and n % cols:
            left += (cols - n % cols) * mw / 2
        boxes.append(_shrink((left, y + r * mh, mw, mh), 0.9) if n > 1 else (left, y, mw, mh))
    return boxes


def _draw_group(group: _Group, box: Box, out: list[str]) -> None:
    """Draw the group's shapes in ``box`` and its children inside the first one."""
    inner: Box | None = None
    for i, member in enumerate(_member_boxes(group, box)):
        drawn = _draw_shape(group, member, out)
        if i == 0:
            inner = drawn
    if group.children and inner is not None:
        ix, iy, iw, ih = inner
        share = iw / len(group.children)
        for k, child in enumerate(group.children):
            _draw_group(child, (ix + k * share, iy, share, ih), out)


def _draw_shape(group: _Group, box: Box, out: list[str]) -> Box:
    """One shape of ``group`` centred in ``box``; returns the box its children go in."""
    x, y, w, h = box
    cx, cy, s = x + w / 2, y + h / 2, min(w, h)
    fill = _hex(group.fill_rgb or (0, 0, 0))
    stroke = ""
    if group.stroke_rgb is not None and group.kind not in ("line", "polyline", "path", "text"):
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


# -- colours ------------------------------------------------------------------------------

def _mentioned_colors(predicates: Sequence[Predicate]) -> tuple[ColorSpec, ...]:
    """Colours that requirements pick shapes by (a shape given another colour must not
    answer to them)."""
    found: list[ColorSpec] = []
    for p in predicates:
        if isinstance(p, ShapeCount | Outlined | Placement):
            sels = [p.selector]
        elif isinstance(p, AllColored):
            sels = [p.selector]
            found.append(p.color)
        elif isinstance(p, Relation):
            sels = [p.a, p.b]
        else:
            sels = []
        found += [s.color for s in sels if s.color is not None]
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=1024)
def _rgb(spec: ColorSpec, avoid: tuple[ColorSpec, ...] = ()) -> RGB:
    """A colour ``spec`` names, if possible one that no other colour in ``avoid`` names too."""
    base = _canonical(spec)
    others = [a for a in avoid if a.text != spec.text and not a.matches(base)]
    if spec.rgb is not None or not any(a.matches(base) for a in others):
        return base
    for rgb in _candidates():
        if spec.matches(rgb) and not any(a.matches(rgb) for a in others):
            return rgb
    return base


def _canonical(spec: ColorSpec) -> RGB:
    if spec.rgb is not None:
        return spec.rgb
    family = spec.family or "gray"
    base = _FAMILY_RGB.get(family, (128, 128, 128))
    tweak = {"light": 0.75, "pale": 0.82, "pastel": 0.8, "dark": 0.25, "deep": 0.28}
    if spec.modifier in tweak:
        hue, sat, _ = hsl(base)
        if family == "gray":
            level = round(255 * tweak[spec.modifier])
            base = (level, level, level)
        else:
            base = _from_hsl(hue, max(sat, 0.6), tweak[spec.modifier])
    if spec.matches(base):
        return base
    return next((rgb for rgb in _candidates() if spec.matches(rgb)), base)


@lru_cache(maxsize=1)
def _candidates() -> tuple[RGB, ...]:
    """An ordered sweep of colours to search when the canonical one does not fit."""
    out = []
    for light in (0.5, 0.4, 0.6, 0.3, 0.7, 0.25, 0.8, 0.15, 0.9, 0.05, 0.97):
        for sat in (0.9, 0.6, 0.3, 0.0):
            for hue in range(0, 360, 6):
                out.append(_from_hsl(hue, sat, light))
    return tuple(dict.fromkeys(out))


def _from_hsl(hue: float, sat: float, light: float) -> RGB:
    r, g, b = colorsys.hls_to_rgb(hue / 360, light, sat)
    return (round(r * 255), round(g * 255), round(b * 255))


def _contrast(rgb: RGB) -> RGB:
    """Black or white, whichever stands out more on ``rgb``."""
    luminance = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (20, 20, 20) if luminance > 140 else (255, 255, 255)


def _distance(a: RGB | None, b: RGB) -> float:
    if a is None:
        return 0.0
    return math.dist(a, b)


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)

