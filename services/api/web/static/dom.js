// Small DOM and formatting helpers shared by every page.

// h('td', {class: 'num'}, '0.5') builds an element; children may be strings, nodes or null.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name in node && typeof value !== 'string') node[name] = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function fmt(value, digits = 3) {
  return value === null || value === undefined ? '–' : Number(value).toFixed(digits);
}

export function fmtSigned(value, digits = 3) {
  if (value === null || value === undefined) return '–';
  return (value > 0 ? '+' : '') + Number(value).toFixed(digits);
}

export function fmtPercent(value) {
  return value === null || value === undefined ? '–' : `${(100 * value).toFixed(1)}%`;
}

export function fmtTime(iso) {
  return iso ? new Date(iso).toLocaleString() : '–';
}

export const shortId = (id) => id.slice(0, 8);

// A table in a horizontally scrolling box (so a wide table never widens the page).
// columns: [{label, value: row => string|node, numeric}]
export function table(columns, rows, { caption, rowAttrs } = {}) {
  const head = h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.label)));
  const body = rows.map((row) => tableRow(columns, row, rowAttrs));
  return h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': caption || 'table' },
    h('table', {}, caption ? h('caption', {}, caption) : null, h('thead', {}, head), h('tbody', {}, body)));
}

export function tableRow(columns, row, rowAttrs) {
  return h('tr', rowAttrs ? rowAttrs(row) : {},
    columns.map((c) => h('td', { class: c.numeric ? 'num' : null }, c.value(row))));
}

// Fill a <select> with options [{value, label, disabled}].
export function fillSelect(select, options, selected) {
  select.replaceChildren(...options.map((o) => h('option', {
    value: o.value, disabled: o.disabled, selected: o.value === selected }, o.label ?? o.value)));
}

export const params = () => new URLSearchParams(location.search);
