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

from collections.abc import Mapping, Sequence

from designrl.tasks.layout.layout_view import (
    NATIVE_IMPORT_ERROR,
    LayoutView,
    TaskInfo,
    _cmetrics,
    task_info,
    view,
)
from designrl.tasks.layout.metric_arithmetic import EPS, _clamp01, _exp, _log, _sqrt
from designrl.tasks.layout.metric_formulas import (
    HARD_ASPECT_LOG_TOL,
    INSTRUCTION_TAU,
    METRIC_NAMES,
    _alignment,
    _aspect_ratio,
    _balance,
    _grouping,
    _hierarchy,
    _intent_fit,
    _negative_space,
    _occupancy,
    _overlap,
    _reading_order,
    _spacing,
    _text_fit,
    metrics_of_view,
)
from designrl.tasks.layout.spec import Layout, TaskSpec

__all__ = [  # the views and formulas live in their own modules; this is the public face
    "EPS", "METRIC_NAMES", "NATIVE_IMPORT_ERROR", "LayoutView", "TaskInfo", "task_info", "view",
    "metrics_of_view", "overlap", "alignment", "spacing", "balance", "hierarchy", "grouping",
    "reading_order", "aspect_ratio", "occupancy", "text_fit", "negative_space", "intent_fit",
    "compute_metrics", "utility", "instruction_targets", "instruction_of_view",
    "instruction_score", "hard_violation_of_view", "hard_violation", "native_available",
    "native_active", "use_native", "evaluate",
]




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
