"""B layouts of one task as element-major numpy arrays, and the array helpers the batched
metrics in ``scorer`` share (the numpy counterparts of ``metric_arithmetic``).

Row k of each (n, B) array holds element k of every layout, so per-element terms
are contiguous rows and sums over elements add whole rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

import numpy as np

from designrl.tasks.layout.spec import Layout

_maximum, _minimum = np.maximum, np.minimum


def _safe_exp(values: np.ndarray) -> np.ndarray:
    """exp of the values clamped to [-50, 50] (``metrics._safe_exp``)."""
    return np.exp(_minimum(_maximum(values, -50.0), 50.0))


def _clamp01(values: np.ndarray) -> np.ndarray:
    return _minimum(_maximum(values, 0.0), 1.0)


def _masked_mean_pstd(values: np.ndarray, mask: np.ndarray, count: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(mean, population std) of each column of ``values`` over the rows where ``mask``
    holds (``metrics._mean`` / ``metrics._pstd``); ``count`` is the number of such rows,
    at least 1. The std is only meaningful for a count of 2 or more."""
    values = np.where(mask, values, 0.0)
    mean = values.sum(axis=0) / count
    dev = np.where(mask, (values - mean) ** 2, 0.0)
    return mean, np.sqrt(dev.sum(axis=0) / count)


def _gather(values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``np.take_along_axis(values, order, axis=1)`` for 2-d arrays (faster: flat indices)."""
    flat = order + (np.arange(order.shape[0]) * values.shape[1])[:, None]
    return values.ravel()[flat]


def _row_major(a: np.ndarray) -> np.ndarray:
    """(..., m, B) element-major stack -> (rows, m) contiguous, one row per layout (and axis)."""
    return np.ascontiguousarray(np.swapaxes(a, -1, -2)).reshape(-1, a.shape[-2])


def _average_ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(order, ranks in sorted order) of each row: ``metrics._rank``'s 1-based average ranks
    for ties, found from the tie runs of the stably sorted row (exact half-integers)."""
    size, n = values.shape
    order = np.argsort(values, axis=1, kind="stable")
    ordered = _gather(values, order)
    pos = np.arange(n)
    starts = np.ones((size, n), dtype=bool)  # position begins a run of equal values
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones((size, n), dtype=bool)  # position ends one
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, pos, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, pos, n)[:, ::-1], axis=1)[:, ::-1]
    return order, (first + last + 2) / 2.0


class _Batch:
    """B layouts unpacked into element-major (n, B) arrays: the batched
    ``metrics.LayoutView``.

    ``X, Y, W, H`` are the box, ``R = x + w``, ``B = y + h``, ``CX = x + w/2``,
    ``CY = y + h/2``, ``A = max(0, w) * max(0, h)``, ``area`` the (B,) sum of ``A``.
    ``pos``, ``ends`` and ``centres`` stack the x and y versions as (2, n, B) arrays
    for the metrics that treat both axes alike."""

    __slots__ = ("X", "Y", "W", "H", "R", "B", "CX", "CY", "A", "Z", "area", "size",
                 "pos", "ends", "centres")

    def __init__(self, boxes: np.ndarray, z: np.ndarray | None):
        coords = np.ascontiguousarray(boxes.transpose(2, 1, 0))  # (4, n, B): x, y, w, h
        pos, ext = coords[:2], coords[2:]
        self.pos = pos
        self.ends = ends = pos + ext
        self.centres = centres = pos + ext / 2.0
        self.X, self.Y, self.W, self.H = coords
        self.R, self.B = ends
        self.CX, self.CY = centres
        clipped = _maximum(ext, 0.0)
        self.A = clipped[0] * clipped[1]
        self.area = self.A.sum(axis=0)
        self.size = boxes.shape[0]
        self.Z = np.zeros_like(self.W) if z is None else np.ascontiguousarray(z.T)


def _boxes_array(boxes) -> np.ndarray:
    boxes = np.asarray(boxes, dtype=np.float64)
    return boxes[None] if boxes.ndim == 2 else boxes


def _column(values) -> np.ndarray:
    """A per-element constant as an (m, 1) column, to broadcast against (m, B) rows."""
    return np.asarray(values, dtype=np.float64).reshape(-1, 1)



def layout_arrays(layouts: Sequence[Layout], ids: list[str], index: Mapping[str, int]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(boxes (B, n, 4), z (B, n)) of layouts, elements in the task's order (``ids``, with
    ``index`` the position of each id); a layout with another element count raises."""
    n, size = len(ids), len(layouts)
    flat = [e for layout in layouts for e in layout.elements]
    if len(flat) != size * n or [e.id for e in flat] != ids * size:
        flat = []  # some layout has another element order (or count): per layout
        for layout in layouts:
            if len(layout.elements) != n:
                raise ValueError(f"layout has {len(layout.elements)} elements; "
                                 f"the task has {n}")
            flat.extend(sorted(layout.elements, key=lambda e: index[e.id]))
    boxes = np.fromiter(chain.from_iterable(e.bbox for e in flat), np.float64,
                        count=size * n * 4)
    z = np.fromiter((e.z for e in flat), np.float64, count=size * n)
    return boxes.reshape(size, n, 4), z.reshape(size, n)
