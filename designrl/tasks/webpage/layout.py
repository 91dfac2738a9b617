"""Layout checks on text units: overlapping text, clipped or overflowing text, alignment.

Pure functions of ``LayoutFacts`` (``facts.py``); each returns a score in [0, 1]
and the numbers it came from, so a low score can be explained.

* ``score_overlap``: two units whose line boxes intersect by more than
  ``OVERLAP_SHARE`` of the smaller box overlap; a unit with another element drawn
  on top of it is occluded. ``1 / (1 + 0.5 * (pairs + occluded))``: one overlapping
  pair already costs a third, because text drawn over (or under) something else is
  unreadable whatever the size of the page.
* ``score_text_fit``: the share ``s`` of units (by count) whose text is clipped by a
  box that hides overflow, or sticks out of its own box or the viewport, gives
  ``max(0, 1 - 3 s)``; a page wider than the viewport (horizontal scrolling) is then
  halved.
* ``score_alignment``: a unit is x-aligned when its left edge, centre or right edge
  lies within ``ALIGN_TOL`` px of another unit's, and aligned when any of those or
  its top, middle or bottom does. ``0.7 * x-aligned share + 0.3 * aligned share``:
  text that snaps to a few shared columns scores high; text scattered at
  arbitrary offsets scores low. Fewer than two units: 1 (nothing to misalign).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from designrl.render.types import BBox
from designrl.tasks.webpage.facts import LayoutFacts, TextUnit

OVERLAP_SHARE = 0.25
PAIR_COST = 0.5
CLIP_COST = 3.0
PAGE_OVERFLOW_FACTOR = 0.5
ALIGN_TOL = 3.0
X_WEIGHT = 0.7


def intersection(a: BBox, b: BBox) -> float:
    """Area shared by two (x, y, w, h) boxes."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def overlapping_pairs(units: Sequence[TextUnit], share: float = OVERLAP_SHARE) -> list[tuple[int, int]]:
    """Index pairs of units with line boxes that overlap by more than ``share`` of the smaller."""
    pairs = []
    order = sorted(range(len(units)), key=lambda i: units[i].bbox[1])
    for pos, i in enumerate(order):
        a = units[i]
        bottom = a.bbox[1] + a.bbox[3]
        for j in order[pos + 1:]:
            b = units[j]
            if b.bbox[1] >= bottom:
                break  # sorted by top: nothing further down can touch a
            if intersection(a.bbox, b.bbox) <= 0:
                continue
            if any(_overlaps(ra, rb, share) for ra in a.rects for rb in b.rects):
                pairs.append((min(i, j), max(i, j)))
    return pairs


def _overlaps(a: BBox, b: BBox, share: float) -> bool:
    smaller = min(a[2] * a[3], b[2] * b[3])
    return smaller > 0 and intersection(a, b) > share * smaller


def score_overlap(facts: LayoutFacts) -> tuple[float, dict]:
    pairs = overlapping_pairs(facts.units)
    occluded = sum(u.occluded for u in facts.units)
    examples = [[facts.units[i].bbox, facts.units[j].bbox] for i, j in pairs[:5]]
    return 1.0 / (1.0 + PAIR_COST * (len(pairs) + occluded)), {
        "overlapping_pairs": len(pairs), "occluded": occluded, "examples": examples}


def score_text_fit(facts: LayoutFacts) -> tuple[float, dict]:
    units = facts.units
    bad = sum(1 for u in units if u.clipped or u.overflowing)
    share = bad / len(units) if units else 0.0
    score = max(0.0, 1.0 - CLIP_COST * share)
    overflow = facts.horizontal_overflow
    if overflow > 1:
        score *= PAGE_OVERFLOW_FACTOR
    return score, {"clipped": sum(u.clipped for u in units),
                   "overflowing": sum(u.overflowing for u in units),
                   "units": len(units), "page_overflow_px": overflow}


def _matched(values: np.ndarray, tol: float) -> np.ndarray:
    """For each value, whether another value lies within ``tol`` of it."""
    n = len(values)
    if n < 2:
        return np.zeros(n, dtype=bool)
    diff = np.abs(values[:, None] - values[None, :])
    np.fill_diagonal(diff, np.inf)
    return (diff <= tol).any(axis=1)


def score_alignment(facts: LayoutFacts, tol: float = ALIGN_TOL) -> tuple[float, dict]:
    units = facts.units
    if len(units) < 2:
        return 1.0, {"units": len(units), "x_aligned": len(units), "aligned": len(units)}
    boxes = np.array([u.bbox for u in units], dtype=float)
    x, y, w, h = boxes.T
    x_ok = _matched(x, tol) | _matched(x + w / 2, tol) | _matched(x + w, tol)
    y_ok = _matched(y, tol) | _matched(y + h / 2, tol) | _matched(y + h, tol)
    any_ok = x_ok | y_ok
    score = X_WEIGHT * float(x_ok.mean()) + (1 - X_WEIGHT) * float(any_ok.mean())
    return score, {"units": len(units), "x_aligned": int(x_ok.sum()),
                   "aligned": int(any_ok.sum())}
