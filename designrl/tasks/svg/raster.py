"""A rough rasteriser for ``SvgFacts``: flat-filled outlines drawn with PIL.

Not a renderer to judge drawings by (no anti-aliasing, gradients drawn in their
first stop's colour, holes filled, text as blocks): it exists so the reward can be
computed and tested without a browser, on the same page geometry Chromium uses.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from designrl.tasks.svg.facts import SvgFacts
from designrl.tasks.svg.page import PAGE_SIZE, canvas_transform


def rasterize(facts: SvgFacts, size: int = PAGE_SIZE) -> np.ndarray:
    """The page as ``svg_page`` lays it out, as an RGB ``uint8`` array (size, size, 3)."""
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    sx, sy, ox, oy = canvas_transform(facts, size)
    cx, cy = facts.canvas[0], facts.canvas[1]
    low, high = -4.0 * size, 5.0 * size  # far enough off the page; keeps PIL's ints small
    for shape in facts.shapes:
        for points, closed in shape.subpaths:
            page = [(min(high, max(low, ox + (x - cx) * sx)), min(high, max(low, oy + (y - cy) * sy)))
                    for x, y in points]
            if shape.fill and len(page) >= 3:
                draw.polygon(page, fill=shape.fill[0])
            if shape.stroke and len(page) >= 2:
                width = max(1, round(min(2.0 * size, shape.stroke_width * min(sx, sy))))
                draw.line(page + page[:1] if closed else page, fill=shape.stroke[0], width=width)
    return np.asarray(image, dtype=np.uint8)
