"""Action geometry: what each layout action does to a layout, and layout repair.

Each action is one function of plain values (``move(task, layout, element_id,
dx, dy)``, ...) so that DesignGym's lenient parser and the strict pydantic
actions can both call it. An action function mutates ``layout`` in place (the
caller passes a copy) and returns ``None`` on success or DesignGym's error
string (``unknown_element``, ``invalid_axis``, ...); after an error the layout
may be partly changed and should be discarded.

The geometry is DesignGym 2.0's, float operation for float operation:

* ``move``, ``resize``, ``align``, ``distribute``, ``snap``, ``promote``,
  ``reflow_group`` and ``anchor_to_region`` end with ``repair`` of the whole
  layout; ``apply_template`` and ``swap_z`` do not (a template can therefore
  break a hard constraint).
* ``resize`` keeps the point named by ``anchor`` fixed ("center", "north",
  "south", ...); an unlisted anchor (e.g. "se") keeps the top-left corner.
  DesignGym's compass names are its own: "north" keeps the bottom-centre fixed
  (the box grows upward), "south" keeps the top-centre, "east" the left-middle,
  "west" the right-middle, "nw" the bottom-right, "ne" the bottom-left and "sw"
  the top-right.
* ``promote`` grows the box around its top-left-ish point and sets z to the
  current maximum z (so z values can repeat).
"""

from __future__ import annotations

from collections.abc import Sequence

from designrl.tasks.layout.layout_view import task_info
from designrl.tasks.layout.metric_arithmetic import EPS
from designrl.tasks.layout.spec import Layout, TaskSpec

PROMOTE_DEFAULT_STRENGTH = 0.06
REFLOW_MIN_GAP = 0.012
GRID2_GUTTER = 0.018
SIDEBAR_MIN_X = 0.52
SIDEBAR_GAP = 0.016


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


def repair(task: TaskSpec, layout: Layout) -> None:
    """Make every box legal in place: clamp w, h to [min, max]; pull a locked aspect ratio
    to its target (changing whichever side moves less); clamp x, y into the safe area.

    ``clamp(v, lo, hi)`` is DesignGym's ``max(lo, min(hi, v))``, written as conditional
    expressions that pick the same operand as ``min``/``max`` (NaN included)."""
    info = task_info(task)
    lo = info.margin
    hi = 1.0 - info.margin
    canvas = info.canvas_aspect
    index = info.index
    mins, maxs, aspects = info.min_size, info.max_size, info.aspect
    for e in layout.elements:
        k = index[e.id]
        x, y, w, h = e.bbox
        min_w, min_h = mins[k]
        max_w, max_h = maxs[k]
        w = w if w < max_w else max_w
        w = w if w > min_w else min_w
        h = h if h < max_h else max_h
        h = h if h > min_h else min_h
        ar = aspects[k]
        if ar:
            if canvas != 1.0:
                ar = ar / canvas  # the locked ratio in normalised units
            t = h * ar
            t = t if t < max_w else max_w
            target_w = t if t > min_w else min_w
            t = w / ar
            t = t if t < max_h else max_h
            target_h = t if t > min_h else min_h
            if abs(target_w - w) <= abs(target_h - h) * ar:
                w = target_w
            else:
                h = target_h
        t = hi - w
        x = x if x < t else t
        x = x if x > lo else lo
        t = hi - h
        y = y if y < t else t
        y = y if y > lo else lo
        e.bbox = [x, y, w, h]


def _find(layout: Layout, element_id) -> object | None:
    if not element_id:
        return None
    for e in layout.elements:
        if e.id == element_id:
            return e
    return None


def move(task: TaskSpec, layout: Layout, element_id: str | None, dx: float, dy: float) -> str | None:
    """Shift one element by (dx, dy), then repair."""
    e = _find(layout, element_id)
    if e is None:
        return "unknown_element"
    info = task_info(task)
    if not info.movable[info.index[e.id]]:
        return "element_not_movable"
    x, y, w, h = e.bbox
    e.bbox = [x + dx, y + dy, w, h]
    repair(task, layout)
    return None


def resize(task: TaskSpec, layout: Layout, element_id: str | None, dw: float, dh: float,
           anchor: str = "center") -> str | None:
    """Grow by (dw, dh) keeping the anchor point fixed (unlisted anchor: top-left), then repair."""
    e = _find(layout, element_id)
    if e is None:
        return "unknown_element"
    info = task_info(task)
    if not info.resizable[info.index[e.id]]:
        return "element_not_resizable"
    x, y, w, h = e.bbox
    new_w = w + dw
    new_h = h + dh
    if anchor == "center":
        x -= dw / 2.0
        y -= dh / 2.0
    elif anchor == "east":
        y -= dh / 2.0
    elif anchor == "south":
        x -= dw / 2.0
    elif anchor == "ne":
        y -= dh
    elif anchor == "nw":
        x -= dw
        y -= dh
    elif anchor == "sw":
        x -= dw
    elif anchor == "north":
        x -= dw / 2.0
        y -= dh
    elif anchor == "west":
        x -= dw
        y -= dh / 2.0
    e.bbox = [x, y, new_w, new_h]
    repair(task, layout)
    return None


def _known(layout: Layout, element_ids: Sequence[str]) -> tuple[list, dict]:
    by_id = {e.id: e for e in layout.elements}
    return [by_id[i] for i in element_ids if i in by_id], by_id


def align(task: TaskSpec, layout: Layout, element_ids: Sequence[str], axis: str | None,
          mode: str | None) -> str | None:
    """Align known elements (>= 2; repeats count): x axis left/center/right to the min left,
    mean centre or max right; y axis top/middle/bottom likewise; then repair."""
    els, _ = _known(layout, element_ids)
    if len(els) < 2:
        return "align_needs_two_or_more_elements"
    if axis == "x":
        p, s = 0, 2
        modes = ("left", "center", "right")
    elif axis == "y":
        p, s = 1, 3
        modes = ("top", "middle", "bottom")
    else:
        return "invalid_axis"
    if mode == modes[0]:
        target = min(e.bbox[p] for e in els)
        for e in els:
            e.bbox[p] = target
    elif mode == modes[1]:
        acc = 0
        for e in els:
            acc += e.bbox[p] + e.bbox[s] / 2.0
        target = acc / len(els)
        for e in els:
            e.bbox[p] = target - e.bbox[s] / 2.0
    elif mode == modes[2]:
        target = max(e.bbox[p] + e.bbox[s] for e in els)
        for e in els:
            e.bbox[p] = target - e.bbox[s]
    else:
        return "invalid_align_mode"
    repair(task, layout)
    return None


def distribute(task: TaskSpec, layout: Layout, element_ids: Sequence[str],
               axis: str | None) -> str | None:
    """Equal gaps between known elements (>= 3) sorted by position between the first's start
    and the last's end; rejected when they do not fit (gap < -1e-9); then repair."""
    els, _ = _known(layout, element_ids)
    if len(els) < 3:
        return "distribute_needs_three_or_more_elements"
    if axis == "x":
        p, s = 0, 2
    elif axis == "y":
        p, s = 1, 3
    else:
        return "invalid_axis"
    els.sort(key=lambda e: e.bbox[p])
    start = els[0].bbox[p]
    end = els[-1].bbox[p] + els[-1].bbox[s]
    total = 0
    for e in els:
        total += e.bbox[s]
    gap = (end - start - total) / (len(els) - 1)
    if gap < -EPS:
        return "negative_distribution_gap"
    cursor = start
    for e in els:
        e.bbox[p] = cursor
        cursor += e.bbox[s] + gap
    repair(task, layout)
    return None


def swap_z(task: TaskSpec, layout: Layout, element_ids: Sequence[str]) -> str | None:
    """Exchange the z of exactly two known elements (no repair)."""
    els, _ = _known(layout, element_ids)
    if len(els) != 2:
        return "swap_z_needs_exactly_two_elements"
    a, b = els
    a.z, b.z = b.z, a.z
    return None


def snap(task: TaskSpec, layout: Layout, element_id: str | None, grid: int) -> str | None:
    """Round x, y, w, h to multiples of 1/grid (round half to even), then repair."""
    e = _find(layout, element_id)
    if e is None:
        return "unknown_element"
    grid = int(grid)
    if grid <= 0:
        return "grid_must_be_positive"
    x, y, w, h = e.bbox
    e.bbox = [round(x * grid) / grid, round(y * grid) / grid,
              round(w * grid) / grid, round(h * grid) / grid]
    repair(task, layout)
    return None


def promote(task: TaskSpec, layout: Layout, element_id: str | None,
            strength: float = 0.0) -> str | None:
    """Grow by g = |strength| (0 means 0.06): text [x-g/2, y-g/4, w+g, h+g/2], other
    [x-0.4g, y-0.4g, w+0.8g, h+0.8g]; set z to the current max z; then repair."""
    e = _find(layout, element_id)
    if e is None:
        return "unknown_element"
    info = task_info(task)
    strength = strength if abs(strength) > EPS else PROMOTE_DEFAULT_STRENGTH
    x, y, w, h = e.bbox
    grow = abs(strength)
    if info.is_text[info.index[e.id]]:
        e.bbox = [x - 0.5 * grow, y - 0.25 * grow, w + grow, h + 0.5 * grow]
    else:
        e.bbox = [x - 0.4 * grow, y - 0.4 * grow, w + 0.8 * grow, h + 0.8 * grow]
    e.z = max(int(o.z) for o in layout.elements)
    repair(task, layout)
    return None


def reflow_group(task: TaskSpec, layout: Layout, group_id: str | None,
                 pattern: str | None = "stack") -> str | None:
    """Re-lay a group (>= 2 members, ordered by (precedence, id)) inside its bounding box:
    stack/row (gap = max(0.012, free space / (n-1))), grid2 (2 columns, 0.018 gutter) or
    sidebar (column at max(0.52, left), 0.016 gaps); then repair."""
    if not group_id:
        return "missing_group_id"
    info = task_info(task)
    index = info.index
    members = [e for e in layout.elements if info.groups[index[e.id]] == group_id]
    if len(members) < 2:
        return "group_not_found_or_too_small"
    pattern = pattern or "stack"
    left = min(e.bbox[0] for e in members)
    top = min(e.bbox[1] for e in members)
    width = max(e.bbox[0] + e.bbox[2] for e in members) - left
    height = max(e.bbox[1] + e.bbox[3] for e in members) - top
    ordered = sorted(members, key=lambda e: (info.precedence[index[e.id]], e.id))
    n = len(ordered)
    if pattern == "stack":
        used = 0
        for e in ordered:
            used += e.bbox[3]
        gap = max(REFLOW_MIN_GAP, (height - used) / max(1, n - 1))
        cursor = top
        for e in ordered:
            e.bbox[0] = left
            e.bbox[1] = cursor
            cursor += e.bbox[3] + gap
    elif pattern == "row":
        used = 0
        for e in ordered:
            used += e.bbox[2]
        gap = max(REFLOW_MIN_GAP, (width - used) / max(1, n - 1))
        cursor = left
        for e in ordered:
            e.bbox[0] = cursor
            e.bbox[1] = top
            cursor += e.bbox[2] + gap
    elif pattern == "grid2":
        col_w = max(e.bbox[2] for e in ordered)
        row_h = max(e.bbox[3] for e in ordered)
        for k, e in enumerate(ordered):
            row, col = divmod(k, 2)
            e.bbox[0] = left + col * (col_w + GRID2_GUTTER)
            e.bbox[1] = top + row * (row_h + GRID2_GUTTER)
    elif pattern == "sidebar":
        col_x = max(SIDEBAR_MIN_X, left)
        cursor = top
        for e in ordered:
            e.bbox[0] = col_x
            e.bbox[1] = cursor
            cursor += e.bbox[3] + SIDEBAR_GAP
    else:
        return "unknown_reflow_pattern"
    repair(task, layout)
    return None


def anchor_to_region(task: TaskSpec, layout: Layout, element_id: str | None,
                     region_id: str | None, mode: str | None = "center") -> str | None:
    """Place an element in a region box: start (top-left corners meet), end (bottom-right),
    fill (shrink to fit, then centre) or centre (any other mode); then repair."""
    e = _find(layout, element_id)
    if e is None:
        return "unknown_element"
    if not region_id:
        return "missing_region_id"
    region = task.region_boxes.get(region_id)
    if region is None:
        return "unknown_region"
    ex, ey, ew, eh = e.bbox
    rx, ry, rw, rh = region
    mode = mode or "center"
    if mode == "fill":
        ew = min(ew, rw)
        eh = min(eh, rh)
        ex = rx + (rw - ew) / 2.0
        ey = ry + (rh - eh) / 2.0
    elif mode == "start":
        ex = rx
        ey = ry
    elif mode == "end":
        ex = rx + rw - ew
        ey = ry + rh - eh
    else:
        ex = rx + (rw - ew) / 2.0
        ey = ry + (rh - eh) / 2.0
    e.bbox = [ex, ey, ew, eh]
    repair(task, layout)
    return None


def apply_template(task: TaskSpec, layout: Layout, template_id: str | None) -> str | None:
    """Replace every box with the template's box (None or "" means "draft"; no repair)."""
    template = task.templates.get(template_id or "draft")
    if template is None:
        return "unknown_template"
    for e in layout.elements:
        e.bbox = list(template[e.id])
    return None


ACTION_TYPES: tuple[str, ...] = (
    "move", "resize", "align", "distribute", "snap", "promote", "reflow_group",
    "anchor_to_region", "apply_template", "swap_z", "finalize",
)


def apply_action(task: TaskSpec, layout: Layout, action_type: str, a: dict) -> str | None:
    """Apply one non-finalize action given as a dict of DesignGym's action fields (all
    present, with DesignGym's defaults filled in) to ``layout`` in place."""
    if action_type == "apply_template":
        return apply_template(task, layout, a["template_id"])
    if action_type == "move":
        return move(task, layout, a["element_id"], a["dx"], a["dy"])
    if action_type == "resize":
        return resize(task, layout, a["element_id"], a["dw"], a["dh"], a["anchor"])
    if action_type == "align":
        return align(task, layout, a["element_ids"], a["axis"], a["mode"])
    if action_type == "distribute":
        return distribute(task, layout, a["element_ids"], a["axis"])
    if action_type == "swap_z":
        return swap_z(task, layout, a["element_ids"])
    if action_type == "snap":
        return snap(task, layout, a["element_id"], a["grid"])
    if action_type == "promote":
        return promote(task, layout, a["element_id"], a["strength"])
    if action_type == "reflow_group":
        return reflow_group(task, layout, a["group_id"], a["pattern"])
    if action_type == "anchor_to_region":
        return anchor_to_region(task, layout, a["element_id"], a["region_id"], a["mode"])
    return "unknown_action_type"
