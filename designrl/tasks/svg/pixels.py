"""The rendered canvas as colour masks: where on the drawing a colour shows, and how much.

Colours are read per pixel (quantised to 32 levels a channel, so a render has a few
hundred distinct colours to name, not 260,000). Two masks per colour phrase:

* ``strict``: pixels the phrase names (``ColorSpec.matches``), eroded by one pixel so
  the blended rim between two shapes (red on blue anti-aliases to purple) never counts;
* ``near``: pixels someone could still call it (``ColorSpec.near``), not eroded.

Pixels in ``void`` boxes (blots, rainbow gradients: ``visibility.void_boxes``) count for
no colour. A colour is shown when its strict mask covers ``SHOWN`` of the canvas and absent when
even its near mask covers less than ``ABSENT``; in between nobody can tell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from designrl.tasks.svg.colour_names import RGB, ColorSpec

SHOWN = 0.0012
"""Share of the canvas a colour must cover to count as shown (about 18 x 18 px at 512)."""
ABSENT = 0.00012
"""Below this share (about 5 x 6 px at 512) even loosely, a colour is not there: small
details (eyes, buttons) still count, 1-unit dots do not."""

Region = tuple[float, float, float, float]
"""(u0, v0, u1, v1): a part of the canvas in fractions of its width and height."""
WHOLE: Region = (0.0, 0.0, 1.0, 1.0)


class Pixels:
    """Colour masks over the part of the page the SVG's canvas was drawn on."""

    def __init__(self, image: np.ndarray, box: tuple[float, float, float, float],
                 void: Sequence[tuple[float, float, float, float]] = ()) -> None:
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        h, w = image.shape[:2]
        x0, y0 = max(0, min(x0, w - 1)), max(0, min(y0, h - 1))
        x1, y1 = max(x0 + 1, min(x1, w)), max(y0 + 1, min(y1, h))
        region = image[y0:y1, x0:x1, :3].astype(np.int32)
        q = region >> 3
        keys = (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]
        self.keys, inverse = np.unique(keys.ravel(), return_inverse=True)
        self.inverse = inverse.reshape(keys.shape)
        self.shape = keys.shape
        self.void = np.zeros(keys.shape, dtype=bool)  # pixels no colour may claim
        for vx0, vy0, vx1, vy1 in void:
            if all(np.isfinite(v) for v in (vx0, vy0, vx1, vy1)):
                self.void[max(0, int(vy0) - y0):max(0, int(np.ceil(vy1)) - y0),
                          max(0, int(vx0) - x0):max(0, int(np.ceil(vx1)) - x0)] = True
        self._masks: dict[tuple[str, str], np.ndarray] = {}

    @property
    def area(self) -> int:
        return int(self.shape[0] * self.shape[1])

    def _lookup(self, test: Callable[[RGB], bool]) -> np.ndarray:
        table = np.fromiter((test(_representative(int(k))) for k in self.keys), dtype=bool,
                            count=len(self.keys))
        return table[self.inverse]

    def mask(self, spec: ColorSpec, mode: str = "strict") -> np.ndarray:
        """Pixels of ``spec``: ``strict`` (named, eroded), ``named`` (not eroded) or ``near``
        (loosely, not eroded)."""
        key = (spec.text, mode)
        if key not in self._masks:
            if mode == "strict":
                self._masks[key] = erode(self.mask(spec, "named"))
            elif mode == "named":
                self._masks[key] = self._lookup(spec.matches) & ~self.void
            else:
                self._masks[key] = self._lookup(spec.near) & ~self.void
        return self._masks[key]

    def share(self, mask: np.ndarray, region: Region = WHOLE) -> float:
        """Share of the whole canvas that ``mask`` covers inside ``region``."""
        return float(self.crop(mask, region).sum()) / max(1, self.area)

    def crop(self, mask: np.ndarray, region: Region) -> np.ndarray:
        h, w = self.shape
        u0, v0, u1, v1 = region
        return mask[int(v0 * h):max(int(v0 * h) + 1, int(round(v1 * h))),
                    int(u0 * w):max(int(u0 * w) + 1, int(round(u1 * w)))]

    def centroid(self, mask: np.ndarray) -> tuple[float, float] | None:
        """The mask's centre of mass as (u, v), or None when it is empty."""
        ys, xs = np.nonzero(mask)
        if len(xs) == 0:
            return None
        h, w = self.shape
        return float(xs.mean()) / w, float(ys.mean()) / h

    def extent(self, mask: np.ndarray, axis: str, low: float = 0.05,
               high: float = 0.95) -> tuple[float, float] | None:
        """The span (fractions of the canvas) holding the middle 90 % of the mask's pixels
        along ``axis`` (``"u"`` across, ``"v"`` down)."""
        ys, xs = np.nonzero(mask)
        if len(xs) == 0:
            return None
        h, w = self.shape
        values = xs / w if axis == "u" else ys / h
        return float(np.quantile(values, low)), float(np.quantile(values, high))


def erode(mask: np.ndarray) -> np.ndarray:
    """Keep a pixel only where its four neighbours are set too."""
    out = mask.copy()
    out[1:, :] &= mask[:-1, :]
    out[:-1, :] &= mask[1:, :]
    out[:, 1:] &= mask[:, :-1]
    out[:, :-1] &= mask[:, 1:]
    return out


def _representative(key: int) -> RGB:
    return ((key >> 10) * 8 + 4, ((key >> 5) & 31) * 8 + 4, (key & 31) * 8 + 4)
