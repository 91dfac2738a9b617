"""What a page shows a person as it loads: its readable text, its usable controls and its
landmarks, for checking the page against the request (``alignment.py``).

``PAGE_CONTENT_JS`` runs in the render package's isolated world (the page's scripts cannot
fake it), after the page has settled and before any interaction. Only what a person can
see and use counts:

* a text *unit* (the text of one block-level element, inline descendants folded in) is
  ``readable`` when it is rendered (not ``display:none``, ``visibility:hidden``, nor under
  an effective opacity below ``MIN_OPACITY``), drawn inside the document (not off-screen,
  not cut to a sliver by ``clip``/``clip-path``/overflow), in letters at least
  ``MIN_FONT_PX`` tall, and in a colour that stands out from what is behind it (contrast
  ratio at least ``MIN_TEXT_CONTRAST``, so text coloured like its background is not read,
  while merely poor contrast is read and left to the static ``contrast`` and ``axe`` checks);
* a *control* (button, link, field, select, tab, switch ...) is ``usable`` when it is
  rendered, at least ``MIN_CONTROL_PX`` on each side, inside the document, enabled, and on
  top somewhere on its box (a click there would reach it); it carries the readable text it
  shows (``text``: text hidden inside a button is not read) and its accessible name
  (``aria-label``, ``<label>``, placeholder, each cut to a label's length, then its text);
* landmarks and media: ``nav``, ``header``, ``footer``, ``form``, ``table``, images, charts
  (``svg``/``canvas``), dialogs, progress bars and the like, each counted only when
  visible at a reasonable size (``present`` also counts those in the DOM but hidden, for
  parts the request says appear later: "a button that reveals a sign-up form").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MIN_FONT_PX = 9.0
MIN_OPACITY = 0.2
MIN_TEXT_CONTRAST = 1.25
MIN_CONTROL_PX = 10.0
MIN_MEDIA_PX = 40.0
MAX_CONTENT_UNITS = 1500
MAX_CONTROLS = 400
MAX_TEXT_CHARS = 400

PAGE_CONTENT_JS = """({minFont, minOpacity, minContrast, minControl, minMedia, maxUnits,
                       maxControls, maxChars}) => {
  const out = {units: [], controls: [], parts: {}, present: {}};
  if (!document.body) return out;
  const de = document.documentElement;
  const docW = Math.max(de.scrollWidth, de.clientWidth), docH = Math.max(de.scrollHeight, 1);
  const sx = window.scrollX, sy = window.scrollY;
  const parseColor = s => {
    const m = /rgba?\\(([^)]+)\\)/.exec(s || '');
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [p[0] || 0, p[1] || 0, p[2] || 0, p.length > 3 ? p[3] : 1];
  };
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const contrast = (a, b) => {
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  const bgCache = new Map();
  const backgroundOf = el => {  // nearest opaque background, translucent layers blended over it
    if (bgCache.has(el)) return bgCache.get(el);
    const layers = [];
    let base = [255, 255, 255], image = false;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.backgroundImage && cs.backgroundImage !== 'none') { image = true; }
      const c = parseColor(cs.backgroundColor);
      if (c[3] >= 0.999) { base = c.slice(0, 3); break; }
      if (c[3] > 0) layers.push(c);
    }
    let bg = base;
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
    }
    const result = {bg, image};
    bgCache.set(el, result);
    return result;
  };
  const opCache = new Map();
  const opacityOf = el => {  // product of the opacities from el up to the root
    if (!el || el.nodeType !== 1) return 1;
    if (opCache.has(el)) return opCache.get(el);
    const v = (parseFloat(getComputedStyle(el).opacity) || 0) * opacityOf(el.parentElement);
    opCache.set(el, v);
    return v;
  };
  const cutCache = new Map();
  const cut = el => {  // clipped away by clip / clip-path / overflow on a sliver of a box
    if (!el || el.nodeType !== 1 || el === de) return false;
    if (cutCache.has(el)) return cutCache.get(el);
    const cs = getComputedStyle(el);
    let v = false;
    const hides = cs.overflowX !== 'visible' || cs.overflowY !== 'visible' ||
                  cs.clip !== 'auto' || cs.clipPath !== 'none';
    if (hides && el !== document.body) {
      const r = el.getBoundingClientRect();
      if (r.width < 4 || r.height < 4) v = true;
      if (cs.clipPath !== 'none' && /inset\\(\\s*(4[5-9]|[5-9]\\d|100)%|circle\\(\\s*0/.test(cs.clipPath)) v = true;
      if (cs.clip !== 'auto' && /rect\\(\\s*0(px)?[ ,]+0(px)?[ ,]+0(px)?[ ,]+0/.test(cs.clip)) v = true;
    }
    v = v || cut(el.parentElement);
    cutCache.set(el, v);
    return v;
  };
  const shown = el => (el.checkVisibility ? el.checkVisibility({opacityProperty: true,
                        visibilityProperty: true}) : getComputedStyle(el).visibility === 'visible')
                      && opacityOf(el) >= minOpacity && !cut(el);
  const onPage = r => r.right + sx > 1 && r.bottom + sy > 1 && r.left + sx < docW - 1 &&
                      r.top + sy < docH - 1;
  const clean = s => (s || '').replace(/\\s+/g, ' ').trim();
  // Text units: block-level elements, their readable text folded together.
  const isInline = d => d === 'inline' || d === 'contents' || d.startsWith('ruby');
  const blockOf = el => {
    let n = el;
    while (n && n !== document.body && isInline(getComputedStyle(n).display)) n = n.parentElement;
    return n || document.body;
  };
  const units = new Map();
  const readable = new Set();  // the text nodes read: a control's visible text is made of them
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const SKIP = 'script, style, noscript, template, svg, option, datalist, title';
  let node;
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) continue;
    const text = clean(node.nodeValue);
    if (!text) continue;
    const block = blockOf(parent);
    let unit = units.get(block);
    if (!unit) {
      if (units.size >= maxUnits) continue;
      unit = {tag: block.tagName.toLowerCase(), parts: [], hidden: [], size: 0, box: null,
              heading: /^H[1-6]$/.test(block.tagName) || block.getAttribute('role') === 'heading'};
      units.set(block, unit);
    }
    const cs = getComputedStyle(parent);
    range.selectNodeContents(node);
    const rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5 && r.height > 0.5);
    const fontPx = parseFloat(cs.fontSize) || 0;
    const inkPx = rects.length ? Math.max(...rects.map(r => r.height)) : 0;
    const color = parseColor(cs.color);
    const back = backgroundOf(parent);
    let why = '';
    if (!shown(parent)) why = 'hidden';
    else if (!rects.length) why = 'no_box';
    else if (!rects.some(onPage)) why = 'off_page';
    else if (fontPx < minFont || inkPx < minFont) why = 'tiny';
    else if (color[3] * opacityOf(parent) < minOpacity) why = 'transparent';
    else if (!back.image && contrast(color.slice(0, 3), back.bg) < minContrast) why = 'camouflaged';
    if (why) { unit.hidden.push(why); continue; }
    unit.parts.push(text);
    readable.add(node);
    unit.size = Math.max(unit.size, fontPx);
    for (const r of rects) {
      const b = [r.left + sx, r.top + sy, r.right + sx, r.bottom + sy];
      unit.box = unit.box ? [Math.min(unit.box[0], b[0]), Math.min(unit.box[1], b[1]),
                             Math.max(unit.box[2], b[2]), Math.max(unit.box[3], b[3])] : b;
    }
  }
  for (const u of units.values()) {
    const text = u.parts.join(' ').slice(0, maxChars);
    if (!text && !u.hidden.length) continue;
    out.units.push({tag: u.tag, text, heading: u.heading, font_size: u.size,
                    bbox: u.box ? [u.box[0], u.box[1], u.box[2] - u.box[0], u.box[3] - u.box[1]]
                                : [0, 0, 0, 0],
                    hidden: Array.from(new Set(u.hidden))});
  }
  // Controls: what a person could click or type into, and whether they really could. A
  // control's text is only what was read above (hidden text inside a button is not its
  // text); its name adds the accessible names (aria-label, labels, placeholder), each cut
  // to a short label's length so a long hidden name cannot carry the request.
  const textOf = el => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const found = [];
    let n;
    while ((n = walk.nextNode())) if (readable.has(n)) found.push(n.nodeValue);
    return clean(found.join(' ')).slice(0, 200);
  };
  const short = s => clean(s).slice(0, 60);
  const nameOf = (el, text) => {
    const tag = el.tagName;
    const labels = el.labels ? Array.from(el.labels).map(l => l.innerText).join(' ') : '';
    const byId = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
      .map(id => { const n = document.getElementById(id); return n ? n.innerText : ''; }).join(' ');
    const parts = [el.getAttribute('aria-label') || '', byId, labels,
                   el.getAttribute('title') || ''].map(short);
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      parts.push(short(el.getAttribute('placeholder') || ''), short(el.getAttribute('name') || ''),
                 short(el.id || ''), el.type || '');
    } else {
      const img = el.querySelector('img[alt]');
      if (img) parts.push(short(img.alt));
    }
    return clean(parts.join(' ') + ' ' + text).slice(0, 200);
  };
  const kindOf = el => {
    const tag = el.tagName, role = (el.getAttribute('role') || '').toLowerCase();
    const type = (el.type || '').toLowerCase();
    if (tag === 'SELECT' || role === 'combobox' || role === 'listbox') return 'select';
    if (tag === 'TEXTAREA') return 'field';
    if (tag === 'INPUT') {
      if (type === 'checkbox' || type === 'radio') return 'toggle';
      if (['submit', 'button', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'range') return 'toggle';
      return 'field';
    }
    if (role === 'checkbox' || role === 'switch' || role === 'radio') return 'toggle';
    if (role === 'tab') return 'tab';
    if (tag === 'A' || role === 'link') return 'link';
    return 'button';
  };
  const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, ' +
                   '[role=button], [role=link], [role=tab], [role=switch], [role=checkbox], ' +
                   '[role=radio], [role=combobox], [onclick]';
  const vw = de.clientWidth, vh = window.innerHeight;
  const onTop = (el, r) => {  // some point of the box reaches el when clicked
    const pts = [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75]];
    for (const [fx, fy] of pts) {
      let x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (y < 0 || y >= vh) {
        window.scrollTo({left: 0, top: Math.max(0, y + window.scrollY - vh / 2), behavior: 'instant'});
        const rr = el.getBoundingClientRect();
        x = rr.left + rr.width * fx; y = rr.top + rr.height * fy;
      }
      if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit) || (el.labels && Array.from(el.labels)
                  .some(l => l.contains(hit))))) return true;
    }
    return false;
  };
  let count = 0;
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (count++ >= maxControls) break;
    if (el.parentElement && el.parentElement.closest('a[href], button, summary')) continue;
    const r = el.getBoundingClientRect();
    const kind = kindOf(el);
    let why = '';
    if (!shown(el)) why = 'hidden';
    else if (!onPage(r)) why = 'off_page';
    else if (r.width < minControl || r.height < minControl) why = 'tiny';
    else if (el.disabled || el.closest('[inert], fieldset[disabled]')) why = 'disabled';
    else if (!onTop(el, r)) why = 'covered';
    const field = ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
    const text = field ? (['submit', 'button', 'reset'].includes(el.type) && !why
                          ? short(el.value || '') : '') : textOf(el);
    out.controls.push({kind, tag: el.tagName.toLowerCase(), type: (el.type || '').toLowerCase(),
                       // a hidden control (one that appears on use) is named by its markup
                       name: nameOf(el, why ? short(el.textContent || el.value || '') : text),
                       text, usable: !why, why,
                       in_form: !!(el.form || el.closest('form')),
                       bbox: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]});
  }
  window.scrollTo({left: sx, top: sy, behavior: 'instant'});
  // Landmarks and media, visible at a reasonable size (and merely present).
  const PARTS = {
    nav: 'nav, [role=navigation]', header: 'header, [role=banner]',
    footer: 'footer, [role=contentinfo]', form: 'form, [role=form], [role=search]',
    table: 'table, [role=table], [role=grid]', list: 'ul, ol, [role=list]',
    image: 'img, picture, [role=img], canvas, video',
    chart: 'svg, canvas, [role=img], [class*=chart i], [id*=chart i]',
    dialog: 'dialog, [role=dialog], [role=alertdialog], [aria-modal=true]',
    progress: 'progress, meter, [role=progressbar], [role=meter]',
    accordion: 'details, [aria-expanded]', tablist: '[role=tablist], [role=tab]',
  };
  for (const [name, selector] of Object.entries(PARTS)) {
    let shownCount = 0, present = 0;
    for (const el of document.querySelectorAll(selector)) {
      present++;
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (!onPage(r)) continue;
      const big = ['image', 'chart'].includes(name) ? minMedia : 8;
      if (r.width < big || r.height < big) continue;
      if (name === 'table' && el.querySelectorAll('tr, [role=row]').length < 2) continue;
      if (name === 'list' && el.querySelectorAll(':scope > li, :scope > [role=listitem]').length < 2) continue;
      shownCount++;
    }
    out.parts[name] = shownCount;
    out.present[name] = present;
  }
  return out;
}"""


@dataclass(frozen=True)
class ContentUnit:
    """The readable text of one block-level element (``hidden`` lists why other text in it
    was not read: ``hidden``, ``off_page``, ``tiny``, ``transparent``, ``camouflaged``)."""

    tag: str
    text: str
    font_size: float = 16.0
    heading: bool = False
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class Control:
    """Something a person could click or type into; ``usable`` says whether they really could
    (``why`` not: ``hidden``, ``off_page``, ``tiny``, ``disabled``, ``covered``)."""

    kind: str  # button, link, field, select, toggle, tab
    name: str  # accessible name: aria-label, label, placeholder, name, type, then its text
    text: str = ""  # the readable text it shows (its value, for an input button)
    usable: bool = True
    why: str = ""
    tag: str = ""
    type: str = ""
    in_form: bool = False
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass
class PageContent:
    units: list[ContentUnit] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    parts: dict[str, int] = field(default_factory=dict)
    """Landmarks and media shown at a reasonable size, by kind (``nav``, ``form`` ...)."""
    present: dict[str, int] = field(default_factory=dict)
    """The same, counting hidden ones too (for parts that appear on use)."""

    @property
    def readable(self) -> list[ContentUnit]:
        return [u for u in self.units if u.text]

    @property
    def usable(self) -> list[Control]:
        return [c for c in self.controls if c.usable]

    def hidden_reasons(self) -> dict[str, int]:
        """How many units and controls were not read or not usable, by reason."""
        counts: dict[str, int] = {}
        for unit in self.units:
            for why in unit.hidden:
                counts[why] = counts.get(why, 0) + 1
        for control in self.controls:
            if control.why:
                counts[f"control_{control.why}"] = counts.get(f"control_{control.why}", 0) + 1
        return counts


def content_args() -> dict[str, Any]:
    """The thresholds ``PAGE_CONTENT_JS`` takes."""
    return {"minFont": MIN_FONT_PX, "minOpacity": MIN_OPACITY, "minContrast": MIN_TEXT_CONTRAST,
            "minControl": MIN_CONTROL_PX, "minMedia": MIN_MEDIA_PX, "maxUnits": MAX_CONTENT_UNITS,
            "maxControls": MAX_CONTROLS, "maxChars": MAX_TEXT_CHARS}


def _box(values: Any) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in list(values)[:4])
    return (x, y, w, h)


def parse_page_content(raw: dict[str, Any]) -> PageContent:
    """``PageContent`` from the JSON ``PAGE_CONTENT_JS`` returns."""
    units = [ContentUnit(tag=str(u.get("tag", "")), text=str(u.get("text", "")),
                         font_size=float(u.get("font_size", 0.0)),
                         heading=bool(u.get("heading", False)), bbox=_box(u.get("bbox", (0,) * 4)),
                         hidden=tuple(str(h) for h in u.get("hidden", [])))
             for u in raw.get("units", [])]
    controls = [Control(kind=str(c.get("kind", "button")), name=str(c.get("name", "")),
                        text=str(c.get("text", "")),
                        usable=bool(c.get("usable", False)), why=str(c.get("why", "")),
                        tag=str(c.get("tag", "")), type=str(c.get("type", "")),
                        in_form=bool(c.get("in_form", False)), bbox=_box(c.get("bbox", (0,) * 4)))
                for c in raw.get("controls", [])]
    return PageContent(units, controls,
                       {str(k): int(v) for k, v in (raw.get("parts") or {}).items()},
                       {str(k): int(v) for k, v in (raw.get("present") or {}).items()})
