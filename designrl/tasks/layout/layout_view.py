"""A task's constants and a layout's coordinates, unpacked once for the layout metrics.

``TaskInfo`` holds each task's constants once, including the element lists the
metrics walk (group members, intent targets, text and ratio-locked elements,
reading pairs) for layouts in the task's own element order; a layout in another
order gets them rebuilt per call, with the same results. ``LayoutView`` is a
layout unpacked into per-element lists, shared between the metrics.
"""

from __future__ import annotations

from designrl.tasks.layout.metric_arithmetic import EPS, _RankStats, _sqrt
from designrl.tasks.layout.metric_formulas import METRIC_NAMES
from designrl.tasks.layout.spec import Layout, TaskSpec

try:
    from designrl.tasks.layout import _cmetrics
except ImportError as exc:  # not built (no compiler at install time): the Python path is used
    _cmetrics = None
    NATIVE_IMPORT_ERROR: str | None = f"{type(exc).__name__}: {exc}"
else:
    NATIVE_IMPORT_ERROR = None



class TaskInfo:
    """Per-task constants the metrics and operations need, in the task's element order."""

    def __init__(self, task: TaskSpec):
        specs = task.elements
        self.task = task
        self.ids = tuple(s.id for s in specs)
        self.index = {s.id: i for i, s in enumerate(specs)}
        self.importance = [float(s.importance) for s in specs]
        self.importance_ranks = _RankStats(self.importance)
        self.types = [s.type for s in specs]
        self.is_text = [s.type == "text" for s in specs]
        self.content_len = [float(s.content_len) for s in specs]
        self.groups = [str(s.group) for s in specs]
        self.aspect = [float(s.aspect_ratio) if s.aspect_ratio else None for s in specs]
        self.min_size = [(float(s.min_size[0]), float(s.min_size[1])) for s in specs]
        self.max_size = [(float(s.max_size[0]), float(s.max_size[1])) for s in specs]
        self.precedence = [int(s.precedence) for s in specs]
        self.movable = [bool(s.movable) for s in specs]
        self.resizable = [bool(s.resizable) for s in specs]
        # intent_fit target per element: (region centre x, centre y, diagonal + eps) or None
        self.intent = []
        for s in specs:
            region = task.region_boxes.get(task.intent_regions.get(s.id) or "")
            if region is None:
                self.intent.append(None)
            else:
                rx, ry, rw, rh = (float(v) for v in region)
                self.intent.append((rx + rw / 2.0, ry + rh / 2.0, _sqrt(rw * rw + rh * rh) + EPS))
        self.reading_pairs = [(a, b) for a, b in task.reading_order]
        index = self.index
        self.reading_items = [(index[a], index[b]) for a, b in self.reading_pairs
                              if a in index and b in index]
        # per-metric element lists for layouts in the task's element order
        groups: dict[str, list[int]] = {}
        for k, g in enumerate(self.groups):
            groups.setdefault(g, []).append(k)
        self.group_members = list(groups.values())  # in order of first appearance
        self.intent_items = [(k, (t[0], t[1]), t[2]) for k, t in enumerate(self.intent)
                             if t is not None]
        self.text_items = [(k, d) for k, (t, d) in enumerate(
            zip(self.is_text, self.content_len, strict=True)) if t]
        self.locked_items = [(k, ar) for k, ar in enumerate(self.aspect) if ar]
        self.hard_limits = [(lo[0] - EPS, lo[1] - EPS, hi[0] + EPS, hi[1] + EPS, ar)
                            for lo, hi, ar in zip(self.min_size, self.max_size, self.aspect,
                                                  strict=True)]
        self.occ_target = float(task.occupancy_target)
        self.occ_tol = float(task.occupancy_tolerance)
        self.text_target = float(task.text_density_target)
        self.margin = float(task.safe_margin)
        self.guides = (self.margin, 0.5, 1.0 - self.margin)
        self.canvas_aspect = float(task.canvas_aspect)
        self.weights = [(k, float(v)) for k, v in task.weights.items()]
        self.native = _native_pack(self) if _cmetrics is not None else None


def _native_pack(info: TaskInfo):
    """The task's constants packed for ``_cmetrics.evaluate``, or None if it cannot take
    the task (then ``evaluate`` uses Python for it)."""
    if any(key not in METRIC_NAMES for key, _ in info.weights):
        return None  # utility() raises KeyError; leave that to the Python path
    group_numbers: dict[str, int] = {}
    groups = [group_numbers.setdefault(g, len(group_numbers)) for g in info.groups]
    return _cmetrics.pack(
        info.ids, info.index, METRIC_NAMES, info.importance, info.is_text, info.content_len,
        groups, info.aspect, info.intent, [limits[:4] for limits in info.hard_limits],
        info.reading_items, bool(info.reading_pairs), info.occ_target, info.occ_tol,
        info.text_target, info.margin, info.canvas_aspect,
        [(METRIC_NAMES.index(key), weight) for key, weight in info.weights])


_INFO_CACHE: dict[int, TaskInfo] = {}


def task_info(task: TaskSpec) -> TaskInfo:
    """The cached ``TaskInfo`` of a task (keyed by identity; tasks are not mutated)."""
    info = _INFO_CACHE.get(id(task))
    if info is None or info.task is not task:
        if len(_INFO_CACHE) > 4096:
            _INFO_CACHE.clear()
        info = TaskInfo(task)
        _INFO_CACHE[id(task)] = info
    return info


class LayoutView:
    """A layout unpacked for scoring: per-element coordinates and task data, aligned.

    ``X, Y, W, H`` are the box, ``R = x + w``, ``B = y + h``, ``CX = x + w/2``,
    ``CY = y + h/2``, ``A = max(0, w) * max(0, h)``: the exact expressions the
    metrics would otherwise recompute; ``area`` is the left-to-right sum of ``A``."""

    __slots__ = ("info", "layout", "n", "idx", "X", "Y", "W", "H", "R", "B", "CX", "CY", "A",
                 "Z", "area")

    def __init__(self, info: TaskInfo, layout: Layout):
        els = layout.elements
        self.info = info
        self.layout = layout
        n = self.n = len(els)
        X, Y, W, H, R, B, CX, CY, A, Z = ([0.0] * n for _ in range(10))
        same_order = n == len(info.ids)
        ids = info.ids
        area = 0
        for k, e in enumerate(els):
            x, y, w, h = e.bbox
            X[k] = x
            Y[k] = y
            W[k] = w
            H[k] = h
            R[k] = x + w
            B[k] = y + h
            CX[k] = x + w / 2.0
            CY[k] = y + h / 2.0
            A[k] = a = (w if w > 0.0 else 0.0) * (h if h > 0.0 else 0.0)
            area += a
            Z[k] = e.z
            if same_order and e.id != ids[k]:
                same_order = False
        self.X, self.Y, self.W, self.H, self.R, self.B = X, Y, W, H, R, B
        self.CX, self.CY, self.A, self.Z = CX, CY, A, Z
        self.area = area
        # None: same element order as the task, so task lists apply directly
        self.idx = None if same_order else [info.index[e.id] for e in els]

    def attr(self, values: list) -> list:
        """A per-element task list, in this layout's element order."""
        if self.idx is None:
            return values
        return [values[i] for i in self.idx]

    def position(self, element_id: str) -> int | None:
        """Index of an element in this layout, or None."""
        if self.idx is None:
            return self.info.index.get(element_id)
        for k, e in enumerate(self.layout.elements):
            if e.id == element_id:
                return k
        return None


def view(task: TaskSpec, layout: Layout) -> LayoutView:
    return LayoutView(task_info(task), layout)


# --------------------------------------------------------------------------- metrics
