"""Where the svg expert's shapes go: one grid cell per top-level group, found by a small
search that meets every "above"/"left of" order and every region placement, then the box of
each shape inside its group's cell."""

from __future__ import annotations

import math
import random

from designrl.policies.svg_expert.plan import Group
from designrl.tasks.svg.predicates import CENTER_TOLERANCE

MAX_GRID = 5
SEARCH_BUDGET = 4_000
MAX_SOLUTIONS = 200
NICE_CELLS = ((1, 1), (0, 0), (2, 2), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1))
"""The 3 x 3 grid's cells, most pleasing first: the centre, then the corners."""

Box = tuple[float, float, float, float]
"""(x, y, width, height)."""
Cell = tuple[int, int]
"""(row, column)."""
Size = tuple[float, float]
"""The canvas: (width, height)."""


def place_groups(top: list[Group], relations: list[tuple[Group, str, Group]],
                 placements: list[tuple[Group, str]], size: Size,
                 seed: int) -> tuple[dict[Group, Cell], int, int]:
    """A cell for each top-level group on a rows x cols grid meeting the relations and
    placements (the last placements dropped when no grid up to ``MAX_GRID`` meets them
    all, and with none met, one group per column in an order the relations allow), then
    the empty rows and columns squeezed out where the placements still hold."""
    if not top:
        return {}, 1, 1
    relations = _consistent([(a.top(), rel, b.top()) for a, rel, b in relations
                             if a.top() is not b.top()])
    placements = [(g.top(), region) for g, region in placements]
    row_level = _levels(top, relations, "row")
    col_level = _levels(top, relations, "col")
    rows_needed = max(row_level.values()) + 1
    cols_needed = max(col_level.values()) + 1
    for keep in range(len(placements), max(-1, len(placements) - 4), -1):
        constraints: list[tuple] = [*placements[:keep], *relations]
        for grid in range(3, MAX_GRID + 1):
            rows, cols = max(grid, rows_needed), max(grid, cols_needed)
            found = _solve(top, constraints, rows, cols, size, seed)
            if found is not None:
                return _squeeze(found, constraints, rows, cols, size)
    order = sorted(range(len(top)), key=lambda i: (col_level[top[i]], i))
    cells = {top[i]: (row_level[top[i]], rank) for rank, i in enumerate(order)}
    return _squeeze(cells, [], rows_needed, len(top), size)


def cell_box(cell: Cell, rows: int, cols: int, size: Size) -> Box:
    """The box a group in ``cell`` is drawn in, inside a margin round the canvas."""
    width, height = size
    margin = 0.05 * min(width, height)
    cw, ch = (width - 2 * margin) / cols, (height - 2 * margin) / rows
    return shrink((margin + cell[1] * cw, margin + cell[0] * ch, cw, ch), 0.9)


def member_boxes(group: Group, box: Box) -> list[Box]:
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
        boxes.append(shrink((left, y + r * mh, mw, mh), 0.9) if n > 1 else (left, y, mw, mh))
    return boxes


def shrink(box: Box, factor: float) -> Box:
    x, y, w, h = box
    return (x + w * (1 - factor) / 2, y + h * (1 - factor) / 2, w * factor, h * factor)


def _fits(group: Group, cell: Cell, region: str, rows: int, cols: int, size: Size) -> bool:
    """Whether some shape of ``group``, drawn in ``cell``, has its centre in ``region``."""
    width, height = size
    return any(_in_region((x + w / 2) / width, (y + h / 2) / height, region)
               for x, y, w, h in member_boxes(group, cell_box(cell, rows, cols, size)))


def _squeeze(cells: dict[Group, Cell], constraints: list[tuple], rows: int, cols: int,
             size: Size) -> tuple[dict[Group, Cell], int, int]:
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
        if all(_fits(g, moved[g], region, n_rows, n_cols, size) for g, region in regions):
            return moved, max(1, n_rows), max(1, n_cols)
    return cells, rows, cols


def _solve(top: list[Group], constraints: list[tuple], rows: int, cols: int, size: Size,
           seed: int) -> dict[Group, Cell] | None:
    """The most compact assignment found (ties: the seed picks), or None."""
    if len(top) > rows * cols:
        return None
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if rows == cols == 3:
        cells = list(NICE_CELLS)
    if seed:
        random.Random(seed).shuffle(cells)
    regions = [k for k in constraints if len(k) == 2]
    domains = {g: [c for c in cells if all(_fits(g, c, r, rows, cols, size)
                                           for h, r in regions if h is g)] for g in top}
    pairs = [k for k in constraints if len(k) == 3]
    order = sorted(top, key=lambda g: len(domains[g]))
    chosen: dict[Group, Cell] = {}
    used: set[Cell] = set()
    found: list[dict[Group, Cell]] = []
    budget = [SEARCH_BUDGET]

    pairs_of: dict[Group, list[tuple]] = {g: [] for g in top}
    for pair in pairs:
        pairs_of[pair[0]].append(pair)
        pairs_of[pair[2]].append(pair)

    def ok(group: Group, cell: Cell) -> bool:
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


def _spread(cells: dict[Group, Cell], rows: int, cols: int) -> tuple[int, float]:
    """How loose an assignment is: the rows x columns it spans, then how far off centre."""
    used_rows = {r for r, _ in cells.values()}
    used_cols = {c for _, c in cells.values()}
    mid_r = (min(used_rows) + max(used_rows)) / 2 - (rows - 1) / 2
    mid_c = (min(used_cols) + max(used_cols)) / 2 - (cols - 1) / 2
    return len(used_rows) * len(used_cols), abs(mid_r) + abs(mid_c)


def _consistent(relations: list[tuple[Group, str, Group]]) -> list[tuple[Group, str, Group]]:
    """The relations in order, leaving out each one that contradicts those kept before it
    (a cycle of "above" or of "left of"), so the layout search never chases the impossible."""
    before: dict[str, dict[Group, set[Group]]] = {"row": {}, "col": {}}
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


def _reaches(graph: dict[Group, set[Group]], start: Group, goal: Group) -> bool:
    stack, seen = [start], set()
    while stack:
        node = stack.pop()
        if node is goal:
            return True
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(graph.get(node, ()))
    return False


def _levels(top: list[Group], relations: list[tuple[Group, str, Group]],
            axis: str) -> dict[Group, int]:
    """Each group's row (``axis`` "row") or column level: 0, or one past every group the
    (acyclic) relations put before it."""
    names = ("above", "below") if axis == "row" else ("left_of", "right_of")
    before: dict[Group, list[Group]] = {g: [] for g in top}
    for a, rel, b in relations:
        if rel == names[0]:
            before[b].append(a)
        elif rel == names[1]:
            before[a].append(b)
    level: dict[Group, int] = {}

    def visit(group: Group) -> int:
        if group not in level:
            level[group] = 0  # provisional; relations are acyclic
            level[group] = max((visit(g) + 1 for g in before[group]), default=0)
        return level[group]

    for group in top:
        visit(group)
    return level


def _ordered(a: Cell, relation: str, b: Cell) -> bool:
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
