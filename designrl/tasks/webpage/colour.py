"""Colour checks: text contrast (WCAG) and palette harmony, from text blocks and the screenshot.

``score_contrast``: each text block's contrast ratio (WCAG 2 relative luminance)
between its computed text colour and the background *as drawn*: the per-channel
median of the screenshot inside the block's text box, where glyphs cover well under
half the pixels (so text on gradients and images is judged by what is seen; the DOM
background is used when the box lies outside the screenshot). A block needs 4.5, or 3.0 when large
(>= 24 px, or >= 18.66 px and bold). Each block scores ``(ratio - 1) / (need - 1)``
capped at 1, and the score is the mean weighted by characters (at most 200 per
block, so one long paragraph does not outweigh every heading).

``score_harmony``: the palette is the screenshot quantised to 4 bits per channel;
*dominant* colours are bins holding at least 1.5 % of the pixels. Two parts:

* ``count``: 2-6 dominant colours score 1, one scores 0.6 (monotone), more than 6
  ``6 / n``;
* ``hues``: over pairs of *chromatic* dominant colours (HSV saturation >= 0.25 and
  value >= 0.2), each pair weighted by the product of its pixel shares scores 1 if
  the hue distance fits a classic scheme (within 30 deg: analogous; 120 +- 15:
  triadic; 150 +- 15: split complementary; 180 +- 30: complementary), else 0.4.
  No chromatic pair (greys plus at most one accent): 1.

Score: ``(count + hues) / 2``.
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence

import numpy as np

from designrl.render.types import RGB, TextBlock

NORMAL_NEED, LARGE_NEED = 4.5, 3.0
LARGE_PX, LARGE_BOLD_PX = 24.0, 18.66
MAX_WEIGHT_CHARS = 200

DOMINANT_SHARE = 0.015
CHROMA_SATURATION, CHROMA_VALUE = 0.25, 0.2
MAX_COLOURS = 6
MONOTONE = 0.6
OFF_SCHEME = 0.4
SCHEMES = ((0.0, 30.0), (120.0, 15.0), (150.0, 15.0), (180.0, 30.0))


def relative_luminance(rgb: Sequence[float]) -> float:
    channels = []
    for value in rgb[:3]:
        c = float(value) / 255.0
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG 2 contrast ratio, 1 (same) to 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def required_ratio(font_size: float, font_weight: int) -> float:
    large = font_size >= LARGE_PX or (font_size >= LARGE_BOLD_PX and font_weight >= 700)
    return LARGE_NEED if large else NORMAL_NEED


def drawn_background(image: np.ndarray, bbox: tuple[float, float, float, float]) -> RGB | None:
    """Per-channel median of the screenshot inside ``bbox``: glyphs cover well under half of
    a text box, so the median is the colour behind them. None when the box is off-image."""
    height, width = image.shape[:2]
    x0, y0 = max(0, int(np.floor(bbox[0]))), max(0, int(np.floor(bbox[1])))
    x1 = min(width, int(np.ceil(bbox[0] + bbox[2])))
    y1 = min(height, int(np.ceil(bbox[1] + bbox[3])))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    patch = image[y0:y1, x0:x1, :3].reshape(-1, 3)
    r, g, b = (int(v) for v in np.median(patch, axis=0))
    return (r, g, b)


def score_contrast(blocks: Sequence[TextBlock], image: np.ndarray | None) -> tuple[float, dict]:
    """Character-weighted WCAG contrast credit of the text blocks (1 with no text)."""
    total = weight_sum = 0.0
    failing = []
    for block in blocks:
        background = drawn_background(image, block.bbox) if image is not None else None
        background = background or block.background
        ratio = contrast_ratio(block.color, background)
        need = required_ratio(block.font_size, block.font_weight)
        credit = min(1.0, (ratio - 1.0) / (need - 1.0))
        weight = float(min(len(block.text), MAX_WEIGHT_CHARS))
        total += credit * weight
        weight_sum += weight
        if ratio < need and len(failing) < 5:
            failing.append({"text": block.text[:40], "ratio": round(ratio, 2), "need": need})
    if weight_sum == 0:
        return 1.0, {"blocks": 0}
    return total / weight_sum, {"blocks": len(blocks), "failing_examples": failing}


def dominant_colours(image: np.ndarray, share: float = DOMINANT_SHARE) -> list[tuple[RGB, float]]:
    """(colour, pixel share) of 4-bit-per-channel bins holding at least ``share``, largest first."""
    pixels = np.asarray(image)[..., :3].reshape(-1, 3)
    if len(pixels) == 0:
        return []
    step = max(1, len(pixels) // 400_000)  # subsample big pages: shares barely move
    q = (pixels[::step] >> 4).astype(np.int32)
    keys = (q[:, 0] << 8) | (q[:, 1] << 4) | q[:, 2]
    counts = np.bincount(keys, minlength=4096)
    total = counts.sum()
    found = []
    for key in np.argsort(counts)[::-1]:
        frac = counts[key] / total
        if frac < share:
            break
        r, g, b = (key >> 8) & 15, (key >> 4) & 15, key & 15
        found.append(((int(r) * 16 + 8, int(g) * 16 + 8, int(b) * 16 + 8), float(frac)))
    return found


def hue_pair_score(h1: float, h2: float) -> float:
    """1 when two hues (degrees) sit in a classic scheme, else ``OFF_SCHEME``."""
    d = abs(h1 - h2) % 360.0
    d = min(d, 360.0 - d)
    return 1.0 if any(abs(d - centre) <= width for centre, width in SCHEMES) else OFF_SCHEME


def score_harmony(image: np.ndarray) -> tuple[float, dict]:
    palette = dominant_colours(image)
    n = len(palette)
    if n == 0:
        return 0.0, {"dominant": 0}
    count_part = MONOTONE if n == 1 else (1.0 if n <= MAX_COLOURS else MAX_COLOURS / n)
    chromatic = []
    for rgb, frac in palette:
        h, s, v = colorsys.rgb_to_hsv(*(c / 255.0 for c in rgb))
        if s >= CHROMA_SATURATION and v >= CHROMA_VALUE:
            chromatic.append((h * 360.0, frac))
    weighted = weight = 0.0
    for i, (h1, f1) in enumerate(chromatic):
        for h2, f2 in chromatic[i + 1:]:
            weighted += f1 * f2 * hue_pair_score(h1, h2)
            weight += f1 * f2
    hues_part = weighted / weight if weight > 0 else 1.0
    return (count_part + hues_part) / 2, {
        "dominant": n, "palette": ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb, _ in palette[:8]],
        "chromatic": len(chromatic), "parts": {"count": count_part,
                                              "hues": round(hues_part, 3)}}
