// Line charts drawn as SVG, no library: series of [x, y] points on shared axes.
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
// Colour-blind-safe (Okabe-Ito), dark enough to read on white; app.css repeats them as
// .swatch.cN for the legend (the page's CSP allows no inline styles).
const COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#7a6a00', '#56429b', '#000000'];
const W = 480, H = 260, PAD = { left: 56, right: 14, top: 12, bottom: 40 };

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

// Round tick values (1, 2 or 5 times a power of ten) inside [lo, hi]; whole numbers when
// the axis counts something (steps, versions).
function ticks(lo, hi, whole, count = 5) {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= raw);
  if (whole) step = Math.max(1, Math.round(step));
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  const values = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) values.push(v);
  // tiny steps (a learning rate) in exponent form, so a label fits beside the axis
  const text = digits > 3 ? (v) => (Math.abs(v) < step / 2 ? '0' : Number(v.toPrecision(3)).toExponential())
    : (v) => v.toFixed(digits);
  return values.map((v) => [v, text(v)]);
}

const label = (v) => (Number.isInteger(v) ? String(v) : v.toPrecision(3));

// series: [{name, points: [[x, y], ...]}]; returns a <figure> with the chart and its legend.
export function lineChart({ title, xLabel, yLabel, series }) {
  const drawn = series.map((se) => ({ ...se, points: se.points.filter(([, y]) => y !== null && y !== undefined && Number.isFinite(y)) }))
    .filter((se) => se.points.length);
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, title));
  if (!drawn.length) {
    figure.append(h('p', { class: 'muted' }, 'not recorded'));
    return figure;
  }
  const xs = drawn.flatMap((se) => se.points.map((p) => p[0]));
  const ys = drawn.flatMap((se) => se.points.map((p) => p[1]));
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) { const pad = Math.abs(y0) / 2 || 0.5; y0 -= pad; y1 += pad; } // a flat line, centred
  const px = (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);

  const summary = drawn.map((se) => {
    const last = se.points[se.points.length - 1];
    return `${se.name}: ${se.points.length} points, last ${label(last[1])} at ${xLabel} ${label(last[0])}`;
  }).join('; ');
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}. ${summary}` },
    s('title', {}, title));
  for (const [y, text] of ticks(y0, y1, false)) {
    svg.append(s('line', { x1: PAD.left, x2: W - PAD.right, y1: py(y), y2: py(y), class: 'grid' }),
      s('text', { x: PAD.left - 6, y: py(y) + 4, 'text-anchor': 'end' }, text));
  }
  for (const [x, text] of ticks(x0, x1, xs.every(Number.isInteger))) {
    svg.append(s('text', { x: px(x), y: H - PAD.bottom + 16, 'text-anchor': 'middle' }, text));
  }
  svg.append(s('text', { x: (PAD.left + W - PAD.right) / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis' }, xLabel),
    s('text', { x: 12, y: PAD.top + (H - PAD.top - PAD.bottom) / 2, 'text-anchor': 'middle', class: 'axis',
      transform: `rotate(-90 12 ${PAD.top + (H - PAD.top - PAD.bottom) / 2})` }, yLabel));
  drawn.forEach((se, i) => {
    const color = COLORS[i % COLORS.length];
    const d = se.points.map(([x, y], j) => `${j ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
    svg.append(s('path', { d, fill: 'none', stroke: color, 'stroke-width': 2 }));
    if (se.points.length <= 40) {
      for (const [x, y] of se.points) svg.append(s('circle', { cx: px(x), cy: py(y), r: 2.5, fill: color }));
    }
  });
  figure.append(svg);
  if (drawn.length > 1 || drawn[0].name) {
    figure.append(h('ul', { class: 'legend' }, drawn.map((se, i) =>
      h('li', {}, h('span', { class: `swatch c${i % COLORS.length}` }), se.name))));
  }
  return figure;
}
