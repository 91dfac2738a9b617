"""Finding what a person could interact with on a page, and the scripts that drive it.

All of these run in the render package's isolated world: the page's scripts cannot
see or fake them, and the elements picked are kept in that world's own global
(``globalThis.__drl``), so nothing is written into the page's DOM.

Targets are visible (``checkVisibility`` with opacity and visibility, an effective opacity
of at least ``MIN_OPACITY``, a box of at least ``MIN_CONTROL_PX`` on each side inside the
document, not clipped to a sliver), enabled (not ``disabled``, not in a disabled fieldset, not
``aria-disabled``, not ``inert``) and not nested in another clickable. Kinds:

* ``form``: a form with at least one fillable field: fill every field, then submit
  (click its submit button, else Enter in its last typed field, else
  ``requestSubmit()``);
* ``field``: a text-like input, textarea or select outside such a form: fill it,
  then press Enter;
* ``button``: ``button``, ``input[type=button|submit]``, ``summary``, ``[role=button]``,
  ``[role=tab|switch]``, elements with an ``onclick`` attribute: click;
* ``toggle``: a checkbox or radio outside such a form: click;
* ``link``: ``a[href]``, ``[role=link]``: click.

``NEXT_JS`` takes them round-robin over the kinds in that order (document order
within a kind), so a budget of 6 on a page with 30 nav links still tries its form
and its buttons. The page is asked afresh before every interaction (a click may
re-render it), and a target tried already (the same element, or the same kind and
label) is skipped: three "Delete" buttons are one check, not three.
"""

from __future__ import annotations

from designrl.tasks.webpage.content import MIN_CONTROL_PX, MIN_OPACITY

KIND_ORDER = ("form", "field", "button", "toggle", "link")

# Installs the helpers the other scripts use, and a MutationObserver that counts DOM
# changes (child lists, attributes, text) anywhere in the document. A target must be at
# least MIN_TARGET_PX on each side, drawn at an effective opacity of MIN_TARGET_OPACITY,
# inside the document and not clipped away: the thresholds ``content.py`` holds a usable
# control to, so a 1 px or invisible control is neither tried nor counted as a part.
SETUP_JS = """() => {
  const S = globalThis.__drl || (globalThis.__drl = {refs: [], mutations: 0});
  // Effective opacity (the product up to the root) and being cut to a sliver by an
  // ancestor's clip, clip-path or overflow: a near-transparent or clipped control is not one
  // a person can see.
  S.opacity = el => { let v = 1;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement)
      v *= parseFloat(getComputedStyle(n).opacity);
    return v; };
  S.cut = el => {
    for (let n = el; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (n === document.body) break;
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible' && cs.clip === 'auto' &&
          cs.clipPath === 'none') continue;
      const r = n.getBoundingClientRect();
      if (r.width < 4 || r.height < 4) return true;
      if (/inset\\(\\s*(4[5-9]|[5-9]\\d|100)%|circle\\(\\s*0/.test(cs.clipPath)) return true;
    }
    return false;
  };
  S.visible = el => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true,
                                                   visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    if (r.width < MIN_PX || r.height < MIN_PX || S.opacity(el) < MIN_OPACITY) return false;
    const de = document.documentElement;
    const x = r.left + window.scrollX, y = r.top + window.scrollY;
    if (x + r.width <= 1 || y + r.height <= 1 || x >= Math.max(de.scrollWidth, de.clientWidth) - 1
        || y >= Math.max(de.scrollHeight, 1) - 1) return false;
    return !S.cut(el);
  };
  S.enabled = el => !el.disabled && !el.closest('fieldset[disabled], [inert]') &&
                    el.getAttribute('aria-disabled') !== 'true';
  S.FILLABLE = el => {
    const tag = el.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
    if (tag !== 'INPUT') return false;
    return !['hidden', 'submit', 'button', 'reset', 'image', 'file'].includes(el.type);
  };
  S.fieldsOf = form => Array.from(form.elements).filter(
    el => S.FILLABLE(el) && S.visible(el) && S.enabled(el) && !el.readOnly);
  S.label = el => {
    const named = el.getAttribute('aria-label') || (el.labels && el.labels[0] &&
                  el.labels[0].innerText) || el.getAttribute('name') ||
                  el.getAttribute('placeholder');
    const text = (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)
                  ? named || el.value : el.innerText || named || el.getAttribute('href') || '')
      .replace(/\\s+/g, ' ').trim().slice(0, 40);
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (text ? ' "' + text + '"' : '');
  };
  S.ref = el => { S.refs.push(el); return S.refs.length - 1; };
  if (!S.observer) {
    S.observer = new MutationObserver(records => { S.mutations += records.length; });
    S.observer.observe(document, {subtree: true, childList: true, attributes: true,
                                  characterData: true});
  }
  return true;
}""".replace("MIN_PX", str(MIN_CONTROL_PX)).replace("MIN_OPACITY", str(MIN_OPACITY))

# The next target to try on the page as it is now: the first untried one (not the same
# element, nor the same kind and label) of the first kind, from ``start`` round the order,
# that has one.
NEXT_JS = """({tried, start, order}) => {
  const S = globalThis.__drl;
  const kinds = Object.fromEntries(order.map(k => [k, []]));
  const forms = new Set();
  for (const form of document.forms) {
    if (S.visible(form) && S.fieldsOf(form).length) { forms.add(form); kinds.form.push(form); }
  }
  const CLICKABLE = 'a[href], button, [role=button], [role=link], summary';
  const all = document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [role=button], [role=link], ' +
    '[role=tab], [role=switch], [role=checkbox], [onclick]');
  for (const el of all) {
    if (!S.visible(el) || !S.enabled(el)) continue;
    if (el.parentElement && el.parentElement.closest(CLICKABLE)) continue;
    const tag = el.tagName, type = (el.type || '').toLowerCase();
    const inForm = el.form && forms.has(el.form);
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      if (inForm && type !== 'button') continue;  // filled and submitted with its form
      if (el.readOnly || type === 'hidden' || type === 'file') continue;
      if (type === 'checkbox' || type === 'radio') kinds.toggle.push(el);
      else if (['submit', 'button', 'reset', 'image'].includes(type)) {
        if (type !== 'reset') kinds.button.push(el);
      } else kinds.field.push(el);
    } else if (tag === 'BUTTON') {
      if (inForm && (type === 'submit' || type === 'reset')) continue;
      kinds.button.push(el);
    } else if (tag === 'A' || el.getAttribute('role') === 'link') kinds.link.push(el);
    else kinds.button.push(el);
  }
  const counts = Object.fromEntries(order.map(k => [k, kinds[k].length]));
  const done = new Set(tried);
  S.tried = S.tried || new WeakSet();
  for (let step = 0; step < order.length; step++) {
    const index = (start + step) % order.length, kind = order[index];
    for (const el of kinds[kind]) {
      const label = S.label(el), sig = kind + ' ' + label;
      if (done.has(sig) || S.tried.has(el)) continue;
      S.tried.add(el);
      return {next: {ref: S.ref(el), kind, label, sig, index}, counts};
    }
  }
  return {next: null, counts};
}"""

# Up to two pieces of plain text to click as a control experiment (``interact.py``'s probe):
# text elements with their own words, outside anything interactive (controls, labels,
# summaries, elements with a role, tabindex or onclick), the first heading and the first
# other one.
PROBE_JS = """() => {
  const S = globalThis.__drl;
  const ACTIVE = 'a, button, input, select, textarea, label, summary, details, [role], ' +
                 '[tabindex], [onclick], [contenteditable], nav, form, dialog, li';
  const picked = [];
  for (const el of document.body ? document.body.querySelectorAll('h1, h2, h3, p') : []) {
    if (el.closest(ACTIVE) || el.querySelector(ACTIVE) || !S.visible(el)) continue;
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.nodeValue.trim());
    if (!own) continue;
    const heading = /^H/.test(el.tagName);
    if (picked.some(p => p.heading === heading || p.el.contains(el) || el.contains(p.el))) continue;
    picked.push({el, heading});
    if (picked.length === 2) break;
  }
  return picked.map(p => S.ref(p.el));
}"""

# A point of the first screen where a click lands on nothing interactive: the page's
# background beside its content (viewport coordinates, the page scrolled to the top).
BACKGROUND_JS = """() => {
  const ACTIVE = 'a, button, input, select, textarea, label, summary, details, [role], ' +
                 '[tabindex], [onclick], [contenteditable], dialog';
  window.scrollTo({left: 0, top: 0, behavior: 'instant'});
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  for (const [fx, fy] of [[0.99, 0.5], [0.01, 0.5], [0.99, 0.25], [0.01, 0.75], [0.5, 0.98]]) {
    const x = vw * fx, y = vh * fy;
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit.closest(ACTIVE)) continue;
    const own = Array.from(hit.childNodes).some(n => n.nodeType === 3 && n.nodeValue.trim());
    if (!own) return {x, y, box: [x - 4, y - 4, 8, 8]};
  }
  return null;
}"""

# Brings a target into view and finds a point on it that a click would reach (the
# element itself or a descendant is on top there); ``covered`` when none is.
POINT_JS = """({ref, scroll}) => {
  const S = globalThis.__drl;
  const el = S.refs[ref];
  if (!S.visible(el)) return {gone: true};
  if (scroll) el.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const out = {box: [r.left, r.top, r.width, r.height], covered: true,
               x: r.left + r.width / 2, y: r.top + r.height / 2, inside: false};
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75],
                          [0.2, 0.2], [0.8, 0.8], [0.2, 0.8], [0.8, 0.2]]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) {
      Object.assign(out, {x, y, covered: false, inside: true});
      break;
    }
  }
  return out;
}"""

STATE_JS = """() => {
  const S = globalThis.__drl;
  S.mutations += S.observer.takeRecords().length;
  const state = {mutations: S.mutations, nodes: document.getElementsByTagName('*').length,
                 sx: window.scrollX, sy: window.scrollY, hash: location.hash};
  S.mutations = 0;
  return state;
}"""

RESTORE_SCROLL_JS = """({x, y}) => { window.scrollTo({left: x, top: y, behavior: 'instant'}); return true; }"""

CLICK_JS = """({ref}) => { const el = globalThis.__drl.refs[ref]; if (!el) return false;
  el.click(); return true; }"""

FOCUS_JS = """({ref}) => {
  const el = globalThis.__drl.refs[ref];
  if (!el) return false;
  el.focus({preventScroll: true});
  try { el.select(); } catch (e) {}
  return document.activeElement === el;
}"""

# A link's href; ``exists`` when it is a #fragment naming an element of the page, ``dead``
# for the placeholders that go nowhere (``#``, empty, ``javascript:``).
LINK_JS = """({ref}) => {
  const el = globalThis.__drl.refs[ref];
  const href = (el && el.getAttribute('href') || '').trim();
  const dead = href === '' || href === '#' || href.toLowerCase().startsWith('javascript:');
  let exists = false;
  if (href.startsWith('#') && href.length > 1) {
    try {
      const id = decodeURIComponent(href.slice(1));
      exists = !!(document.getElementById(id) || document.getElementsByName(id)[0]);
    } catch (e) {}
  }
  return {href, dead, exists};
}"""

# Fills one field (``ref``) or every field of a form: values a person would type,
# chosen from the input type and its name, id, placeholder and autocomplete hints.
# Fields that take typing come back to be typed with real key presses; the rest
# (selects, checkboxes, radios, dates, colours, ranges) are set here, with the
# input and change events a person's edit would fire.
FILL_JS = """({ref}) => {
  const S = globalThis.__drl;
  const target = S.refs[ref];
  const isForm = target.tagName === 'FORM';
  const fields = isForm ? S.fieldsOf(target) : [target];
  const typed = [], boxes = [];
  const fire = el => { for (const name of ['input', 'change'])
    el.dispatchEvent(new Event(name, {bubbles: true})); };
  const valueFor = el => {
    const t = (el.type || 'text').toLowerCase();
    const hint = [el.name, el.id, el.placeholder, el.getAttribute('autocomplete'),
                  el.getAttribute('aria-label')].join(' ').toLowerCase();
    if (t === 'number' || t === 'range') {
      const lo = parseFloat(el.min), hi = parseFloat(el.max);
      if (isFinite(lo) && isFinite(hi)) return String(Math.round((lo + hi) / 2));
      return isFinite(lo) ? String(lo + 1) : '42';
    }
    const fixed = {email: 'ada@example.com', tel: '5551234567', url: 'https://example.com',
                   password: 'Secret-pass-123', date: '2025-05-01', time: '10:30',
                   'datetime-local': '2025-05-01T10:30', month: '2025-05', week: '2025-W18',
                   color: '#3366cc'};
    if (fixed[t]) return fixed[t];
    if (hint.includes('mail')) return 'ada@example.com';
    if (hint.includes('phone') || hint.includes('tel')) return '5551234567';
    if (hint.includes('name')) return 'Ada Lovelace';
    if (hint.includes('search') || t === 'search') return 'a';
    if (el.tagName === 'TEXTAREA') return 'Hello, this is a short test message.';
    return 'Hello world';
  };
  const TYPED = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const radioGroups = new Set();
  for (const el of fields) {
    const r = el.getBoundingClientRect();
    boxes.push([r.left, r.top, r.width, r.height]);
    const t = (el.type || '').toLowerCase();
    if (el.tagName === 'SELECT') {
      const options = Array.from(el.options);
      const choice = options.findIndex((o, i) => i > 0 && !o.disabled && o.value !== '');
      if (choice > 0) { el.selectedIndex = choice; fire(el); }
    } else if (t === 'checkbox') {
      if (!el.checked) el.click();
    } else if (t === 'radio') {
      if (radioGroups.has(el.name)) continue;
      radioGroups.add(el.name);
      const group = el.name && el.form ? Array.from(el.form.elements).filter(
        o => o.type === 'radio' && o.name === el.name) : [el];
      if (!group.some(o => o.checked)) el.click();
    } else if (el.tagName === 'TEXTAREA' || TYPED.has(t)) {
      let value = valueFor(el);
      if (el.maxLength > 0) value = value.slice(0, el.maxLength);
      typed.push({ref: S.ref(el), value});
    } else {
      try { el.value = valueFor(el); } catch (e) {}
      fire(el);
    }
  }
  let submit = null;
  if (isForm) {
    const button = Array.from(target.querySelectorAll(
      'button:not([type]), button[type=submit], input[type=submit], input[type=image]'))
      .concat(target.id ? Array.from(document.querySelectorAll(
        `[form="${CSS.escape(target.id)}"][type=submit]`)) : [])
      .find(b => S.visible(b) && S.enabled(b));
    if (button) submit = S.ref(button);
  }
  return {typed, boxes, submit};
}"""

SUBMIT_JS = """({ref}) => {
  const form = globalThis.__drl.refs[ref];
  if (form && form.requestSubmit) { form.requestSubmit(); return true; }
  return false;
}"""
