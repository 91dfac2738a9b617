"""The 12 layout metrics as formulas on a ``LayoutView`` (``_overlap(view)``, ...).

``metrics`` wraps each as a public function of ``(task, layout)``; ``scorer``
computes the same formulas on batches with numpy. Constants are DesignGym's
(``metric_constants`` in its ``tasks.json``).
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import TYPE_CHECKING

from designrl.tasks.layout.metric_arithmetic import (
    _EXP_FLOOR,
    EPS,
    _clamp01,
    _dist,
    _exp,
    _log,
    _mean,
    _pstd,
    _RankStats,
    _safe_exp,
    _spearman,
    _sqrt,
)

if TYPE_CHECKING:
    from designrl.tasks.layout.layout_view import LayoutView

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


def metrics_of_view(v: LayoutView) -> dict[str, float]:
    """All 12 metrics of a prepared view, in ``METRIC_NAMES`` order."""
    return {  # spelled out: a little faster than looping over (name, function) pairs
        "overlap": _overlap(v), "alignment": _alignment(v), "spacing": _spacing(v),
        "balance": _balance(v), "hierarchy": _hierarchy(v), "grouping": _grouping(v),
        "reading_order": _reading_order(v), "aspect_ratio": _aspect_ratio(v),
        "occupancy": _occupancy(v), "text_fit": _text_fit(v),
        "negative_space": _negative_space(v), "intent_fit": _intent_fit(v),
    }

