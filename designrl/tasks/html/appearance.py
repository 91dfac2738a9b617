"""How a page looks, compared with the reference: the screenshot terms of the html reward.

Each page is read into a ``PageView``: its screenshot, the same screenshot with its
text hidden (``capture``), the text's ink (the pixels that differ) and the page's
background colour (the commonest colour with the text hidden). Both pages render at
the reference's viewport, so they share a width; the shorter is padded to the
taller's height with its own background (and no ink), so a missing or extra stretch
of page is compared with emptiness.

Every term is weighted by what there is to see: a region where neither page shows
anything (background only) counts for nothing, so a nearly empty candidate scores
near 0 against a page with content, not near 1 for matching its white space.

* ``ssim``: SSIM of the grey screenshots, text kept, at three scales, each pixel
  weighted by the larger of the two local variances (where there is detail);
* ``palette``: the colours where they are: CIEDE2000 between the two text-free
  screenshots in cells (40 px at 1280), each cell weighted by how far either page's
  cell is from its background; a region one page has and the other lacks scores 0.
  A tenth of the term is the two backgrounds' own similarity (all of it when neither
  page has a coloured region; the term then weighs a tenth as much in ``visual``);
* ``histogram``: the colours whatever their place: overlap of the two Lab
  histograms of the non-background pixels (text kept), times the ratio of their
  shares of the page;
* ``layout``: where things are: the overlap (sum of minima over sum of maxima) of
  the two occupancy maps (text ink, and text-free pixels clearly off the background,
  so that a faint tint, which a change of palette makes or unmakes, is no box),
  blurred, at two scales.

``visual`` is their weighted mean (``VISUAL_WEIGHTS``). A view keeps only the small
arrays the terms read once ``compact()`` has run (a cached reference costs a few MB,
not its full screenshots).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageChops
from scipy import ndimage
from skimage.color import deltaE_ciede2000, rgb2lab

INK_DIFF = 24  # a pixel whose channel moved this much (0-255) when text was hidden is ink
SALIENT_DE = 8.0  # CIE76 distance from the page background at which a pixel is "something"
LAYOUT_DE = 20.0  # ... and "clearly something", for the layout maps (a faint tint is not a box)
SSIM_WIDTHS = (320, 160, 80)
PALETTE_WIDTH = 32  # cells across the page (40 CSS px each at 1280 px)
PALETTE_DE = 30.0  # CIEDE2000 at which two cells' colours count as unrelated
BACKGROUND_SHARE = 0.1  # of the palette term: the two page backgrounds' similarity
HIST_WIDTH = 256
LAYOUT_WIDTHS = (64, 16)
VISUAL_WEIGHTS = {"ssim": 0.3, "palette": 0.2, "histogram": 0.2, "layout": 0.3}
BLANK_STD = 2.0  # a screenshot whose grey levels vary less than this (0-255) is blank


def decode_image(png: bytes | None) -> Image.Image | None:
    """The PNG as an RGB image, or None for empty or broken input."""
    if not png:
        return None
    try:
        with Image.open(io.BytesIO(png)) as image:
            return image.convert("RGB")
    except Exception:  # noqa: BLE001 - a broken screenshot is no screenshot
        return None


def resize(image: Image.Image | np.ndarray, width: int) -> np.ndarray:
    """Area-averaged resize to ``width`` columns (aspect kept), as floats: 0-255 for an
    image (RGB or grey), 0-1 for a boolean mask."""
    if isinstance(image, np.ndarray):
        if image.dtype == bool:
            return resize(Image.fromarray(image.astype(np.uint8) * 255), width) / 255.0
        if image.ndim == 3:
            return np.stack([resize(image[..., k], width) for k in range(image.shape[2])], -1)
        image = Image.fromarray(image.astype(np.float32), mode="F")
    height = max(1, round(image.height * width / max(1, image.width)))
    return np.asarray(image.resize((width, height), Image.Resampling.BOX), dtype=np.float32)


def background_colour(image: Image.Image) -> np.ndarray:
    """The commonest colour of an RGB image (mean of its most populated 4-bit bin)."""
    small = np.asarray(image.reduce(4) if min(image.size) >= 4 else image).reshape(-1, 3)
    small = small.astype(np.int32)
    if small.size == 0:
        return np.array([255.0, 255.0, 255.0])
    bins = (small[:, 0] >> 4) * 256 + (small[:, 1] >> 4) * 16 + (small[:, 2] >> 4)
    top = np.bincount(bins).argmax()
    return small[bins == top].mean(axis=0)


def _lab(rgb: np.ndarray) -> np.ndarray:
    return rgb2lab(np.clip(np.asarray(rgb, dtype=float) / 255.0, 0.0, 1.0))


@dataclass
class PageView:
    """One page as the screenshot terms read it."""

    image: Image.Image | None  # RGB, text kept (None once compacted)
    textless: Image.Image | None  # RGB, text hidden
    ink: np.ndarray | None  # bool (H, W): the pixels the text draws
    background: np.ndarray  # RGB floats, 0-255
    scale: float  # screenshot pixels per CSS pixel
    width: int
    height: int
    _small: dict = field(default_factory=dict, repr=False)

    def small(self, what: str, width: int) -> np.ndarray:
        """A downscaled array, cached: ``image`` or ``textless`` (RGB 0-255), their Lab
        (``image_lab``, ``textless_lab``), ``grey`` (0-1, of the image), ``ink`` (0-1)."""
        key = (what, width)
        if key not in self._small:
            if what.endswith("_lab"):
                value = _lab(self.small(what[:-4], width))
            elif what == "grey":
                value = resize(self.image.convert("L"), width) / 255.0
            else:
                value = resize({"image": self.image, "textless": self.textless,
                                "ink": self.ink}[what], width)
            self._small[key] = value
        return self._small[key]

    def compact(self) -> PageView:
        """Make every small array the terms read, then let the full-size images go."""
        for width in SSIM_WIDTHS:
            self.small("grey", width)
        self.small("textless_lab", PALETTE_WIDTH)
        self.small("image_lab", HIST_WIDTH)
        for width in LAYOUT_WIDTHS:
            self.small("textless_lab", width * 4)
            self.small("ink", width * 4)
        self.image = self.textless = self.ink = None
        return self

    @property
    def background_lab(self) -> np.ndarray:
        return _lab(self.background)


def ink_mask(image: Image.Image, textless: Image.Image) -> np.ndarray:
    """Pixels where some channel differs by ``INK_DIFF`` or more."""
    r, g, b = ImageChops.difference(image, textless).split()
    return np.asarray(ImageChops.lighter(ImageChops.lighter(r, g), b)) >= INK_DIFF


def is_blank(image: Image.Image | None) -> bool:
    """Nothing drawn: no image, or grey levels that hardly vary."""
    if image is None or image.width * image.height == 0:
        return True
    grey = np.asarray(image.convert("L"), dtype=np.float32)
    return float(grey.std()) < BLANK_STD


def page_view(image: Image.Image, textless: Image.Image | None, css_width: float = 0,
              text_boxes: Sequence = ()) -> PageView:
    """A ``PageView`` from the two screenshots (``css_width``: the viewport's width, for
    the screenshot's scale). Without a text-free screenshot (a render that had none), the
    text's ink is guessed: pixels inside the DOM text boxes (``text_boxes``) that differ
    from their box's border colour, which then paints the text-free image."""
    scale = image.width / css_width if css_width else 1.0
    if textless is None or textless.width != image.width:
        array, ink = _masked(np.asarray(image), text_boxes, scale)
        textless = Image.fromarray(array)
    else:
        height = min(image.height, textless.height)
        if image.height != height or textless.height != height:
            image = image.crop((0, 0, image.width, height))
            textless = textless.crop((0, 0, textless.width, height))
        ink = ink_mask(image, textless)
    return PageView(image, textless, ink, background_colour(textless), scale,
                    image.width, image.height)


def _masked(image: np.ndarray, boxes: Sequence, scale: float) -> tuple[np.ndarray, np.ndarray]:
    out = image.copy()
    ink = np.zeros(image.shape[:2], dtype=bool)
    height, width = image.shape[:2]
    for box in boxes:
        x, y, w, h = (v * scale for v in box)
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(width, int(np.ceil(x + w))), min(height, int(np.ceil(y + h)))
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue
        border = np.concatenate([out[y0, x0:x1], out[y1 - 1, x0:x1], out[y0:y1, x0],
                                 out[y0:y1, x1 - 1]])
        fill = np.median(border, axis=0)
        region = image[y0:y1, x0:x1].astype(np.int16)
        ink[y0:y1, x0:x1] |= np.abs(region - fill).max(axis=-1) >= INK_DIFF
        out[y0:y1, x0:x1] = fill.astype(np.uint8)
    return out, ink


MIN_INK_PIXELS = 3
MIN_INK_SHARE = 0.01


def visible_blocks(blocks: Sequence, view: PageView) -> list:
    """The text blocks that draw ink: at least ``MIN_INK_PIXELS`` pixels and
    ``MIN_INK_SHARE`` of their box. Text coloured like what is behind it, covered by
    something else, clipped away or shrunk to nothing is not there to read."""
    if view.ink is None:
        raise ValueError("visible_blocks needs the view before compact()")
    out = []
    for block in blocks:
        x, y, w, h = (v * view.scale for v in block.bbox)
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(view.width, int(np.ceil(x + w))), min(view.height, int(np.ceil(y + h)))
        if x1 <= x0 or y1 <= y0:
            continue
        count = int(view.ink[y0:y1, x0:x1].sum())
        if count >= MIN_INK_PIXELS and count >= MIN_INK_SHARE * (x1 - x0) * (y1 - y0):
            out.append(block)
    return out


# Shared canvas


def _pad(array: np.ndarray, height: int, fill) -> np.ndarray:
    if array.shape[0] >= height:
        return array[:height]
    pad = np.empty((height - array.shape[0], *array.shape[1:]), dtype=array.dtype)
    pad[...] = fill
    return np.concatenate([array, pad], axis=0)


def _pair(ref: np.ndarray, cand: np.ndarray, ref_fill, cand_fill) -> tuple[np.ndarray, np.ndarray]:
    """The two arrays on one canvas: the same width (resized if needed), the taller height."""
    if cand.shape[1] != ref.shape[1]:
        cand = resize(cand, ref.shape[1])
    height = max(ref.shape[0], cand.shape[0])
    return _pad(ref, height, ref_fill), _pad(cand, height, cand_fill)


def _grey(rgb: np.ndarray) -> float:
    return float(rgb[0] * 0.299 + rgb[1] * 0.587 + rgb[2] * 0.114) / 255.0


# The terms


def weighted_ssim(a: np.ndarray, b: np.ndarray, sigma: float = 1.5) -> float:
    """SSIM of two grey images (0-1), each pixel weighted by the larger local variance."""
    c1, c2 = 0.01 ** 2, 0.03 ** 2

    def blur(x):
        return ndimage.gaussian_filter(x, sigma, mode="nearest", truncate=3.5)

    mu_a, mu_b = blur(a), blur(b)
    var_a = np.maximum(0.0, blur(a * a) - mu_a ** 2)
    var_b = np.maximum(0.0, blur(b * b) - mu_b ** 2)
    cov = blur(a * b) - mu_a * mu_b
    ssim = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a ** 2 + mu_b ** 2 + c1)
                                                     * (var_a + var_b + c2))
    weight = np.maximum(var_a, var_b)
    total = float(weight.sum())
    if total < 1e-9:  # two flat images: how alike their levels are
        return float(np.clip(ssim.mean(), 0.0, 1.0))
    return float(np.clip((np.clip(ssim, 0.0, 1.0) * weight).sum() / total, 0.0, 1.0))


def ssim_term(ref: PageView, cand: PageView) -> float:
    scores = []
    for width in SSIM_WIDTHS:
        a, b = _pair(ref.small("grey", width), cand.small("grey", width),
                     _grey(ref.background), _grey(cand.background))
        scores.append(weighted_ssim(a, b))
    return float(np.mean(scores))


def _salience(lab: np.ndarray, background_lab: np.ndarray) -> np.ndarray:
    return np.clip(np.linalg.norm(lab - background_lab, axis=-1) / SALIENT_DE - 0.5, 0.0, 1.0)


def colour_similarity(a_lab: np.ndarray, b_lab: np.ndarray, scale: float = PALETTE_DE) -> np.ndarray:
    """max(0, 1 − CIEDE2000 / ``scale``) between two arrays of Lab colours."""
    shape = a_lab.shape[:-1]
    de = deltaE_ciede2000(a_lab.reshape(-1, 3), b_lab.reshape(-1, 3)).reshape(shape)
    return np.clip(1.0 - de / scale, 0.0, 1.0)


def palette_term(ref: PageView, cand: PageView) -> tuple[float, bool]:
    """(score, regional): ``regional`` is False when neither page has a coloured region,
    and only the two backgrounds were compared."""
    ref_bg, cand_bg = ref.background_lab, cand.background_lab
    a, b = _pair(ref.small("textless_lab", PALETTE_WIDTH),
                 cand.small("textless_lab", PALETTE_WIDTH), ref_bg, cand_bg)
    sal_a, sal_b = _salience(a, ref_bg), _salience(b, cand_bg)
    weight = np.maximum(sal_a, sal_b)
    backgrounds = float(colour_similarity(ref_bg[None], cand_bg[None])[0])
    if weight.sum() < 1.0:
        return backgrounds, False
    present = np.minimum(sal_a, sal_b) / np.maximum(weight, 1e-9)
    regional = float((colour_similarity(a, b) * present * weight).sum() / weight.sum())
    return (1 - BACKGROUND_SHARE) * regional + BACKGROUND_SHARE * backgrounds, True


def _histogram(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    hist, _ = np.histogramdd(lab[mask], bins=(8, 8, 8),
                             range=((0, 100), (-100, 100), (-100, 100)))
    hist = ndimage.gaussian_filter(hist, 0.75, mode="constant")
    total = hist.sum()
    return hist / total if total > 0 else hist


def histogram_term(ref: PageView, cand: PageView) -> float:
    ref_lab, cand_lab = ref.small("image_lab", HIST_WIDTH), cand.small("image_lab", HIST_WIDTH)
    ref_mask = np.linalg.norm(ref_lab - ref.background_lab, axis=-1) > SALIENT_DE
    cand_mask = np.linalg.norm(cand_lab - cand.background_lab, axis=-1) > SALIENT_DE
    ref_share, cand_share = float(ref_mask.mean()), float(cand_mask.mean())
    if ref_share < 1e-4 and cand_share < 1e-4:
        return 1.0
    if ref_share < 1e-4 or cand_share < 1e-4:
        return 0.0
    overlap = float(np.minimum(_histogram(ref_lab, ref_mask),
                               _histogram(cand_lab, cand_mask)).sum())
    return overlap * min(ref_share, cand_share) / max(ref_share, cand_share)


def occupancy(view: PageView, width: int) -> np.ndarray:
    """Per cell, how much of it is taken by something: text ink, or text-free pixels
    clearly off the background (0-1)."""
    lab = view.small("textless_lab", width * 4)
    salient = np.linalg.norm(lab - view.background_lab, axis=-1) > LAYOUT_DE
    ink = view.small("ink", width * 4)
    filled = np.maximum(salient.astype(np.float32), np.clip(ink * 4.0, 0.0, 1.0))
    return resize(filled, width)


def layout_term(ref: PageView, cand: PageView) -> float:
    scores = []
    for width in LAYOUT_WIDTHS:
        a, b = _pair(occupancy(ref, width), occupancy(cand, width), 0.0, 0.0)
        a, b = ndimage.gaussian_filter(a, 1.0), ndimage.gaussian_filter(b, 1.0)
        most = float(np.maximum(a, b).sum())
        scores.append(1.0 if most < 1e-6 else float(np.minimum(a, b).sum()) / most)
    return float(np.mean(scores))


def appearance_scores(ref: PageView, cand: PageView) -> dict[str, float]:
    """The four screenshot terms and ``visual``, their weighted mean. When neither page
    has a coloured region, the palette term compares only the backgrounds and weighs
    ``BACKGROUND_SHARE`` of its usual weight (a plain page's white matches any white)."""
    palette, regional = palette_term(ref, cand)
    scores = {"ssim": ssim_term(ref, cand), "palette": palette,
              "histogram": histogram_term(ref, cand), "layout": layout_term(ref, cand)}
    weights = dict(VISUAL_WEIGHTS)
    if not regional:
        weights["palette"] *= BACKGROUND_SHARE
    scores["visual"] = sum(w * scores[k] for k, w in weights.items()) / sum(weights.values())
    return scores
