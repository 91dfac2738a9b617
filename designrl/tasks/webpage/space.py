"""Pixels: is the page blank, and is its whitespace balanced?

``is_blank``: the screenshot is (nearly) one colour (under 0.1 % of pixels differ
from the most common colour by more than 16 in a channel), or the page shows no
text and no element besides ``html``/``body``.

``score_whitespace``: a pixel is *empty* when no edge lies within ``EDGE_RADIUS``
px of it (Sobel gradient of the grey image under ``EDGE_LEVEL``, edges dilated):
flat section backgrounds count as space, text, borders and pictures do not.
Two parts:

* ``amount``: the empty share ``e`` is best inside [0.45, 0.93]; it falls linearly
  to 0 at 0.15 (cramped) and at 1.0 (nothing there);
* ``balance``: content (non-empty pixels) on the left and right halves,
  ``1 - |L - R| / (L + R)``, so content is not piled against one side.

Score: ``amount * (0.5 + 0.5 * balance)``. The screenshot is analysed at half
resolution (what matters is the distribution, not single pixels).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import ndimage

from designrl.render.types import ElementBox, TextBlock

BLANK_SHARE = 0.001
BLANK_DELTA = 16
EDGE_LEVEL = 12.0
EDGE_RADIUS = 4
BAND = (0.15, 0.45, 0.93, 1.0)
STRUCTURAL_TAGS = frozenset({"html", "body", "head"})


def ink_share(image: np.ndarray, delta: int = BLANK_DELTA) -> float:
    """Share of pixels that differ from the most common colour by more than ``delta``."""
    pixels = np.asarray(image)[..., :3].reshape(-1, 3)
    if len(pixels) == 0:
        return 0.0
    keys = (pixels[:, 0].astype(np.int32) << 16) | (pixels[:, 1].astype(np.int32) << 8) | pixels[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    mode = values[np.argmax(counts)]
    ref = np.array([(mode >> 16) & 255, (mode >> 8) & 255, mode & 255], dtype=np.int32)
    far = (np.abs(pixels.astype(np.int32) - ref) > delta).any(axis=1)
    return float(far.mean())


def is_blank(image: np.ndarray | None, text_blocks: Sequence[TextBlock] = (),
             elements: Sequence[ElementBox] = ()) -> tuple[bool, dict]:
    if image is None or image.size == 0:
        return True, {"reason": "no screenshot"}
    share = ink_share(image)
    shown = len(text_blocks) + sum(e.tag not in STRUCTURAL_TAGS for e in elements)
    if share < BLANK_SHARE:
        return True, {"reason": "uniform screenshot", "ink_share": share}
    if shown == 0:
        return True, {"reason": "no text or elements", "ink_share": share}
    return False, {"ink_share": round(share, 4)}


def empty_mask(image: np.ndarray) -> np.ndarray:
    """True where no edge is near, at half resolution."""
    small = np.asarray(image)[::2, ::2, :3].astype(np.float32)
    grey = small @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    gradient = np.hypot(ndimage.sobel(grey, axis=0), ndimage.sobel(grey, axis=1)) / 4.0
    edges = gradient > EDGE_LEVEL
    radius = max(1, EDGE_RADIUS // 2)
    structure = np.ones((2 * radius + 1, 2 * radius + 1), dtype=bool)
    return ~ndimage.binary_dilation(edges, structure=structure)


def score_whitespace(image: np.ndarray) -> tuple[float, dict]:
    image = np.asarray(image)
    if image.size == 0 or min(image.shape[:2]) < 4:
        return 0.0, {"empty_share": None}
    empty = empty_mask(image)
    share = float(empty.mean())
    zero_low, one_low, one_high, zero_high = BAND
    if one_low <= share <= one_high:
        amount = 1.0
    elif share < one_low:
        amount = max(0.0, (share - zero_low) / (one_low - zero_low))
    else:
        amount = max(0.0, (zero_high - share) / (zero_high - one_high))
    content = ~empty
    half = content.shape[1] // 2
    left, right = float(content[:, :half].sum()), float(content[:, half:].sum())
    balance = 1.0 - abs(left - right) / (left + right) if left + right > 0 else 0.0
    return amount * (0.5 + 0.5 * balance), {"empty_share": round(share, 3),
                                            "balance": round(balance, 3)}
