// Line charts drawn as SVG, no library: series of [x, y] points on shared axes.
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
// Colour-blind-safe (Okabe-Ito), dark enough to read on white; app.css repeats them as
// .swatch.cN for the legend (the page's CSP allows no inline styles).
const COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#7a6a00', '#56429b', '#000000'];
const W = 480, H = 240, PAD = { left: 48, right: 12, top: 12, bottom: 36 };

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

function ticks(lo, hi, count = 4) {
  if (lo === hi) return [lo];
  return Array.from({ length: count + 1 }, (_, i) => lo + ((hi - lo) * i) / count);
}

const label = (v) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(2));

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
  if (y0 === y1) { y0 -= 0.5; y1 += 0.5; }
  const px = (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);

  const summary = drawn.map((se) => {
    const last = se.points[se.points.length - 1];
    return `${se.name}: ${se.points.length} points, last ${label(last[1])} at ${xLabel} ${label(last[0])}`;
  }).join('; ');
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}. ${summary}` },
    s('title', {}, title));
  for (const y of ticks(y0, y1)) {
    svg.append(s('line', { x1: PAD.left, x2: W - PAD.right, y1: py(y), y2: py(y), class: 'grid' }),
      s('text', { x: PAD.left - 6, y: py(y) + 4, 'text-anchor': 'end' }, label(y)));
  }
  for (const x of ticks(x0, x1, Math.min(5, x1 - x0))) {
    svg.append(s('text', { x: px(x), y: H - PAD.bottom + 16, 'text-anchor': 'middle' }, label(x)));
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
