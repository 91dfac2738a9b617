"""Batched layout scoring: the 12 metrics, utility, instruction score and hard constraints
of B layouts of one task at once, with numpy.

Every function here mirrors its counterpart in ``metrics`` (same formulas, same
constants, same fallback branches) and agrees with it to within 1e-9 per metric;
it is not bit exact, because numpy sums in its own order and its ``exp``/``log``
may differ from ``math``'s in the last bit. Look-ahead planners use it to score
many candidate layouts per call (``BatchScorer(task).utility(boxes, z)``).

Layouts are given as arrays: ``boxes`` of shape (B, n, 4) holding ``[x, y, w, h]``
per element and ``z`` of shape (B, n) or (n,), elements in the task's element
order (``boxes_of`` builds them from ``Layout`` objects). The per-layout n is
small (5-12), so everything is vectorised over the batch. Internally the arrays
are element-major, (n, B): row k holds element k of every layout, so per-element
terms are contiguous rows and sums over elements add whole rows. The sorting-based
metrics (alignment, spacing, negative space, hierarchy's ranks) sort each layout's
values in a (B, m) copy with stable sorts, so ties resolve as Python's ``sorted``
does, and come back to element-major for their sums. Batches are scored in chunks
(``CHUNK_BYTES``), which keeps every temporary small.

Inputs are assumed finite; like the scalar code, a ratio-locked element with zero
width is outside the metrics' domain (``math.log`` raises there, numpy gives -inf).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from designrl.tasks.layout.batch_view import (
    _average_ranks,
    _Batch,
    _boxes_array,
    _clamp01,
    _column,
    _gather,
    _masked_mean_pstd,
    _maximum,
    _minimum,
    _row_major,
    _safe_exp,
    layout_arrays,
)
from designrl.tasks.layout.layout_view import task_info
from designrl.tasks.layout.metric_arithmetic import EPS
from designrl.tasks.layout.metric_formulas import (
    ALIGNMENT_TAU,
    ASPECT_TAU,
    BALANCE_TARGET,
    BALANCE_TAU,
    FALLBACK,
    GROUPING_TAU_BETWEEN,
    GROUPING_TAU_WITHIN,
    HARD_ASPECT_LOG_TOL,
    INSTRUCTION_TAU,
    INTENT_TAU,
    METRIC_NAMES,
    NEG_SPACE_RHYTHM_SCALE,
    NEG_SPACE_WHITESPACE_TOL,
    READING_SAME_ROW_DY,
    SPACING_TAU_CV,
    TEXT_CAPACITY_PER_AREA,
    TEXT_FIT_TAU,
)
from designrl.tasks.layout.spec import Layout, TaskSpec

# Layouts per pass: as many as keep the largest temporary (alignment's (2 x chunk, 3n + 3)
# sort) under this many bytes. Bigger arrays are allocated fresh from the OS each time
# (page faults); smaller chunks pay numpy's per-call overhead more often.
CHUNK_BYTES = 100_000

_METRIC_INDEX = {name: k for k, name in enumerate(METRIC_NAMES)}


class BatchScorer:
    """Scores batches of layouts of one task; per-task constant arrays are built once."""

    def __init__(self, task: TaskSpec):
        info = task_info(task)
        self.task = task
        self.info = info
        n = self.n = len(info.ids)
        self.chunk = max(32, CHUNK_BYTES // (16 * (3 * n + 3)))
        self.ids = info.ids
        self._id_list = list(info.ids)
        self.index = info.index

        # overlap: element pairs i < j
        self._pi, self._pj = np.triu_indices(n, k=1)

        # alignment: the owner of each of the 3n anchors and of the 3 guides (-1)
        self._owners = np.array(list(range(n)) * 3 + [-1, -1, -1], dtype=np.int8)
        self._guides = np.array(info.guides, dtype=np.float64)

        # balance, hierarchy
        self._importance = _column(info.importance)
        ranks = info.importance_ranks
        self._imp_rank_dev = np.array(ranks.ranks, dtype=np.float64) - ranks.mean
        self._imp_rank_den = ranks.den

        # grouping: groups in first-appearance order (``TaskInfo.group_members``)
        groups = info.group_members
        self._group_count = len(groups)
        member = np.zeros((len(groups), n))
        group_of = np.zeros(n, dtype=np.intp)
        for g, members in enumerate(groups):
            member[g, members] = 1.0 / len(members)
            group_of[members] = g
        self._group_mean = member  # (groups, n): centre = member @ CX
        self._group_of = group_of
        self._within_weight = member[group_of, np.arange(n)]  # 1 / size of own group
        self._group_pairs = np.triu_indices(len(groups), k=1)

        # reading order: the task's pairs of known elements
        self._has_reading_pairs = bool(info.reading_pairs)
        self._read_i = np.array([i for i, _ in info.reading_items], dtype=np.intp)
        self._read_j = np.array([j for _, j in info.reading_items], dtype=np.intp)

        # aspect ratio and hard constraints: ratio-locked elements
        self._locked = np.array([k for k, _ in info.locked_items], dtype=np.intp)
        self._locked_ar = _column([ar for _, ar in info.locked_items])
        self._canvas = info.canvas_aspect

        # text fit
        self._text = np.array([k for k, _ in info.text_items], dtype=np.intp)
        self._text_demand = _column([d for _, d in info.text_items])

        # intent fit
        self._intent = np.array([k for k, _, _ in info.intent_items], dtype=np.intp)
        self._intent_x = _column([c[0] for _, c, _ in info.intent_items])
        self._intent_y = _column([c[1] for _, c, _ in info.intent_items])
        self._intent_diag = _column([d for _, _, d in info.intent_items])

        # hard constraints
        self._min_w = _column([s[0] for s in info.min_size]) - EPS
        self._min_h = _column([s[1] for s in info.min_size]) - EPS
        self._max_w = _column([s[0] for s in info.max_size]) + EPS
        self._max_h = _column([s[1] for s in info.max_size]) + EPS
        self._lo = info.margin - EPS
        self._hi = (1.0 - info.margin) + EPS

        self._weight_vector = np.zeros(len(METRIC_NAMES))
        for k, w in info.weights:
            self._weight_vector[_METRIC_INDEX[k]] += w
        self._metric_fns = [getattr(self, name) for name in self._METRICS]

    # ------------------------------------------------------------------ inputs

    def boxes_of(self, layouts: Sequence[Layout]) -> tuple[np.ndarray, np.ndarray]:
        """(boxes (B, n, 4), z (B, n)) of layouts, elements in the task's element order."""
        return layout_arrays(layouts, self._id_list, self.index)

    # ------------------------------------------------------------------ metrics

    def _overlap(self, v: _Batch) -> np.ndarray:
        """``metrics._overlap``: exp(-(sum of pairwise intersections) / (sum of areas + eps))."""
        i, j = self._pi, self._pj
        dx = _minimum(v.R[i], v.R[j]) - _maximum(v.X[i], v.X[j])
        dy = _minimum(v.B[i], v.B[j]) - _maximum(v.Y[i], v.Y[j])
        inter = np.where((dx > 0.0) & (dy > 0.0), dx * dy, 0.0).sum(axis=0)
        return _clamp01(_safe_exp(-(inter / (v.area + EPS))))

    def _nearest_other(self, v: _Batch) -> tuple[np.ndarray, np.ndarray]:
        """``metrics._nearest_other`` on a batch, by the same sorted-neighbour argument.

        Returns (d, is_anchor), both element-major (3n + 3, 2B) in sorted order, x axis
        columns then y axis columns: for each anchor, the distance to the nearest guide or
        anchor of another element. An element has three anchors, so its nearest
        other-owner neighbour on either side in sorted order is at most 3 places away: the
        minimum over those 6 candidates is the all-pairs minimum."""
        rows = 2 * v.size
        anchors = _row_major(np.concatenate([v.pos, v.centres, v.ends], axis=1))  # (2B, 3n)
        values = np.concatenate([anchors, np.broadcast_to(self._guides, (rows, 3))], axis=1)
        order = np.argsort(values, axis=1, kind="stable")
        values = np.ascontiguousarray(_gather(values, order).T)  # (3n + 3, 2B), sorted
        owners = np.ascontiguousarray(self._owners[order].T)
        best = np.full(values.shape, np.inf)
        for k in (1, 2, 3):
            d = values[k:] - values[:-k]
            np.putmask(d, owners[k:] == owners[:-k], np.inf)
            np.minimum(best[k:], d, out=best[k:])  # nearest on the left
            np.minimum(best[:-k], d, out=best[:-k])  # nearest on the right
        return best, owners >= 0

    def _alignment(self, v: _Batch) -> np.ndarray:
        """``metrics._alignment``: mean of exp(-d/0.055) over the 6 anchors of each element,
        d = distance to the nearest canvas guide or anchor of another element on that axis."""
        if self.n < 2:
            return np.full(v.size, FALLBACK)
        d, is_anchor = self._nearest_other(v)
        terms = np.where(is_anchor, np.exp(_maximum(-d / ALIGNMENT_TAU, -50.0)), 0.0)
        per_axis = terms.sum(axis=0)
        return _clamp01((per_axis[:v.size] + per_axis[v.size:]) / (6 * self.n))

    def _spacing(self, v: _Batch) -> np.ndarray:
        """``metrics._spacing``: exp(-(std/mean)/0.7) of the positive gaps between x-sorted
        (then y-sorted) neighbours that overlap on the other axis; 0.5 with < 2 gaps."""
        n, size = self.n, v.size
        if n < 2:
            return np.full(size, FALLBACK)
        # one row per (axis, layout): rows 0..B-1 sort by x (gaps in x, overlap in y),
        # rows B..2B-1 by y; stable, so ties keep element order as Python's sorted does
        lead, trail = _row_major(v.pos), _row_major(v.ends)
        lo, hi = _row_major(v.pos[::-1]), _row_major(v.ends[::-1])
        order = np.argsort(lead, axis=1, kind="stable")
        lead, trail, lo, hi = (_gather(a, order) for a in (lead, trail, lo, hi))
        gap = lead[:, 1:] - trail[:, :-1]
        other = _minimum(hi[:, :-1], hi[:, 1:]) - _maximum(lo[:, :-1], lo[:, 1:])
        used = (gap > 0) & (other > 0)
        # element-major again: (2 (n - 1), B), the x gaps then the y gaps of each layout
        gap = np.concatenate([gap[:size].T, gap[size:].T])
        used = np.concatenate([used[:size].T, used[size:].T])
        count = used.sum(axis=0)
        mean, std = _masked_mean_pstd(gap, used, _maximum(count, 1))
        cv = std / (mean + EPS)
        return np.where(count < 2, FALLBACK, _clamp01(_safe_exp(-(cv / SPACING_TAU_CV))))

    def _balance(self, v: _Batch) -> np.ndarray:
        """``metrics._balance``: exp(-d/0.22), d = distance of the area*importance weighted
        centre from (0.5, 0.5); 0 when the total mass is <= eps."""
        masses = v.A * self._importance
        total = masses.sum(axis=0)
        safe = np.where(total <= EPS, 1.0, total)
        cx = (masses * v.CX).sum(axis=0) / safe
        cy = (masses * v.CY).sum(axis=0) / safe
        tx, ty = BALANCE_TARGET
        dist = np.sqrt((cx - tx) ** 2 + (cy - ty) ** 2)
        return np.where(total <= EPS, 0.0, _clamp01(_safe_exp(-(dist / BALANCE_TAU))))

    def _hierarchy(self, v: _Batch) -> np.ndarray:
        """``metrics._hierarchy``: (1 + Spearman(importance, salience)) / 2 with average ranks
        for ties; rho is 0 when either side is constant or n < 2."""
        n = self.n
        if n < 2:
            return np.full(v.size, 0.5)
        salience = (0.55 * np.log(v.A + 1e-4) - 0.22 * v.Y
                    + 0.18 * (1.0 - np.abs(v.CX - 0.5) / 0.5) + 0.10 * v.Z / n)
        order, ranks = _average_ranks(np.ascontiguousarray(salience.T))  # sorted order
        dev = ranks - (n + 1) / 2.0  # the mean of average ranks is exactly (n + 1) / 2
        den = np.sqrt((dev ** 2).sum(axis=1))
        num = (self._imp_rank_dev[order] * dev).sum(axis=1)
        if self._imp_rank_den <= EPS:
            return np.full(v.size, 0.5)
        ok = den > EPS
        rho = np.where(ok, num / (self._imp_rank_den * np.where(ok, den, 1.0)), 0.0)
        return _clamp01((1.0 + rho) / 2.0)

    def _grouping(self, v: _Batch) -> np.ndarray:
        """``metrics._grouping``: exp(-(mean within-group centre distance)/0.22)
        * (1 - exp(-(mean distance between group centres)/0.28)); 0.5 with one group."""
        groups = self._group_count
        if groups < 2:
            return np.full(v.size, FALLBACK)
        gx = self._group_mean @ v.CX  # (groups, B) group centres
        gy = self._group_mean @ v.CY
        of = self._group_of
        # sum over groups of the mean member distance: sum of distance / own group's size
        dist = np.sqrt((v.CX - gx[of]) ** 2 + (v.CY - gy[of]) ** 2)
        within = self._within_weight @ dist
        a, b = self._group_pairs
        between = np.sqrt((gx[a] - gx[b]) ** 2 + (gy[a] - gy[b]) ** 2).sum(axis=0)
        within_term = _safe_exp(-((within / groups) / GROUPING_TAU_WITHIN))
        between_term = 1.0 - _safe_exp(-((between / len(a)) / GROUPING_TAU_BETWEEN))
        return _clamp01(within_term * between_term)

    def _reading_order(self, v: _Batch) -> np.ndarray:
        """``metrics._reading_order``: the fraction of reading pairs in order (same row if
        |dy| <= 0.05: compare x, else compare y); 0.5 without pairs."""
        i, j = self._read_i, self._read_j
        if not self._has_reading_pairs or len(i) == 0:
            return np.full(v.size, FALLBACK)
        yi, yj = v.Y[i], v.Y[j]
        ok = np.where(np.abs(yi - yj) <= READING_SAME_ROW_DY, v.X[i] <= v.X[j], yi <= yj)
        return _clamp01(ok.sum(axis=0) / len(i))

    def _log_aspect_error(self, v: _Batch) -> np.ndarray:
        """(locked, B) |ln(pixel ratio / locked ratio)| of the ratio-locked elements."""
        w, h = v.W[self._locked], v.H[self._locked]
        ratio = w / np.where(h > EPS, h, EPS)
        if self._canvas != 1.0:
            ratio = ratio * self._canvas
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.abs(np.log(ratio / self._locked_ar))

    def _aspect_ratio(self, v: _Batch) -> np.ndarray:
        """``metrics._aspect_ratio``: exp(-mean |ln(pixel ratio / locked ratio)| / 0.9); 1.0
        without ratio-locked elements."""
        if len(self._locked) == 0:
            return np.ones(v.size)
        mean = self._log_aspect_error(v).sum(axis=0) / len(self._locked)
        return _clamp01(_safe_exp(-mean / ASPECT_TAU))

    def _occupancy(self, v: _Batch) -> np.ndarray:
        """``metrics._occupancy``: max(0, 1 - |sum of areas - target| / tolerance)."""
        info = self.info
        return _clamp01(_maximum(0.0, 1.0 - np.abs(v.area - info.occ_target)
                                 / max(info.occ_tol, EPS)))

    def _text_fit(self, v: _Batch) -> np.ndarray:
        """``metrics._text_fit``: exp(-mean |content_len / (900 w h) - target| / 0.45) over
        text elements; 1.0 without text."""
        k = self._text
        if len(k) == 0:
            return np.ones(v.size)
        capacity = v.W[k] * v.H[k] * TEXT_CAPACITY_PER_AREA
        capacity = np.where(capacity < EPS, EPS, capacity)
        penalties = np.abs(self._text_demand / capacity - self.info.text_target)
        return _clamp01(_safe_exp(-(penalties.sum(axis=0) / len(k)) / TEXT_FIT_TAU))

    def _negative_space(self, v: _Batch) -> np.ndarray:
        """``metrics._negative_space``: 0.6 (1 - min(1, (std of x-edge gaps + std of y-edge
        gaps)/0.18)) + 0.4 max(0, 1 - |whitespace - (1 - occupancy target)| / 0.3)."""
        whitespace = _maximum(0.0, 1.0 - v.area)
        if self.n == 0:
            rhythm = np.full(v.size, 0.5)
        else:
            # the 2n edges of each (axis, layout), sorted along axis 1: (2, 2n, B)
            edges = np.sort(np.concatenate([v.pos, v.ends], axis=1), axis=1)
            gaps = np.diff(edges, axis=1)
            mean = gaps.sum(axis=1, keepdims=True) / gaps.shape[1]
            std = np.sqrt(((gaps - mean) ** 2).sum(axis=1) / gaps.shape[1])  # (2, B)
            spread = (std[0] + std[1]) / NEG_SPACE_RHYTHM_SCALE
            rhythm = 1.0 - _minimum(1.0, spread)
        ws_term = 1.0 - np.abs(whitespace - (1.0 - self.info.occ_target)) / NEG_SPACE_WHITESPACE_TOL
        return _clamp01(0.6 * rhythm + 0.4 * _maximum(0.0, ws_term))

    def _intent_fit(self, v: _Batch) -> np.ndarray:
        """``metrics._intent_fit``: mean of exp(-(distance from the intent region centre /
        region diagonal)/0.65); 0.5 without intents."""
        k = self._intent
        if len(k) == 0:
            return np.full(v.size, FALLBACK)
        dist = np.sqrt((v.CX[k] - self._intent_x) ** 2 + (v.CY[k] - self._intent_y) ** 2)
        terms = _safe_exp(-(dist / self._intent_diag) / INTENT_TAU)
        return _clamp01(terms.sum(axis=0) / len(k))

    _METRICS = ("_overlap", "_alignment", "_spacing", "_balance", "_hierarchy", "_grouping",
                "_reading_order", "_aspect_ratio", "_occupancy", "_text_fit",
                "_negative_space", "_intent_fit")

    # ------------------------------------------------------------------ public

    def metrics(self, boxes: np.ndarray, z: np.ndarray | Sequence | None = None) -> np.ndarray:
        """(B, 12) metrics in ``METRIC_NAMES`` order (``metrics.compute_metrics``)."""
        boxes = _boxes_array(boxes)
        size = boxes.shape[0]
        if z is not None:
            z = np.broadcast_to(np.asarray(z, dtype=np.float64), boxes.shape[:2])
        out = np.empty((len(self._METRICS), size))
        chunks = -(-size // self.chunk)
        step = -(-size // chunks) if size else 1  # equal chunks, none of them tiny
        for start in range(0, size, step):
            stop = start + step
            v = _Batch(boxes[start:stop], None if z is None else z[start:stop])
            for k, fn in enumerate(self._metric_fns):
                out[k, start:stop] = fn(v)
        return out.T

    def utility_of_metrics(self, metrics: np.ndarray) -> np.ndarray:
        """(B,) weighted sums of the metrics, clamped (``metrics.utility``)."""
        return _clamp01(metrics @ self._weight_vector)

    def utility(self, boxes: np.ndarray, z: np.ndarray | Sequence | None = None) -> np.ndarray:
        """(B,) utilities: ``metrics.utility(task, compute_metrics(task, layout))``."""
        return self.utility_of_metrics(self.metrics(boxes, z))

    def instruction(self, boxes: np.ndarray, targets: Sequence[tuple]) -> np.ndarray:
        """(B,) ``metrics.instruction_of_view`` with targets from ``instruction_targets``:
        mean of exp(-d/0.22) over the targets (a missing element or region scores 0)."""
        v = _Batch(_boxes_array(boxes), None)
        total = np.zeros(v.size)
        if not targets:
            return total
        for element_id, target in targets:
            k = self.index.get(element_id)
            if k is None or target is None:
                continue
            dist = np.sqrt((v.CX[k] - target[0]) ** 2 + (v.CY[k] - target[1]) ** 2)
            total += np.exp(-dist / INSTRUCTION_TAU)
        return _clamp01(total / len(targets))

    def hard_violation_mask(self, boxes: np.ndarray) -> np.ndarray:
        """(B,) True where ``metrics.hard_violation_of_view`` is not None: a size outside
        [min, max], a box outside the safe area, or a locked ratio off by > 0.18 in log."""
        v = _Batch(_boxes_array(boxes), None)
        bad = ((v.W < self._min_w) | (v.H < self._min_h) | (v.W > self._max_w)
               | (v.H > self._max_h) | (v.X < self._lo) | (v.Y < self._lo)
               | (v.R > self._hi) | (v.B > self._hi)).any(axis=0)
        if len(self._locked):
            bad |= (self._log_aspect_error(v) > HARD_ASPECT_LOG_TOL).any(axis=0)
        return bad


__all__ = ["BatchScorer"]
