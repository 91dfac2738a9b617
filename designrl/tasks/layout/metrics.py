"""The 12 layout quality metrics, utility, instruction score and hard constraints.

Formulas and float arithmetic follow DesignGym 2.0 operation for operation
(element order, summation order, ``x ** 2`` rather than ``x * x``, ``math.dist``
where it uses it), so the ``designgym`` profile reproduces its reference
vectors bit for bit. Every sum is an explicit left-to-right loop, which is what
Python 3.11's ``sum`` does for floats (3.12's ``sum`` compensates, which would
change the last bits). ``min``/``max`` of two floats are written as conditional
expressions that pick the same operand (they are hot, and faster that way).

Constants are DesignGym's (``metric_constants`` in its ``tasks.json``); the
task supplies the rest (safe margin, canvas aspect, occupancy target, region
boxes, ...), so the same functions score generated tasks on other canvases.
Coordinates are normalised: bbox ``[x, y, w, h]`` with the canvas in [0, 1]².
A task's ``aspect_ratio`` is width / height in canvas pixels; the pixel ratio of
a box is ``(w / h) * canvas_aspect``.

Each metric exists in two forms: ``overlap(task, layout)`` (public) and
``_overlap(view)``: the same formula on a ``LayoutView``, the layout unpacked
once into per-element lists, which ``compute_metrics`` shares between metrics.
``TaskInfo`` holds each task's constants once, including the element lists the
metrics walk (group members, intent targets, text and ratio-locked elements,
reading pairs) for layouts in the task's own element order; a layout in another
order gets them rebuilt per call, with the same results.

Hot path: ``evaluate(task, layout, targets)`` gives the metrics, utility, hard
violation and instruction score of a layout in one call (what the episodes use
every step). When the C extension ``_cmetrics`` is built (``pip install -e .``
compiles it; see ``setup.py``) it computes them, bit for bit the same as the
Python functions here (``tests/tasks/layout/test_native_metrics.py``), several
times faster; otherwise, with ``DESIGNRL_PURE_PYTHON=1`` or after
``use_native(False)``, this module's Python does. The other public functions
are always the Python reference.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import pairwise

from designrl.tasks.layout.spec import Layout, TaskSpec

try:
    from designrl.tasks.layout import _cmetrics
except ImportError as exc:  # not built (no compiler at install time): the Python path is used
    _cmetrics = None
    NATIVE_IMPORT_ERROR: str | None = f"{type(exc).__name__}: {exc}"
else:
    NATIVE_IMPORT_ERROR = None

EPS = 1e-9

METRIC_NAMES: tuple[str, ...] = (
    "overlap", "alignment", "spacing", "balance", "hierarchy", "grouping",
    "reading_order", "aspect_ratio", "occupancy", "text_fit", "negative_space", "intent_fit",
)

# DesignGym's constants (tasks.json ``metric_constants``).
ALIGNMENT_TAU = 0.055
SPACING_TAU_CV = 0.70
BALANCE_TAU = 0.22
BALANCE_TARGET = (0.5, 0.5)
GROUPING_TAU_WITHIN = 0.22
GROUPING_TAU_BETWEEN = 0.28
READING_SAME_ROW_DY = 0.05
ASPECT_TAU = 0.9
TEXT_CAPACITY_PER_AREA = 900.0
TEXT_FIT_TAU = 0.45
NEG_SPACE_RHYTHM_SCALE = 0.18
NEG_SPACE_WHITESPACE_TOL = 0.30
INTENT_TAU = 0.65
INSTRUCTION_TAU = 0.22
HARD_ASPECT_LOG_TOL = 0.18
FALLBACK = 0.5  # alignment (<2 elements), spacing (<2 gaps), grouping (1 group), intent_fit

_exp = math.exp
_log = math.log
_sqrt = math.sqrt
_dist = math.dist
_EXP_FLOOR = math.exp(-50.0)


def _safe_exp(value: float) -> float:
    """exp of the value clamped to [-50, 50] (DesignGym's guard,
    ``exp(max(-50.0, min(50.0, value)))``, NaN included)."""
    value = value if value < 50.0 else 50.0
    return _exp(value if value > -50.0 else -50.0)


def _clamp01(v: float) -> float:
    """``max(0.0, min(1.0, v))``, NaN included."""
    v = v if v < 1.0 else 1.0
    return v if v > 0.0 else 0.0


def _mean(values: Sequence[float]) -> float:
    """Left-to-right sum / count (0 for no values)."""
    if not values:
        return 0.0
    total = 0
    for v in values:
        total += v
    return total / len(values)


def _pstd(values: Sequence[float]) -> float:
    """Population standard deviation; 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = 0
    for v in values:
        m += v
    m = m / n
    acc = 0
    for v in values:
        acc += (v - m) ** 2
    return _sqrt(acc / n)


def _rank(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties get their average rank (stable sort by value)."""
    n = len(values)
    order = sorted(range(n), key=values.__getitem__)
    ranks = [0.0] * n
    if len(set(values)) == n:  # no ties: the average rank of a singleton is i + 1
        for i, k in enumerate(order):
            ranks[k] = i + 1.0  # (i + i + 2) / 2.0
        return ranks
    i = 0
    while i < n:
        j = i
        while j + 1 < n and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j + 2) / 2.0
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    return ranks


class _RankStats:
    """Ranks of one side of a Spearman correlation, with their mean and root sum of squares."""

    __slots__ = ("ranks", "mean", "den")

    def __init__(self, values: Sequence[float]):
        self.ranks = _rank(values)
        self.mean = _mean(self.ranks)
        acc = 0
        for x in self.ranks:
            acc += (x - self.mean) ** 2
        self.den = _sqrt(acc)


def _spearman(a: _RankStats, b: Sequence[float]) -> float:
    """Spearman's rho with average ranks; 0 when either side is constant.

    ``b``'s ranks are not wrapped in a ``_RankStats``: their mean is exactly
    ``(n (n + 1) / 2) / n`` (average ranks are half-integers summing to n (n + 1) / 2,
    and every partial sum is exact), and their sum of squares is accumulated in the
    same loop as the numerator (each sum keeps its own left-to-right order)."""
    n = len(b)
    if len(a.ranks) != n or n < 2:
        return 0.0
    ma = a.mean
    mb = (n * (n + 1) / 2) / n
    num = 0
    acc = 0
    for x, y in zip(a.ranks, _rank(b), strict=True):
        dy = y - mb
        num += (x - ma) * dy
        acc += dy ** 2
    den_b = _sqrt(acc)
    if a.den <= EPS or den_b <= EPS:
        return 0.0
    return num / (a.den * den_b)


# --------------------------------------------------------------------------- task and layout views


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


def _overlap(v: LayoutView) -> float:
    X, Y, R, B = v.X, v.Y, v.R, v.B
    n = v.n
    total_overlap = 0.0
    total_area = v.area  # sum of A: 0.0 + a equals 0 + a
    for i in range(n):
        ax, ay, ar, ab = X[i], Y[i], R[i], B[i]
        for j in range(i + 1, n):
            # max(0, min(right) - max(left)) * max(0, min(bottom) - max(top)); a zero
            # term is skipped (adding +0.0 never changes the running total)
            br, bx = R[j], X[j]
            dx = (br if br < ar else ar) - (bx if bx > ax else ax)
            if dx > 0.0:
                bb, by = B[j], Y[j]
                dy = (bb if bb < ab else ab) - (by if by > ay else ay)
                if dy > 0.0:
                    total_overlap += dx * dy
    return _clamp01(_safe_exp(-(total_overlap / (total_area + EPS))))


def _nearest_other(n: int, firsts: list, mids: list, lasts: list, guides) -> list[float]:
    """For the 3n anchors ``firsts + mids + lasts`` (anchor k belongs to element k % n):
    min |anchor - c| over the guides and the anchors of the *other* elements.

    Float subtraction is monotone, so the minimum is reached at the nearest
    candidate of another owner on either side in sorted order. One sort and a
    left and a right pass (remembering the latest entry and the latest entry of
    a different owner) replace the all-pairs search, with identical results."""
    values = firsts + mids + lasts
    values.extend(guides)
    owners = _anchor_owners(n)
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [math.inf] * len(values)
    last_owner = -2  # nothing seen yet
    last = other = math.nan  # latest value; latest value of an owner other than last_owner
    for k in order:
        owner, a = owners[k], values[k]
        if owner != last_owner:
            if last_owner != -2:
                out[k] = a - last
            other, last_owner = last, owner
        elif other == other:  # not NaN: some other owner was seen
            out[k] = a - other
        last = a
    last_owner = -2
    last = other = math.nan
    for k in reversed(order):
        owner, a = owners[k], values[k]
        if owner != last_owner:
            if last_owner != -2:
                d = last - a
                if d < out[k]:
                    out[k] = d
            other, last_owner = last, owner
        elif other == other:
            d = other - a
            if d < out[k]:
                out[k] = d
        last = a
    del out[3 * n:]
    return out


_OWNERS: dict[int, list[int]] = {}


def _anchor_owners(n: int) -> list[int]:
    """Owner of each of the 3n anchors ``firsts + mids + lasts`` and of the 3 guides (-1)."""
    owners = _OWNERS.get(n)
    if owners is None:
        owners = _OWNERS[n] = list(range(n)) * 3 + [-1, -1, -1]
    return owners


def _alignment(v: LayoutView, tau: float = ALIGNMENT_TAU) -> float:
    n = v.n
    if n < 2:
        return FALLBACK
    guides = v.info.guides
    dx = _nearest_other(n, v.X, v.CX, v.R, guides)
    dy = _nearest_other(n, v.Y, v.CY, v.B, guides)
    # each term exp(-d / tau) (d >= 0, so only the -50 floor of the guard can apply)
    ex = [_exp(t) if (t := -d / tau) > -50.0 else _EXP_FLOOR for d in dx]
    ey = [_exp(t) if (t := -d / tau) > -50.0 else _EXP_FLOOR for d in dy]
    n2 = 2 * n
    total = 0
    # DesignGym's order: per element, left, center, right, top, middle, bottom (the sum
    # below is evaluated left to right, one term at a time)
    for left, center, right, top, middle, bottom in zip(ex, ex[n:], ex[n2:], ey, ey[n:],
                                                        ey[n2:], strict=False):  # n rows
        total = total + left + center + right + top + middle + bottom
    return _clamp01(total / (6 * n))


def _spacing(v: LayoutView, tau_cv: float = SPACING_TAU_CV) -> float:
    X, Y, R, B = v.X, v.Y, v.R, v.B
    gaps: list[float] = []
    order = sorted(range(v.n), key=X.__getitem__)
    for a, b in pairwise(order):
        gap = X[b] - R[a]
        ba, bb, ya, yb = B[a], B[b], Y[a], Y[b]
        other = (bb if bb < ba else ba) - (yb if yb > ya else ya)
        if gap > 0 and other > 0:
            gaps.append(gap)
    order = sorted(range(v.n), key=Y.__getitem__)
    for a, b in pairwise(order):
        gap = Y[b] - B[a]
        ra, rb, xa, xb = R[a], R[b], X[a], X[b]
        other = (rb if rb < ra else ra) - (xb if xb > xa else xa)
        if gap > 0 and other > 0:
            gaps.append(gap)
    if len(gaps) < 2:
        return FALLBACK
    cv = _pstd(gaps) / (_mean(gaps) + EPS)
    return _clamp01(_safe_exp(-(cv / tau_cv)))


def _balance(v: LayoutView, tau: float = BALANCE_TAU) -> float:
    total_mass = 0
    sx = 0
    sy = 0
    # three sums in one loop, each in element order
    for a, importance, x, y in zip(v.A, v.attr(v.info.importance), v.CX, v.CY, strict=True):
        m = a * importance
        total_mass += m
        sx += m * x
        sy += m * y
    if total_mass <= EPS:
        return 0.0
    cx = sx / total_mass
    cy = sy / total_mass
    tx, ty = BALANCE_TARGET
    dist = _sqrt((cx - tx) ** 2 + (cy - ty) ** 2)
    return _clamp01(_safe_exp(-(dist / tau)))


def _hierarchy(v: LayoutView) -> float:
    n = v.n if v.n > 1 else 1
    salience = [
        0.55 * _log(a + 1e-4) - 0.22 * y + 0.18 * (1.0 - abs(cx - 0.5) / 0.5) + 0.10 * z / n
        for a, y, cx, z in zip(v.A, v.Y, v.CX, v.Z, strict=True)
    ]
    info = v.info
    ranks = info.importance_ranks if v.idx is None else _RankStats(v.attr(info.importance))
    rho = _spearman(ranks, salience)
    return _clamp01((1.0 + rho) / 2.0)


def _grouping(v: LayoutView, tau_within: float = GROUPING_TAU_WITHIN,
              tau_between: float = GROUPING_TAU_BETWEEN) -> float:
    if v.idx is None:
        groups = v.info.group_members
    else:
        by_name: dict[str, list[int]] = {}
        for k, g in enumerate(v.attr(v.info.groups)):
            by_name.setdefault(g, []).append(k)
        groups = list(by_name.values())
    if len(groups) < 2:
        return FALLBACK
    CX, CY = v.CX, v.CY
    within = 0
    centres = []
    for members in groups:
        count = len(members)
        sx = 0
        sy = 0
        for k in members:  # two sums, each in member order
            sx += CX[k]
            sy += CY[k]
        gc = (sx / count, sy / count)
        centres.append(gc)
        acc = 0
        for k in members:
            acc += _dist((CX[k], CY[k]), gc)
        within += acc / count
    between = 0
    pairs = 0
    for i, c1 in enumerate(centres):
        for c2 in centres[i + 1:]:
            between += _dist(c1, c2)
            pairs += 1
    within_term = _safe_exp(-((within / len(centres)) / tau_within))
    between_term = 1.0 - _safe_exp(-((between / pairs) / tau_between))
    return _clamp01(within_term * between_term)


def _reading_order(v: LayoutView, same_row_dy: float = READING_SAME_ROW_DY) -> float:
    info = v.info
    if not info.reading_pairs:
        return FALLBACK
    if v.idx is None:
        pairs = info.reading_items
    else:
        pairs = [(i, j) for i, j in ((v.position(a), v.position(b))
                                     for a, b in info.reading_pairs)
                 if i is not None and j is not None]
    X, Y = v.X, v.Y
    good = 0
    total = len(pairs)
    for i, j in pairs:
        if abs(Y[i] - Y[j]) <= same_row_dy:
            ok = X[i] <= X[j]
        else:
            ok = Y[i] <= Y[j]
        if ok:
            good += 1
    return _clamp01(good / total if total else FALLBACK)


def _aspect_ratio(v: LayoutView, tau: float = ASPECT_TAU) -> float:
    info = v.info
    canvas = info.canvas_aspect
    W, H = v.W, v.H
    if v.idx is None:
        items = info.locked_items
    else:
        items = [(k, ar) for k, ar in enumerate(v.attr(info.aspect)) if ar]
    if not items:
        return 1.0
    total = 0  # the mean of the penalties, summed in element order
    for k, ar in items:
        h = H[k]
        ratio = W[k] / (h if h > EPS else EPS)
        if canvas != 1.0:
            ratio = ratio * canvas
        total += abs(_log(ratio / ar))
    return _clamp01(_safe_exp(-(total / len(items)) / tau))


def _occupancy(v: LayoutView) -> float:
    info = v.info
    return _clamp01(max(0.0, 1.0 - abs(v.area - info.occ_target) / max(info.occ_tol, EPS)))


def _text_fit(v: LayoutView, capacity_per_area: float = TEXT_CAPACITY_PER_AREA,
              tau: float = TEXT_FIT_TAU) -> float:
    info = v.info
    target = info.text_target
    W, H = v.W, v.H
    if v.idx is None:
        items = info.text_items
    else:
        items = [(k, demand) for k, (is_text, demand) in enumerate(
            zip(v.attr(info.is_text), v.attr(info.content_len), strict=True)) if is_text]
    if not items:
        return 1.0
    total = 0  # the mean of the penalties, summed in element order
    for k, demand in items:
        capacity = W[k] * H[k] * capacity_per_area
        if capacity < EPS:
            capacity = EPS
        total += abs(demand / capacity - target)
    return _clamp01(_safe_exp(-(total / len(items)) / tau))


def _negative_space(v: LayoutView, rhythm_scale: float = NEG_SPACE_RHYTHM_SCALE,
                    whitespace_tol: float = NEG_SPACE_WHITESPACE_TOL) -> float:
    whitespace = max(0.0, 1.0 - v.area)
    xs = sorted(v.X + v.R)
    ys = sorted(v.Y + v.B)
    # gaps between sorted neighbours: max(0, b - a) is b - a here (b >= a)
    x_gaps = [b - a for a, b in pairwise(xs)]
    y_gaps = [b - a for a, b in pairwise(ys)]
    if x_gaps and y_gaps:
        rhythm = 1.0 - min(1.0, (_pstd(x_gaps) + _pstd(y_gaps)) / rhythm_scale)
    else:
        rhythm = 0.5
    ws_term = 1.0 - abs(whitespace - (1.0 - v.info.occ_target)) / whitespace_tol
    return _clamp01(0.6 * rhythm + 0.4 * max(0.0, ws_term))


def _intent_fit(v: LayoutView, tau: float = INTENT_TAU) -> float:
    CX, CY = v.CX, v.CY
    if v.idx is None:
        items = v.info.intent_items
    else:
        items = [(k, (t[0], t[1]), t[2]) for k, t in enumerate(v.attr(v.info.intent))
                 if t is not None]
    if not items:
        return FALLBACK
    total = 0
    for k, centre, diag in items:
        total += _safe_exp(-(_dist((CX[k], CY[k]), centre) / diag) / tau)
    return _clamp01(total / len(items))


# Public forms: one function of (task, layout) per metric.


def overlap(task: TaskSpec, layout: Layout) -> float:
    """exp(-(sum of pairwise intersections) / (sum of areas + 1e-9))."""
    return _overlap(view(task, layout))


def alignment(task: TaskSpec, layout: Layout) -> float:
    """Mean over the 6 anchors of each element of exp(-d/0.055), d = distance to the
    nearest canvas guide {m, 0.5, 1-m} or any anchor of another element on that axis."""
    return _alignment(view(task, layout))


def spacing(task: TaskSpec, layout: Layout) -> float:
    """exp(-(std/mean)/0.7) of the positive gaps between x-sorted (then y-sorted)
    neighbours that overlap on the other axis; 0.5 with fewer than 2 gaps."""
    return _spacing(view(task, layout))


def balance(task: TaskSpec, layout: Layout) -> float:
    """exp(-d/0.22), d = distance of the area*importance weighted centre from (0.5, 0.5)."""
    return _balance(view(task, layout))


def hierarchy(task: TaskSpec, layout: Layout) -> float:
    """(1 + spearman(importance, 0.55 ln(area+1e-4) - 0.22 y + 0.18 (1 - |cx-0.5|/0.5)
    + 0.1 z/n)) / 2."""
    return _hierarchy(view(task, layout))


def grouping(task: TaskSpec, layout: Layout) -> float:
    """exp(-(mean within-group centre distance)/0.22) * (1 - exp(-(mean distance between
    group centres)/0.28)); 0.5 with a single group."""
    return _grouping(view(task, layout))


def reading_order(task: TaskSpec, layout: Layout) -> float:
    """Fraction of reading-order pairs in order: top-left corners, same row if |dy| <= 0.05
    (then compare x), else compare y."""
    return _reading_order(view(task, layout))


def aspect_ratio(task: TaskSpec, layout: Layout) -> float:
    """exp(-mean |ln(pixel ratio / locked ratio)| / 0.9) over ratio-locked elements."""
    return _aspect_ratio(view(task, layout))


def occupancy(task: TaskSpec, layout: Layout) -> float:
    """max(0, 1 - |sum of areas - target| / tolerance) (overlaps count twice)."""
    return _occupancy(view(task, layout))


def text_fit(task: TaskSpec, layout: Layout) -> float:
    """exp(-mean |content_len / (900 w h) - text_density_target| / 0.45) over text elements."""
    return _text_fit(view(task, layout))


def negative_space(task: TaskSpec, layout: Layout) -> float:
    """0.6 (1 - min(1, (std of x-edge gaps + std of y-edge gaps)/0.18))
    + 0.4 max(0, 1 - |(1 - sum of areas) - (1 - occupancy_target)| / 0.3)."""
    return _negative_space(view(task, layout))


def intent_fit(task: TaskSpec, layout: Layout) -> float:
    """Mean of exp(-(centre distance to intent region centre / region diagonal)/0.65)."""
    return _intent_fit(view(task, layout))


def metrics_of_view(v: LayoutView) -> dict[str, float]:
    """All 12 metrics of a prepared view, in ``METRIC_NAMES`` order."""
    return {  # spelled out: a little faster than looping over (name, function) pairs
        "overlap": _overlap(v), "alignment": _alignment(v), "spacing": _spacing(v),
        "balance": _balance(v), "hierarchy": _hierarchy(v), "grouping": _grouping(v),
        "reading_order": _reading_order(v), "aspect_ratio": _aspect_ratio(v),
        "occupancy": _occupancy(v), "text_fit": _text_fit(v),
        "negative_space": _negative_space(v), "intent_fit": _intent_fit(v),
    }


def compute_metrics(task: TaskSpec, layout: Layout) -> dict[str, float]:
    """All 12 metrics, in ``METRIC_NAMES`` order."""
    return metrics_of_view(view(task, layout))


def utility(task: TaskSpec, metrics: Mapping[str, float]) -> float:
    """Weighted sum of the metrics in the task's weights order, clamped to [0, 1]."""
    total = 0.0
    for key, weight in task_info(task).weights:
        total += weight * metrics[key]
    return _clamp01(total)


def instruction_targets(brief, centres: Mapping[str, Sequence[float]]) -> list[tuple]:
    """The brief's required (element_id, (cx, cy) or None) pairs, resolved once per brief."""
    if hasattr(brief, "required_regions"):
        required = brief.required_regions or {}
    else:
        required = (brief or {}).get("required_regions") or {}
    out = []
    for element_id, region_id in required.items():
        target = centres.get(str(region_id))
        out.append((str(element_id), (float(target[0]), float(target[1])) if target else None))
    return out


def instruction_of_view(v: LayoutView, targets: list[tuple],
                        tau: float = INSTRUCTION_TAU) -> float:
    """``instruction_score`` on a prepared view, with ``instruction_targets`` resolved."""
    if not targets:
        return 0.0
    CX, CY = v.CX, v.CY
    total = 0
    position = v.info.index.get if v.idx is None else v.position
    for element_id, target in targets:
        k = position(element_id)
        if k is None or target is None:
            total += 0.0
            continue
        dist = _sqrt((CX[k] - target[0]) ** 2 + (CY[k] - target[1]) ** 2)
        total += _exp(-dist / tau)
    return _clamp01(total / len(targets))


def instruction_score(task: TaskSpec, brief, layout: Layout,
                      centres: Mapping[str, Sequence[float]], tau: float = INSTRUCTION_TAU) -> float:
    """Mean over the brief's required (element, region) pairs of exp(-d/0.22), d = distance
    from the element's centre to ``centres[region]`` (a missing element or region scores
    0); 0 for a brief with no required regions. DesignGym passes its ``REGION_CENTERS``."""
    return instruction_of_view(view(task, layout), instruction_targets(brief, centres), tau)


def hard_violation_of_view(v: LayoutView) -> str | None:
    """``hard_violation`` on a prepared view."""
    info = v.info
    lo = info.margin - EPS
    hi = (1.0 - info.margin) + EPS
    canvas = info.canvas_aspect
    X, Y, W, H, R, B = v.X, v.Y, v.W, v.H, v.R, v.B
    # (min_w - eps, min_h - eps, max_w + eps, max_h + eps, locked ratio) per element
    for k, (min_w, min_h, max_w, max_h, ar) in enumerate(v.attr(info.hard_limits)):
        w, h = W[k], H[k]
        if w < min_w or h < min_h:
            return f"min_size_violation:{v.layout.elements[k].id}"
        if w > max_w or h > max_h:
            return f"max_size_violation:{v.layout.elements[k].id}"
        if X[k] < lo or Y[k] < lo or R[k] > hi or B[k] > hi:
            return f"outside_safe_region:{v.layout.elements[k].id}"
        if ar:
            ratio = w / (h if h > EPS else EPS)
            if canvas != 1.0:
                ratio = ratio * canvas
            if abs(_log(ratio / ar)) > HARD_ASPECT_LOG_TOL:
                return f"aspect_ratio_violation:{v.layout.elements[k].id}"
    return None


def hard_violation(task: TaskSpec, layout: Layout) -> str | None:
    """The first violated hard constraint in element order, e.g.
    ``aspect_ratio_violation:hero_image``: size within [min, max] and box within the safe
    area (1e-9 slack), then |ln(pixel ratio / locked ratio)| <= 0.18; None if all hold."""
    return hard_violation_of_view(view(task, layout))


# --------------------------------------------------------------------------- hot path


_native = _cmetrics is not None  # use_native switches it (the entry points, from their config)


def native_available() -> bool:
    """Whether the C extension ``_cmetrics`` is built and importable."""
    return _cmetrics is not None


def native_active() -> bool:
    """Whether ``evaluate`` uses the C extension (built, and not switched off)."""
    return _native


def use_native(enabled: bool = True) -> bool:
    """Switch ``evaluate`` to the C extension (if built) or to pure Python; returns
    whether the extension is now used. The ``designrl`` command and the services call it
    with their ``pure_python`` setting (``DESIGNRL_PURE_PYTHON``)."""
    global _native
    _native = bool(enabled) and _cmetrics is not None
    return _native


def evaluate(task: TaskSpec, layout: Layout, targets: Sequence[tuple] = (),
             score_invalid: bool = True) -> tuple:
    """``(metrics, utility, hard violation or None, instruction score)`` of a layout:
    ``compute_metrics``, ``utility``, ``hard_violation`` and ``instruction_of_view`` with
    ``targets`` from ``instruction_targets`` (0.0 for none) in one call, by the C
    extension when active, else in Python; identical results either way. With
    ``score_invalid=False`` a layout that breaks a hard constraint is not scored:
    ``(None, None, violation, None)``."""
    info = task_info(task)
    if _native and info.native is not None:
        out = _cmetrics.evaluate(info.native, layout.elements, targets, score_invalid)
        if out is not None:
            return out
        # a layout the extension leaves to Python (see _cmetrics.c): same results
    v = LayoutView(info, layout)
    violation = hard_violation_of_view(v)
    if violation is not None and not score_invalid:
        return None, None, violation, None
    metrics = metrics_of_view(v)
    return metrics, utility(task, metrics), violation, instruction_of_view(v, targets)
