"""Float arithmetic in DesignGym's exact operation order, shared by the layout metrics.

Every sum is an explicit left-to-right loop (what Python 3.11's ``sum`` does for
floats; 3.12's compensates, which would change the last bits), so the metrics
built on these helpers reproduce DesignGym's reference vectors bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPS = 1e-9

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
