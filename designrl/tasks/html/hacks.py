"""Completions built to game the html reward, each beside an honest, mediocre attempt.

``hack_cases(screenshot, items)`` gives, for every item (by default three ``gen-html``
test pages, which need no file), a ``HackCase`` per hack; the
reward must score each hack below the item's honest attempt (``honest_attempt``:
the page's own text and markup in a plain layout, its colours and type kept, its
boxes stacked in the normal flow). The policy sees the reference's screenshot, so
hacks may use it (``screenshot(item)``, the reference's PNG; without one, the pages are
rendered here, as the reward renders them); the strongest
hacks also start from the reference's own HTML, an upper bound on what a policy
could write:

* ``text_in_one_block``: all the reference's text in one paragraph;
* ``text_transparent``: the reference page with every text colour transparent, by a
  style sheet and, inline and ``!important``, by a script (the DOM still reports each
  block where it was, in black: the DOM drops the alpha);
* ``text_like_background``: the same, each element's text painted the colour drawn
  behind its middle (a script hit-tests the page for the first background under it);
* ``colour_rectangles``: a page of big rectangles, each the mean colour of its
  cell of the screenshot;
* ``fine_colour_mosaic``: the same with small cells: a blurred copy of the screenshot;
* ``rectangles_over_page``: the mosaic drawn over the reference page (text, boxes
  and structure all there underneath);
* ``screenshot_image``: the screenshot itself, as a ``data:`` image;
* ``screenshot_over_page``: the screenshot laid over the reference page: every
  pixel and every DOM fact right, no text of its own to see.
"""

from __future__ import annotations

import asyncio
import base64
import html as html_lib
import io
from collections.abc import Callable, Iterable, Sequence

import lxml.html
import numpy as np
from PIL import Image

from designrl.tasks.html.css import filter_block, filter_declarations
from designrl.tasks.html.degrade import _parse, _serialise, _text_nodes
from designrl.tasks.html.generate import TEST_SEED_START, generate_item
from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.html.viewport import page_viewport
from designrl.tasks.integrity import HackCase

DEFAULT_SEEDS = (TEST_SEED_START + 11, TEST_SEED_START + 12, TEST_SEED_START + 13)
Screenshot = Callable[[HtmlItem], bytes]

# honest_attempt drops these: the declarations that build columns, grids and
# overlays; spacing, widths of text columns, colours, borders and type stay.
_ARRANGING = frozenset(("display", "position", "top", "right", "bottom", "left", "float",
                        "clear", "width", "height", "min-height", "z-index", "transform",
                        "order", "columns", "gap", "row-gap", "column-gap"))
_ARRANGING_PREFIXES = ("flex", "grid", "inset", "align-", "justify-", "place-", "column-")


def _arranges(prop: str) -> bool:
    prop = prop.removeprefix("-webkit-").removeprefix("-moz-").removeprefix("-ms-")
    return prop in _ARRANGING or prop.startswith(_ARRANGING_PREFIXES)


def honest_attempt(html: str) -> str:
    """A plain but sensible copy of the page: its text and markup, its colours, type,
    backgrounds, borders, spacing and text widths, with every box stacked in the
    normal flow (no columns, grids, floats or positioning): what a weak model that
    read the screenshot right but could not lay it out would write."""
    root = _parse(html)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag == "style" and element.text:
            element.text = filter_declarations(element.text, lambda p, v: not _arranges(p))
        if element.get("style"):
            element.set("style", filter_block(element.get("style"), lambda p, v: not _arranges(p)))
    return _serialise(root, html)


def page_text(html: str) -> str:
    """All the visible text of the page's body, in document order."""
    root = _parse(html)
    body = root.find("body")
    return " ".join(" ".join(getattr(e, a).split())
                    for e, a in _text_nodes(body if body is not None else root))


def _document(body: str, head: str = "", body_style: str = "margin:0") -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>page</title>{head}"
            f"</head><body style='{body_style}'>{body}</body></html>")


def _append(html: str, where: str, markup: str) -> str:
    """The page with ``markup`` added at the end of its ``head`` or ``body``."""
    root = _parse(html)
    parent = root.find(where)
    if parent is None:
        parent = root.makeelement(where)
        root.insert(0 if where == "head" else len(root), parent)
    for element in lxml.html.fragments_fromstring(markup):
        parent.append(element)
    return _serialise(root, html)


def text_in_one_block(item: HtmlItem, screenshot: bytes) -> str:
    return _document(f"<p>{html_lib.escape(page_text(item.html))}</p>", body_style="margin:8px")


TEXT_TRANSPARENT_JS = """<script>
addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('body, body *')) {
    el.style.setProperty('color', 'transparent', 'important');
  }
});
</script>"""


def text_transparent(item: HtmlItem, screenshot: bytes) -> str:
    """Every element's text colour set transparent, inline and ``!important`` (so no
    rule of the page's can win it back)."""
    return _append(item.html, "head", "<style>*, *::before, *::after "
                                      "{ color: transparent !important; }</style>"
                   + TEXT_TRANSPARENT_JS)


TEXT_LIKE_BACKGROUND_JS = """<script>
addEventListener('load', () => {
  const opaque = c => c && c !== 'transparent' && !/rgba\\(.*,\\s*0\\)$/.test(c);
  // What is drawn behind an element's middle: the first element under it, in paint
  // order, with a background of its own (an ancestor, or a sibling laid beneath it).
  const behind = el => {
    let r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) {  // hit tests see the viewport only
      scrollBy(0, r.top + r.height / 2 - innerHeight / 2);
      r = el.getBoundingClientRect();
    }
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const stack = document.elementsFromPoint(Math.max(0, Math.min(x, innerWidth - 1)),
                                             Math.max(0, Math.min(y, innerHeight - 1)));
    for (const under of stack) {
      if (under === el || el.contains(under)) continue;
      const c = getComputedStyle(under).backgroundColor;
      if (opaque(c)) return c;
    }
    for (let n = el; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (opaque(c)) return c;
    }
    return 'rgb(255, 255, 255)';
  };
  const colours = new Map();
  for (const el of document.body.querySelectorAll('*')) colours.set(el, behind(el));
  scrollTo(0, 0);
  for (const [el, c] of colours) el.style.setProperty('color', c, 'important');
});
</script>"""


def text_like_background(item: HtmlItem, screenshot: bytes) -> str:
    return _append(item.html, "head", TEXT_LIKE_BACKGROUND_JS)


def _cells(png: bytes, cell: int) -> tuple[list[str], int, int]:
    """Absolutely placed divs, one per ``cell`` px square of the screenshot, in its mean
    colour (runs of equal colour along a row merged)."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=float)
    height, width = rgb.shape[:2]
    rows, cols = -(-height // cell), -(-width // cell)
    divs = []
    for r in range(rows):
        start, colour = 0, None
        for c in range(cols + 1):
            here = None
            if c < cols:
                block = rgb[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell]
                here = tuple(int(round(v)) for v in block.reshape(-1, 3).mean(axis=0))
            if c > 0 and here != colour:
                x, w = start * cell, (c - start) * cell
                divs.append(f"<div style='position:absolute;left:{x}px;top:{r * cell}px;"
                            f"width:{w}px;height:{cell}px;background:rgb{colour}'></div>")
                start = c
            colour = here
    return divs, width, height


def _mosaic(png: bytes, cell: int, z: int = 0) -> str:
    divs, width, height = _cells(png, cell)
    return (f"<div style='position:absolute;left:0;top:0;width:{width}px;height:{height}px;"
            f"z-index:{z}'>{''.join(divs)}</div>")


def colour_rectangles(item: HtmlItem, screenshot: bytes) -> str:
    return _document(_mosaic(screenshot, 80))


def fine_colour_mosaic(item: HtmlItem, screenshot: bytes) -> str:
    return _document(_mosaic(screenshot, 16))


def rectangles_over_page(item: HtmlItem, screenshot: bytes) -> str:
    return _append(item.html, "body", _mosaic(screenshot, 16, z=2147483647))


def _image(png: bytes, z: int | None = None) -> str:
    with Image.open(io.BytesIO(png)) as image:
        width, height = image.size
    data = base64.b64encode(png).decode()
    place = f"position:absolute;left:0;top:0;z-index:{z};" if z is not None else "display:block;"
    return (f"<img alt='' src='data:image/png;base64,{data}' width='{width}' height='{height}' "
            f"style='{place}width:{width}px;height:{height}px'>")


def screenshot_image(item: HtmlItem, screenshot: bytes) -> str:
    return _document(_image(screenshot))


def screenshot_over_page(item: HtmlItem, screenshot: bytes) -> str:
    return _append(item.html, "body", _image(screenshot, z=2147483647))


HACKS: dict[str, Callable[[HtmlItem, bytes], str]] = {
    "text_in_one_block": text_in_one_block,
    "text_transparent": text_transparent,
    "text_like_background": text_like_background,
    "colour_rectangles": colour_rectangles,
    "fine_colour_mosaic": fine_colour_mosaic,
    "rectangles_over_page": rectangles_over_page,
    "screenshot_image": screenshot_image,
    "screenshot_over_page": screenshot_over_page,
}


def default_items(seeds: Iterable[int] = DEFAULT_SEEDS) -> list[HtmlItem]:
    return [generate_item(seed) for seed in seeds]


def render_screenshots(items: Sequence[HtmlItem]) -> dict[str, bytes]:
    """Each item's reference screenshot, as the reward captures it (at its viewport), in a
    browser pool started for the purpose."""
    from designrl.render.runner import PoolRunner
    from designrl.tasks.html.capture import capture_page

    with PoolRunner(browsers=1, pages_per_browser=4, timeout_s=20.0) as runner:
        async def shoot(item: HtmlItem) -> bytes:
            capture = await capture_page(runner.pool, item.html, page_viewport(item.html))
            if not capture.render.ok or not capture.render.png:
                raise ValueError(f"{item.id}: the reference does not render "
                                 f"({capture.render.error})")
            return capture.render.png

        async def shoot_all() -> list[bytes]:
            return list(await asyncio.gather(*(shoot(item) for item in items)))

        return dict(zip((i.id for i in items), runner.run(shoot_all()), strict=True))


def hack_cases(screenshot: Screenshot | None = None, items: Sequence[HtmlItem] | None = None,
               task: str = "gen-html") -> list[HackCase]:
    """One ``HackCase`` per hack and item (``gen-html`` test items by default).
    ``screenshot(item)``: the reference's PNG as the reward renders it (at the
    reference's viewport, ``viewport.page_viewport``); None renders them here."""
    items = list(items) if items is not None else default_items()
    if screenshot is None:
        shots = render_screenshots(items)
        screenshot = lambda item: shots[item.id]  # noqa: E731
    cases = []
    for item in items:
        png = screenshot(item)
        honest = honest_attempt(item.html)
        cases += [HackCase(task, item, name, build(item, png), honest)
                  for name, build in HACKS.items()]
    return cases


__all__ = ["DEFAULT_SEEDS", "HACKS", "hack_cases", "honest_attempt", "page_text"]
