"""DOM facts read from a loaded page: text blocks, element boxes, node count.

One JavaScript function (``DOM_FACTS_JS``) walks the document once and returns
plain JSON; ``parse_dom_facts`` turns that into the shared types. All of these
run in an isolated world (``isolated.py``), out of the page scripts' reach.
Coordinates are page coordinates (the scroll offset is added), in CSS pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from designrl.render.types import ElementBox, TextBlock

MAX_ELEMENTS = 5000
MAX_TEXT_BLOCKS = 5000

# Elements in the document, in every open shadow root and in every frame whose document
# this world can reach (srcdoc, blob:, about:blank), nested any depth. Stops once past
# ``max``: the count is then a lower bound, enough to refuse the page. Closed shadow roots
# and opaque (data:) frames are out of reach here; the renderer's own node counter
# (``capture.renderer_nodes``) stands behind this count for them.
COUNT_NODES_JS = """(max) => {
  let total = 0;
  const roots = [document];
  while (roots.length) {
    const root = roots.pop();
    const all = root.nodeType === 9 ? root.getElementsByTagName('*') : root.querySelectorAll('*');
    total += all.length;
    if (total > max) return total;
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (el.shadowRoot) roots.push(el.shadowRoot);
      const tag = el.localName;
      if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') {
        let doc = null;
        try { doc = el.contentDocument || (el.getSVGDocument ? el.getSVGDocument() : null); }
        catch (e) {}
        if (doc) roots.push(doc);
      }
    }
  }
  return total;
}"""

PAGE_SIZE_JS = """() => {
  const d = document.documentElement, b = document.body;
  return {
    width: Math.max(d ? d.scrollWidth : 0, b ? b.scrollWidth : 0),
    height: Math.max(d ? d.scrollHeight : 0, b ? b.scrollHeight : 0),
  };
}"""

LOADED_JS = """() => new Promise(done => {
  // readyState reaches "complete" even when a navigation attempt stops the load event.
  if (document.readyState === 'complete') return done(true);
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'complete') done(true);
  });
})"""

SETTLE_JS = """() => new Promise(done => {
  // Deterministic pixels: finite animations jump to their end, endless ones are
  // cancelled, and the text caret is hidden (an adopted sheet: no node is added).
  for (const a of document.getAnimations ? document.getAnimations() : []) {
    try {
      const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
      if (Number.isFinite(end)) a.finish(); else a.cancel();
    } catch (e) {}
  }
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('*, *::before, *::after { caret-color: transparent !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch (e) {}
  // Loaded images may still be undecoded, and a frame drawn before their decode shows
  // them missing (seen under load): wait for each loaded image's decode as well.
  const decoded = Array.from(document.images, img =>
    img.complete && img.naturalWidth > 0 && img.decode ? img.decode().catch(() => {}) : null);
  const fonts = document.fonts ? document.fonts.ready : Promise.resolve();
  Promise.all([fonts, ...decoded]).then(
    () => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
})"""

DOM_FACTS_JS = """({maxElements, maxTextBlocks}) => {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META',
                        'LINK', 'BASE']);
  const sx = window.scrollX, sy = window.scrollY;
  const round = v => Math.round(v * 100) / 100;
  const parseColor = s => {
    const m = /rgba?\\(([^)]+)\\)/.exec(s || '');
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [p[0] || 0, p[1] || 0, p[2] || 0, p.length > 3 ? p[3] : 1];
  };
  const bgCache = new Map();
  // Colour behind an element: nearest opaque ancestor background (or white) with the
  // translucent layers between it and the element blended over it.
  const backgroundOf = el => {
    if (bgCache.has(el)) return bgCache.get(el);
    const layers = [];
    let base = [255, 255, 255];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      if (n !== el && bgCache.has(n)) { base = bgCache.get(n); break; }
      const c = parseColor(getComputedStyle(n).backgroundColor);
      if (c[3] >= 0.999) { base = c.slice(0, 3); break; }
      if (c[3] > 0) layers.push(c);
    }
    let out = base;
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    }
    out = out.map(v => Math.round(v));
    bgCache.set(el, out);
    return out;
  };
  const elements = [];
  const texts = [];
  const total = document.getElementsByTagName('*').length;
  const range = document.createRange();
  // Iterative, in document order, so a deeply nested page cannot overflow the stack.
  // display:none removes a subtree; opacity:0 hides it; visibility is inherited but a
  // child may set it back to visible, so it is judged per element.
  const stack = document.documentElement ? [[document.documentElement, 0, -1, false]] : [];
  while (stack.length) {
    const [el, depth, parentIndex, transparent] = stack.pop();
    if (SKIP.has(el.tagName)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') continue;
    const clear = transparent || parseFloat(cs.opacity) <= 0;
    const shown = !clear && cs.visibility === 'visible';
    let myIndex = parentIndex;
    if (shown) {
      const r = el.getBoundingClientRect();
      const sized = r.width > 0 && r.height > 0;
      if (sized && elements.length < maxElements) {
        myIndex = elements.length;
        elements.push({tag: el.tagName.toLowerCase(),
                       bbox: [round(r.left + sx), round(r.top + sy), round(r.width), round(r.height)],
                       depth, parent: parentIndex});
      }
      // A zero-size box that clips its overflow shows none of its text.
      const clipped = !sized && cs.overflow !== 'visible' && cs.display !== 'inline';
      if (texts.length < maxTextBlocks && !clipped) {
        let text = '', x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (const child of el.childNodes) {
          if (child.nodeType !== 3) continue;
          const t = child.nodeValue.replace(/\\s+/g, ' ').trim();
          if (!t) continue;
          range.selectNodeContents(child);
          const rr = range.getBoundingClientRect();
          if (rr.width <= 0 || rr.height <= 0) continue;
          text += (text ? ' ' : '') + t;
          x0 = Math.min(x0, rr.left); y0 = Math.min(y0, rr.top);
          x1 = Math.max(x1, rr.right); y1 = Math.max(y1, rr.bottom);
        }
        if (text && parseFloat(cs.fontSize) > 0) {
          const c = parseColor(cs.color);
          texts.push({text, bbox: [round(x0 + sx), round(y0 + sy), round(x1 - x0), round(y1 - y0)],
                      color: c.slice(0, 3).map(v => Math.round(v)), background: backgroundOf(el),
                      font_size: parseFloat(cs.fontSize), font_weight: parseInt(cs.fontWeight) || 400});
        }
      }
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      stack.push([el.children[i], depth + 1, myIndex, clear]);
    }
  }
  return {dom_nodes: total, elements, texts};
}"""


# Everything a capture reads, in one round trip: count the nodes first (over the cap:
# stop before anything needs layout), then settle, then the DOM facts and page size.
CAPTURE_JS = f"""async ({{maxNodes, maxElements, maxTextBlocks, maxCanvasBytes}}) => {{
  await ({LOADED_JS})();
  const nodes = ({COUNT_NODES_JS})(maxNodes);
  if (nodes > maxNodes) return {{nodes}};
  // The pixel memory the page's canvases ask for (4 bytes a pixel), backed or not.
  let canvasBytes = 0;
  for (const c of document.getElementsByTagName('canvas')) canvasBytes += 4 * c.width * c.height;
  if (maxCanvasBytes && canvasBytes > maxCanvasBytes) return {{nodes, canvas_bytes: canvasBytes}};
  await ({SETTLE_JS})();
  const facts = ({DOM_FACTS_JS})({{maxElements, maxTextBlocks}});
  const scrolled = window.scrollX !== 0 || window.scrollY !== 0;
  facts.dom_nodes = nodes;  // every frame and shadow root, not only the document
  return {{nodes, facts, size: ({PAGE_SIZE_JS})(), scrolled}};
}}"""


@dataclass
class DomFacts:
    dom_nodes: int
    text_blocks: list[TextBlock]
    elements: list[ElementBox]


def parse_dom_facts(raw: dict[str, Any]) -> DomFacts:
    def box(values) -> tuple[float, float, float, float]:
        x, y, w, h = (float(v) for v in values)
        return (x, y, w, h)

    def rgb(values) -> tuple[int, int, int]:
        r, g, b = (max(0, min(255, int(v))) for v in values[:3])
        return (r, g, b)

    return DomFacts(
        dom_nodes=int(raw.get("dom_nodes", 0)),
        text_blocks=[
            TextBlock(
                text=str(t["text"]),
                bbox=box(t["bbox"]),
                color=rgb(t["color"]),
                background=rgb(t["background"]),
                font_size=float(t["font_size"]),
                font_weight=int(t["font_weight"]),
            )
            for t in raw.get("texts", [])
        ],
        elements=[
            ElementBox(tag=str(e["tag"]), bbox=box(e["bbox"]), depth=int(e["depth"]),
                       parent=int(e["parent"]))
            for e in raw.get("elements", [])
        ],
    )
