"""Which parsed shapes a viewer can see on the render: only those count for any check.

A shape in the code counts only if the rendered page shows it: its box must land on
the drawn canvas (not off it, not shrunk below a few pixels by a 1e30 ``viewBox``),
and enough pixels inside that box must have its colour (not at zero opacity, not the
background's colour, not buried under later shapes). A shape whose stroke is wider
than the shape itself is a blot of stroke colour, not the circle or square its tag
says: it keeps its colour but answers to no shape noun. A text's glyph edges count as its
paint blended into the page or into whatever it sits on, so one small letter is seen.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from designrl.tasks.svg.colour_names import RGB, colour_families
from designrl.tasks.svg.facts import Shape, SvgFacts
from designrl.tasks.svg.page import canvas_transform

MIN_PIXELS = 12
"""Pixels of its colour a shape must show to be seen (a 1-unit dot shows fewer)."""
MIN_FILLED_SHARE = 0.04
"""Share of its on-canvas box a filled shape must show (hidden under others: less)."""
MATCH = 48
"""How far (RGB distance) a pixel may be from a shape's paint and still be that paint."""
MIN_CONTRAST = 24
"""A paint (after its opacity) this close to the background shows only on other shapes."""
TINY = 100.0
"""Page pixels (a 10 x 10 box) under which a shape is a detail, not a thing to see whole."""
MIN_ALPHA = 0.15
"""A paint fainter than this (opacity and fill-opacity multiplied) is not seen."""


def void_boxes(facts: SvgFacts, size: int) -> list[tuple[float, float, float, float]]:
    """Page boxes (x0, y0, x1, y1) whose pixels show no colour a requirement can claim: a
    blot (a dot with a stroke many times its size, wider than 4 % of the canvas) or a
    shape, the background's too, painted with a gradient of five or more unrelated colours
    (a rainbow is not red, and not blue either; a sunset's three or four hues still count)."""
    sx, sy, ox, oy = canvas_transform(facts, size)
    cx, cy = facts.canvas[0], facts.canvas[1]
    width = max(1e-9, max(facts.canvas_size))
    out = []
    for shape in facts.shapes:
        w, h = shape.bbox[2] - shape.bbox[0], shape.bbox[3] - shape.bbox[1]
        blot = shape.stroke_width > 4 * max(w, h) and shape.stroke_width > 0.04 * width
        if blot or _unrelated(shape.fill + shape.stroke) >= 5:
            pad = shape.stroke_width / 2
            out.append((ox + (shape.bbox[0] - pad - cx) * sx, oy + (shape.bbox[1] - pad - cy) * sy,
                        ox + (shape.bbox[2] + pad - cx) * sx, oy + (shape.bbox[3] + pad - cy) * sy))
    return out


def _unrelated(colors) -> int:
    """How many of ``colors`` name only families no colour before them names: a sunset's
    deep purple (blue or purple), mauve (magenta or pink) and orange are 3, though they
    name five families between them; a rainbow's seven bands are 7."""
    seen: set[str] = set()
    count = 0
    for color in colors:
        families = colour_families(color)
        count += bool(families) and not families & seen
        seen |= families
    return count


def visible_facts(facts: SvgFacts, image: np.ndarray, box: tuple[float, float, float, float],
                  background: RGB, size: int) -> SvgFacts:
    """``facts`` with only the shapes the render shows (background shapes kept as they are)."""
    shapes = [s if s.is_background else seen for s in facts.shapes
              if s.is_background or (seen := _seen(s, facts, image, box, background, size))]
    return replace(facts, shapes=shapes)


def small_shapes(facts: SvgFacts, box: tuple[float, float, float, float],
                 size: int) -> tuple[Shape, ...]:
    """Shapes on the canvas too small for ``_seen`` to be sure of (tiny stars, dots under
    ``TINY`` page pixels), painted at a visible opacity: what they paint is not absent, only
    unseen, and they are pieces a count may need. A big shape that does not show (buried,
    faded out) is not one of them."""
    out = []
    for shape in facts.drawn:
        page = _page_box(shape, facts, box, size)
        if page is None or (page[2] - page[0]) * (page[3] - page[1]) > TINY:
            continue
        if max(shape.fill_alpha if shape.fill else 0.0,
               shape.stroke_alpha if shape.stroke else 0.0) >= MIN_ALPHA:
            out.append(shape)
    return tuple(out)


def _page_box(shape: Shape, facts: SvgFacts, box: tuple[float, float, float, float],
              size: int) -> tuple[float, float, float, float] | None:
    """The shape's box on the page, cut to the canvas; None when off it or under a pixel."""
    sx, sy, ox, oy = canvas_transform(facts, size)
    cx, cy = facts.canvas[0], facts.canvas[1]
    pad = shape.stroke_width / 2
    x0 = ox + (shape.bbox[0] - pad - cx) * sx
    x1 = ox + (shape.bbox[2] + pad - cx) * sx
    y0 = oy + (shape.bbox[1] - pad - cy) * sy
    y1 = oy + (shape.bbox[3] + pad - cy) * sy
    if not all(np.isfinite(v) for v in (x0, x1, y0, y1)):
        return None
    bx0, by0 = max(x0, box[0]), max(y0, box[1])
    bx1, by1 = min(x1, box[2]), min(y1, box[3])
    if bx1 - bx0 < 1 or by1 - by0 < 1:
        return None  # off the canvas, or too small to draw
    return bx0, by0, bx1, by1


def _seen(shape: Shape, facts: SvgFacts, image: np.ndarray,
          box: tuple[float, float, float, float], background: RGB, size: int) -> Shape | None:
    page = _page_box(shape, facts, box, size)
    if page is None:
        return None
    bx0, by0, bx1, by1 = page
    region = image[int(by0):int(np.ceil(by1)), int(bx0):int(np.ceil(bx1)), :3].astype(np.int32)
    if region.size == 0:
        return None
    paints = [_over(c, a, background) for cs, a in ((shape.fill, shape.fill_alpha),
                                                     (shape.stroke, shape.stroke_alpha))
              if a >= MIN_ALPHA for c in cs]
    unlike = np.abs(region - np.array(background)).max(axis=2) > MIN_CONTRAST
    px, py = 4 + 0.1 * (bx1 - bx0), 4 + 0.1 * (by1 - by0)
    around = image[int(max(box[1], by0 - py)):int(np.ceil(min(box[3], by1 + py))),
                   int(max(box[0], bx0 - px)):int(np.ceil(min(box[2], bx1 + px))), :3]
    behind = np.abs(around.astype(np.int32) - np.array(background)).max(axis=2) > MIN_CONTRAST
    if int(behind.sum()) < MIN_PIXELS:  # on the bare page: a paint of the page's colour
        paints = [p for p in paints if _distance(p, background) >= MIN_CONTRAST]
    if not paints:
        return None
    if len(paints) > 2:  # a gradient or pattern: anything unlike the background is it
        shown = unlike
    else:
        shown = np.zeros(region.shape[:2], dtype=bool)
        for paint in paints:
            shown |= np.sqrt(((region - np.array(paint)) ** 2).sum(axis=2)) <= MATCH
            if shape.tag == "text":  # thin glyphs: partly covered pixels are text too
                shown |= _blended(region, paint, background)
                shown |= _blended(region, paint, _backdrop(region, paint))
    count = int(shown.sum())
    filled = bool(shape.fill) and shape.tag not in ("text", "line", "polyline")
    if count < MIN_PIXELS or (filled and count < MIN_FILLED_SHARE * shown.size):
        return None
    w, h = shape.bbox[2] - shape.bbox[0], shape.bbox[3] - shape.bbox[1]
    if shape.stroke and shape.stroke_width > max(w, h) and shape.tag != "line":
        return replace(shape, kinds=frozenset())  # a blot of stroke: no longer its shape
    return shape


def _blended(region: np.ndarray, paint: RGB, background: RGB) -> np.ndarray:
    """Pixels that are ``paint`` laid over ``background`` at 40 % coverage or more (the
    anti-aliased edges of thin strokes)."""
    bg = np.array(background, dtype=float)
    step = np.array(paint, dtype=float) - bg
    norm = float((step ** 2).sum())
    if norm < MIN_CONTRAST ** 2:
        return np.zeros(region.shape[:2], dtype=bool)
    offset = region - bg
    t = (offset * step).sum(axis=2) / norm
    residual = np.sqrt(((offset - t[..., None] * step) ** 2).sum(axis=2))
    return (t >= 0.4) & (t <= 1.2) & (residual <= 40)


def _backdrop(region: np.ndarray, paint: RGB) -> RGB:
    """The commonest colour in a text's box that is not its paint: what its glyphs' edges
    blend into when it sits on a shape (light letters on a dark frame), not the page."""
    far = np.sqrt(((region - np.array(paint)) ** 2).sum(axis=2)) > MATCH
    if not far.any():
        return paint
    colors, counts = np.unique(region[far].reshape(-1, 3), axis=0, return_counts=True)
    return tuple(int(v) for v in colors[counts.argmax()])  # type: ignore[return-value]


def _over(color: RGB, alpha: float, background: RGB) -> RGB:
    a = max(0.0, min(1.0, alpha))
    return tuple(round(a * c + (1 - a) * b) for c, b in zip(color, background, strict=True))  # type: ignore[return-value]


def _distance(a: RGB, b: RGB) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5
