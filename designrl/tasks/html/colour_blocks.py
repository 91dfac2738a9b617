"""Design2Code's text blocks, found without OCR by colour injection.

Design2Code boxes text by painting it: every background is made transparent,
each element with text gets a unique colour, the page is rendered twice with
every such colour shifted by ``SHIFT``, and the pixels whose colour moved by
exactly the shift (± ``SHIFT_TOLERANCE`` per channel) are text; grouping them by
their first-render colour gives one box per element. Pixels that do not move
(images, borders, backgrounds) and anti-aliased edges (which move by less) drop
out, so a box hugs the glyphs as drawn.

Where we differ from Design2Code's ``ocr_free_utils.py``, on purpose:

* every element with its own text gets a colour (Design2Code colours a fixed
  list of tags, so text in ``<strong>`` or ``<label>`` merges into its parent's
  box); the blocks line up one to one with the DOM blocks of ``designrl.render``;
* things that follow the text colour without being text (borders, outlines,
  shadows, list markers, ``::before``/``::after`` content, SVG icons drawn in
  ``currentColor``) are made transparent or pinned, so they do not widen boxes;
* translucent elements are made opaque (Design2Code does this for its tags);
  fully transparent ones stay hidden, as the DOM blocks treat them;
* the block's text, font and colour are those of the matching DOM block of a
  normal render: the colour as CSS computes it, where Design2Code averages the
  original screenshot over the block's text pixels.

At most ``PALETTE_SIZE`` (4096) elements get a colour; text in later ones, text
drawn in images or ``<canvas>``, and text whose layer has a filter or blend
mode is not found.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import replace
from difflib import SequenceMatcher

import numpy as np
from scipy import ndimage

from designrl.render.types import RGB, TextBlock
from designrl.tasks.html.visual import decode_png

SHIFT = 50  # how far every injected colour channel moves in the second render
SHIFT_TOLERANCE = 8  # a text pixel moved by SHIFT ± this, per channel (Design2Code's)
COLOUR_TOLERANCE = 4  # and sits within this of a palette colour in the first render
BASE, STEP, LEVELS = 10, 16, 16  # palette channel values 10, 26, …, 250 (Design2Code's)
PALETTE_SIZE = LEVELS**3

PixelBox = tuple[int, int, int, int]  # (x, y, width, height) in screenshot pixels

# Appearance only: nothing here changes layout, so both renders lay out as the original.
_STYLE = """<style>
*, *::before, *::after { background-color: transparent !important;
  background-image: none !important; border-color: transparent !important;
  outline-color: transparent !important; box-shadow: none !important;
  text-shadow: none !important; transition: none !important;
  -webkit-text-fill-color: currentcolor !important; }
*::before, *::after, *::marker { color: transparent !important; }
*::first-letter, *::first-line { color: inherit !important; }
svg { color: #000 !important; }
</style>"""

# Runs when the document is complete (after the page's own scripts built it): every
# element with its own text, in document order, gets palette colour k (shifted).
_SCRIPT = """<script>(() => {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META',
                        'LINK', 'BASE']);
  const channel = k => (%(base)d + %(step)d * k + %(shift)d) %% 256;
  const colour = i => `rgb(${channel(i >> 8 & 15)}, ${channel(i >> 4 & 15)}, ${channel(i & 15)})`;
  const paint = () => {
    const all = Array.from(document.getElementsByTagName('*')).filter(el => el.style);
    const seen = all.map(el => parseFloat(getComputedStyle(el).opacity) > 0);
    let next = 0;
    all.forEach((el, k) => {
      if (seen[k]) el.style.setProperty('opacity', '1', 'important');
      if (next >= %(size)d || SKIP.has(el.tagName.toUpperCase())) return;
      const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.nodeValue.trim());
      if (!own) return;
      const c = colour(next++);
      el.style.setProperty('color', c, 'important');
      if (el instanceof SVGElement) el.style.setProperty('fill', c, 'important');
    });
  };
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'complete') paint();
  });
})();</script>"""

_DOCTYPE = re.compile(r"<!doctype[^>]*>", re.IGNORECASE)


def palette_colour(index: int, shift: int = 0) -> RGB:
    """The injected colour of the ``index``-th text element (in the render shifted by ``shift``)."""
    digits = (index >> 8 & 15, index >> 4 & 15, index & 15)
    r, g, b = ((BASE + STEP * k + shift) % 256 for k in digits)
    return (r, g, b)


def inject_colours(html: str, shift: int = 0) -> str:
    """The page with the colour-injection stylesheet and script added.

    They go right after the doctype (kept first, so the page keeps its rendering
    mode), not at the end, where an unclosed comment or ``<script>`` would swallow
    them."""
    found = _DOCTYPE.search(html, 0, 4096)
    at = found.end() if found else 0
    script = _SCRIPT % {"base": BASE, "step": STEP, "shift": shift, "size": PALETTE_SIZE}
    return html[:at] + _STYLE + script + html[at:]


def palette_indices(image: np.ndarray, tolerance: int = COLOUR_TOLERANCE) -> np.ndarray:
    """Per pixel of an RGB image: the palette index its colour is within ``tolerance`` of, or −1."""
    offset = image.astype(np.int16) - BASE
    level = np.rint(offset / STEP).astype(np.int16)
    near = (np.abs(offset - level * STEP) <= tolerance) & (level >= 0) & (level < LEVELS)
    index = (level[..., 0] * LEVELS + level[..., 1]) * LEVELS + level[..., 2]
    return np.where(near.all(axis=-1), index, -1)


def shifted_pixels(first: np.ndarray, second: np.ndarray, shift: int = SHIFT,
                   tolerance: int = SHIFT_TOLERANCE) -> np.ndarray:
    """Mask of the pixels whose every channel moved by ``shift`` ± ``tolerance`` (mod 256)."""
    moved = (second.astype(np.int16) - first.astype(np.int16)) % 256
    return (np.abs(moved - shift) <= tolerance).all(axis=-1)


def colour_boxes(first: np.ndarray, second: np.ndarray, shift: int = SHIFT) -> dict[int, PixelBox]:
    """Palette index -> box of its text pixels, from the plain and the shifted render.

    Images of different sizes (a page that laid out differently twice) are compared
    over their common top-left part."""
    height = min(first.shape[0], second.shape[0])
    width = min(first.shape[1], second.shape[1])
    first, second = first[:height, :width], second[:height, :width]
    index = palette_indices(first)
    labels = np.where(shifted_pixels(first, second, shift) & (index >= 0), index + 1, 0)
    boxes = {}
    for k, found in enumerate(ndimage.find_objects(labels)):
        if found is not None:
            rows, cols = found
            boxes[k] = (cols.start, rows.start, cols.stop - cols.start, rows.stop - rows.start)
    return boxes


def _aligned(injected: Sequence[TextBlock], original: Sequence[TextBlock]) -> dict[int, int]:
    """Injected block index -> original block index, pairing the two renders' DOM blocks.

    They are the same elements in the same order unless the page's scripts made a
    different page; then the longest runs of equal text are paired."""
    a, b = [blk.text for blk in injected], [blk.text for blk in original]
    if a == b:
        return {i: i for i in range(len(a))}
    pairs = {}
    for run in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        pairs.update({run.a + k: run.b + k for k in range(run.size)})
    return pairs


def blocks_from_renders(plain, shifted, original: Sequence[TextBlock]) -> list[TextBlock]:
    """Text blocks from the two colour-injected renders (``RenderResult``s), in DOM order.

    Each is the DOM block of the element whose colour drew it, with the box of its
    text pixels; text, font and colour come from ``original``, the normal render's
    DOM blocks (an injected block no original pairs with keeps its own, drawn black
    on white)."""
    first, second = decode_png(plain.png), decode_png(shifted.png)
    boxes = colour_boxes(first, second)
    scale = first.shape[1] / plain.width if plain.width else 1.0
    pairs = _aligned(plain.text_blocks, original)
    blocks = []
    for i, block in enumerate(plain.text_blocks):
        index = palette_indices(np.array([[block.color]], dtype=np.uint8), tolerance=0)[0, 0]
        box = boxes.get(int(index)) if index >= 0 else None
        if box is None:
            continue
        source = original[pairs[i]] if i in pairs else replace(
            block, color=(0, 0, 0), background=(255, 255, 255))
        blocks.append(replace(source, bbox=tuple(v / scale for v in box)))
    return blocks


async def extract_colour_blocks(pool, html: str, original: Sequence[TextBlock],
                                viewport: tuple[int, int] | None = None) -> list[TextBlock]:
    """A page's text blocks the Design2Code way, rendering it twice in ``pool`` (at
    ``viewport``, the pool's default when None).

    ``original`` are the DOM text blocks of a normal render of the same page (they
    give each block its true colour). A page whose injected renders fail has no blocks.
    """
    plain, shifted = await asyncio.gather(pool.render(inject_colours(html, 0), viewport),
                                          pool.render(inject_colours(html, SHIFT), viewport))
    if not (plain.ok and shifted.ok):
        return []
    return blocks_from_renders(plain, shifted, original)
