"""What changed between two screenshots of a page: the pixels that moved, outside the boxes
an interaction itself touches and away from what changes on its own (``interact``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import ndimage

PIXEL_DELTA = 24
"""A channel must move by more than this for a pixel to count as changed."""
MASK_PAD = 8
"""Pixels around a target's box that its own hover, focus or caret may change."""


def changed_mask(before: np.ndarray, after: np.ndarray, delta: int = PIXEL_DELTA) -> np.ndarray:
    """Pixels whose colour moved by more than ``delta`` in some channel (shapes must match)."""
    if before.shape != after.shape:
        return np.ones(after.shape[:2], dtype=bool)
    return (np.abs(before.astype(np.int16) - after.astype(np.int16)) > delta).any(axis=2)


def box_mask(shape: tuple[int, ...], boxes: Sequence[Sequence[float]], pad: int = MASK_PAD
             ) -> np.ndarray:
    """True inside any (x, y, w, h) viewport box grown by ``pad`` px."""
    mask = np.zeros(shape[:2], dtype=bool)
    height, width = shape[:2]
    for x, y, w, h in boxes:
        x0, y0 = max(0, int(x) - pad), max(0, int(y) - pad)
        x1, y1 = min(width, int(x + w) + pad + 1), min(height, int(y + h) + pad + 1)
        if x1 > x0 and y1 > y0:
            mask[y0:y1, x0:x1] = True
    return mask


def count_changed(before: np.ndarray, after: np.ndarray, ignore: np.ndarray | None = None,
                  restless: np.ndarray | None = None) -> int:
    """Changed pixels outside ``ignore``, leaving out every changed region that touches
    ``restless`` (what changed on its own: a ticking counter that grows a digit changes
    pixels next to where it ticked, not only where)."""
    changed = changed_mask(before, after)
    if ignore is not None and ignore.shape == changed.shape:
        changed &= ~ignore
    if restless is not None and restless.shape == changed.shape and changed.any():
        grown = ndimage.binary_dilation(changed, iterations=MASK_PAD)
        labels, _ = ndimage.label(grown)
        touching = np.unique(labels[restless & grown])
        changed &= ~np.isin(labels, touching[touching > 0])
    return int(changed.sum())
