"""Layout facts the static checks need beyond a ``RenderResult``: text units and overflow.

A *text unit* is the text of one block-level element (a paragraph, heading, list
item, button, table cell ...) with its inline descendants folded in, so
``<p>Hello <b>world</b></p>`` is one unit. Each unit carries the line boxes of its
text (``Range.getClientRects`` per text node), its computed font, and whether its
text is clipped (cut by an ancestor that hides overflow), overflowing (sticking out
of its own box, or out of the viewport to the right) or occluded (another element is
on top of it where it is drawn).

``LAYOUT_FACTS_JS`` runs in the render package's isolated world, out of reach of
the page's scripts; ``parse_layout_facts`` turns its JSON into these types, which
can also be built by hand for browser-free tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from designrl.render.types import BBox, RenderResult

MAX_UNITS = 2000
MAX_RECTS_PER_NODE = 40

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


@dataclass(frozen=True)
class TextUnit:
    """The visible text of one block-level element, in page coordinates (CSS px)."""

    tag: str
    bbox: BBox
    """Union of the unit's line boxes (its ink, not the element's box)."""
    rects: tuple[BBox, ...]
    font_size: float
    font_weight: int
    chars: int
    heading: bool = False
    clipped: bool = False
    overflowing: bool = False
    occluded: bool = False
    """Another element is drawn on top of the text (hit-tested at its line boxes)."""


@dataclass
class LayoutFacts:
    viewport_width: int
    viewport_height: int
    scroll_width: int = 0
    """``documentElement.scrollWidth``: more than the viewport means horizontal page overflow."""
    scroll_height: int = 0
    units: list[TextUnit] = field(default_factory=list)

    @property
    def horizontal_overflow(self) -> int:
        """CSS px the page is wider than the viewport (0 when it fits)."""
        return max(0, self.scroll_width - self.viewport_width)


LAYOUT_FACTS_JS = """({maxUnits, maxRects}) => {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'svg',
                        'OPTION', 'DATALIST']);
  const de = document.documentElement;
  const vw = de ? de.clientWidth : window.innerWidth;
  const vh = window.innerHeight;
  const sx = window.scrollX, sy = window.scrollY;
  const out = {viewport_width: vw, viewport_height: vh,
               scroll_width: de ? de.scrollWidth : 0, scroll_height: de ? de.scrollHeight : 0,
               units: []};
  if (!document.body) return out;
  const isInline = d => d === 'inline' || d === 'contents' || d.startsWith('ruby');
  const blockOf = el => {
    let n = el;
    while (n && n !== document.body && isInline(getComputedStyle(n).display)) n = n.parentElement;
    return n || document.body;
  };
  const visible = el => el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : getComputedStyle(el).visibility === 'visible';
  // Ancestors (up to the root) that cut off what overflows them, with their boxes.
  const clipCache = new Map();
  const clippers = el => {
    if (clipCache.has(el)) return clipCache.get(el);
    const parent = el.parentElement;
    let list = parent ? clippers(parent) : [];
    const cs = getComputedStyle(el);
    const hides = v => v === 'hidden' || v === 'clip';
    if (el !== document.body && el !== de && (hides(cs.overflowX) || hides(cs.overflowY))) {
      const r = el.getBoundingClientRect();
      // Visually-hidden helpers (1 px boxes, sr-only) hide on purpose: not a layout defect.
      if (r.width > 2 && r.height > 2 && cs.clip === 'auto' && cs.clipPath === 'none') {
        list = list.concat([{r, x: hides(cs.overflowX), y: hides(cs.overflowY)}]);
      } else {
        list = list.concat([{r, x: false, y: false, hidden: true}]);
      }
    }
    clipCache.set(el, list);
    return list;
  };
  const units = new Map();
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (!parent || SKIP.has(parent.tagName) || parent.closest('svg, script, style, noscript'))
      continue;
    const text = node.nodeValue.replace(/\\s+/g, ' ').trim();
    if (!text || !visible(parent)) continue;
    const block = blockOf(parent);
    let unit = units.get(block);
    if (!unit) {
      if (units.size >= maxUnits) continue;
      const cs = getComputedStyle(block);
      const br = block.getBoundingClientRect();
      unit = {tag: block.tagName.toLowerCase(), rects: [], chars: 0,
              font_size: parseFloat(cs.fontSize) || 0,
              font_weight: parseInt(cs.fontWeight) || 400,
              heading: /^H[1-6]$/.test(block.tagName) || block.getAttribute('role') === 'heading',
              box: br, clipped: false, overflowing: false, el: block};
      units.set(block, unit);
    }
    range.selectNodeContents(node);
    let rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5 && r.height > 0.5);
    if (!rects.length) continue;
    rects = rects.slice(0, maxRects);
    unit.chars += text.length;
    const hiddenBy = clippers(parent);
    for (const r of rects) {
      unit.rects.push([r.left + sx, r.top + sy, r.width, r.height]);
      for (const c of hiddenBy) {
        if (c.hidden) continue;
        if ((c.x && (r.left < c.r.left - 1 || r.right > c.r.right + 1)) ||
            (c.y && (r.top < c.r.top - 1 || r.bottom > c.r.bottom + 1))) unit.clipped = true;
      }
      const b = unit.box;
      if (r.right > b.right + 2 || r.left < b.left - 2 || r.right > vw + 1 || r.left < -1)
        unit.overflowing = true;
    }
  }
  // Occlusion: is the unit's own element on top along its first line boxes? Tested a
  // band at a time with the band scrolled to the middle of the viewport (hit tests only
  // see the viewport; the middle keeps fixed headers and footers out of the way).
  const listed = Array.from(units.values()).filter(u => u.rects.length);
  const band = Math.max(1, Math.floor(vh / 2));
  listed.sort((a, b) => a.rects[0][1] - b.rects[0][1]);
  let scrolled = null;
  for (const unit of listed) {
    const points = [];
    for (const [x, y, w, h] of unit.rects.slice(0, 4)) {
      for (const f of [0.1, 0.5, 0.9]) points.push([x + w * f, y + h / 2]);
    }
    for (const [cx, cy] of points) {
      const top = Math.max(0, Math.floor(cy / band) * band - Math.floor(vh / 4));
      if (scrolled !== top) { window.scrollTo({left: 0, top, behavior: 'instant'}); scrolled = top; }
      const px = cx - window.scrollX, py = cy - window.scrollY;
      if (px < 0 || py < 0 || px >= vw || py >= vh) continue;
      const hit = document.elementFromPoint(px, py);
      if (hit && hit !== unit.el && !unit.el.contains(hit) && !hit.contains(unit.el)) {
        unit.occluded = true;
        break;
      }
    }
  }
  if (scrolled !== null) window.scrollTo({left: sx, top: sy, behavior: 'instant'});
  for (const unit of units.values()) {
    if (!unit.rects.length) continue;
    if (clippers(unit.el).some(c => c.hidden)) continue;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y, w, h] of unit.rects) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + w); y1 = Math.max(y1, y + h);
    }
    out.units.push({tag: unit.tag, bbox: [x0, y0, x1 - x0, y1 - y0], rects: unit.rects,
                    font_size: unit.font_size, font_weight: unit.font_weight, chars: unit.chars,
                    heading: unit.heading, clipped: unit.clipped, overflowing: unit.overflowing,
                    occluded: !!unit.occluded});
  }
  return out;
}"""


def _box(values: Any) -> BBox:
    x, y, w, h = (float(v) for v in values)
    return (x, y, w, h)


def parse_layout_facts(raw: dict[str, Any]) -> LayoutFacts:
    """``LayoutFacts`` from the JSON ``LAYOUT_FACTS_JS`` returns."""
    units = [
        TextUnit(
            tag=str(u.get("tag", "")),
            bbox=_box(u["bbox"]),
            rects=tuple(_box(r) for r in u.get("rects", [])),
            font_size=float(u.get("font_size", 0.0)),
            font_weight=int(u.get("font_weight", 400)),
            chars=int(u.get("chars", 0)),
            heading=bool(u.get("heading", False)),
            clipped=bool(u.get("clipped", False)),
            overflowing=bool(u.get("overflowing", False)),
            occluded=bool(u.get("occluded", False)),
        )
        for u in raw.get("units", [])
    ]
    return LayoutFacts(
        viewport_width=int(raw.get("viewport_width", 0)),
        viewport_height=int(raw.get("viewport_height", 0)),
        scroll_width=int(raw.get("scroll_width", 0)),
        scroll_height=int(raw.get("scroll_height", 0)),
        units=units,
    )


def facts_from_render(result: RenderResult, viewport_width: int | None = None) -> LayoutFacts:
    """Approximate facts from a ``RenderResult`` alone (one unit per text block, no clipping
    or overflow information): for browser-free scoring of a render."""
    units = [
        TextUnit(tag="", bbox=b.bbox, rects=(b.bbox,), font_size=b.font_size,
                 font_weight=b.font_weight, chars=len(b.text))
        for b in result.text_blocks
    ]
    width = viewport_width or result.width
    return LayoutFacts(viewport_width=width, viewport_height=result.height,
                       scroll_width=width, scroll_height=result.page_height, units=units)
