// The Benchmark page's pictures beyond the single-turn galleries: a layout gallery (each
// item's start layout, then every policy's final layout) and a side-by-side compare of two
// policies on the items both ran, for any family.
import { loadImage } from './api.js';
import { fmt, fmtSigned, h } from './dom.js';
import { itemLabel, itemName } from './family_view.js';

export const GALLERY_ITEMS = 24; // items shown; the episode list below has every one
const uniq = (xs) => [...new Set(xs)];
const itemKey = (e) => `${e.task_id}\u0000${e.item_key}`;

// An <img> per (episode, image), fetched once and kept across refreshes.
function thumb(cache, episode, link, alt) {
  const key = `${episode.id}/${link}`;
  if (!cache.has(key)) {
    const img = h('img', { alt, width: 160, height: 120 });
    loadImage(img, episode.links[link]).catch(() => { img.alt = `${alt} (could not be loaded)`; });
    cache.set(key, img);
  }
  return cache.get(key);
}

const episodeLink = (episode, ...children) => h('a', { href: `/ui/episode?id=${episode.id}`, class: 'thumb-link' }, ...children);

function galleryTable(label, caption, head, rows, count) {
  const note = count > GALLERY_ITEMS
    ? h('p', { class: 'hint' }, `The first ${GALLERY_ITEMS} of ${count} items; the episode list below has every one.`) : null;
  return [h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': label },
    h('table', { class: 'gallery' }, h('caption', {}, caption), h('thead', {}, head), h('tbody', {}, rows))), note]
    .filter(Boolean); // replaceChildren would write a null as text
}

function itemHeader(first) {
  return h('th', { scope: 'row' }, first.task_id, h('br'), h('span', { class: 'muted' }, itemLabel(first)));
}

// Layout: items down; the start layout, then each policy's final layout and score.
export function layoutGallery(episodes, cache) {
  const policies = uniq(episodes.map((e) => e.policy));
  const items = uniq(episodes.map(itemKey));
  const byCell = new Map(episodes.map((e) => [`${itemKey(e)}\u0000${e.policy}`, e]));
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, 'Before'),
    policies.map((p) => h('th', { scope: 'col' }, `After: ${p}`)));
  const rows = items.slice(0, GALLERY_ITEMS).map((key) => {
    const ofItem = episodes.filter((e) => itemKey(e) === key);
    const start = ofItem.find((e) => e.links.before);
    return h('tr', { 'data-item': ofItem[0].item_key }, itemHeader(ofItem[0]),
      h('td', { class: 'before' }, start ? [episodeLink(start, thumb(cache, start, 'before',
        `Layout of ${itemName(start)} before any step`)), h('span', { class: 'thumb-score' }, `score ${fmt(start.start_score)}`)] : '–'),
      policies.map((p) => {
        const e = byCell.get(`${key}\u0000${p}`);
        if (!e) return h('td', {}, '–');
        if (!e.links.after) {
          return h('td', { 'data-policy': p }, episodeLink(e, h('span', { class: `badge ${e.status}` }, e.outcome ?? e.status),
            h('span', { class: 'visually-hidden' }, ` ${p} on ${itemName(e)}`)));
        }
        return h('td', { 'data-policy': p, 'data-episode': e.id },
          episodeLink(e, thumb(cache, e, 'after', `Layout of ${itemName(e)} after ${p}'s ${e.steps_count} steps (score ${fmt(e.final_score)})`)),
          h('span', { class: 'thumb-score' }, `score ${fmt(e.final_score)} (${fmtSigned(e.final_score - e.start_score)})`));
      }));
  });
  return galleryTable('layout renders', 'layout: each item before, and after each policy; each opens its episode',
    head, rows, items.length);
}

// What a compare shows of one episode: a layout's final layout, another family's render.
function picture(episode, cache, policy) {
  const link = episode.links.after ? 'after' : episode.images?.includes('candidate') ? 'candidate' : null;
  if (episode.status !== 'completed' || !link) {
    return h('span', { class: 'no-render' }, `No render: ${episode.outcome ?? episode.status}`);
  }
  return episodeLink(episode, thumb(cache, episode, link, `Result of ${policy} on ${itemName(episode)}`));
}

// The score two policies are compared on: a layout's final score, another family's reward.
const scoreOf = (e, multiTurn) => (e.status !== 'completed' ? null : multiTurn(e) ? e.final_score : e.total_reward);

// Two policies on the items both ran, side by side, with who scored higher.
export function compareView(episodes, a, b, cache, multiTurn) {
  const byCell = new Map(episodes.map((e) => [`${itemKey(e)}\u0000${e.policy}`, e]));
  const items = uniq(episodes.map(itemKey)).filter((k) => byCell.has(`${k}\u0000${a}`) && byCell.has(`${k}\u0000${b}`));
  if (!items.length) return [h('p', { class: 'muted' }, `${a} and ${b} ran no item in common.`)];
  const pairs = items.map((k) => [byCell.get(`${k}\u0000${a}`), byCell.get(`${k}\u0000${b}`)]);
  const diffs = pairs.map(([x, y]) => [scoreOf(x, multiTurn), scoreOf(y, multiTurn)])
    .filter(([x, y]) => x !== null && y !== null).map(([x, y]) => y - x);
  const wins = diffs.filter((d) => d > 1e-9).length;
  const losses = diffs.filter((d) => d < -1e-9).length;
  const tally = h('p', { class: 'tally', id: 'compare-tally' }, `${b} scores higher than ${a} on ${wins} of ${diffs.length} items, `
    + `lower on ${losses}, the same on ${diffs.length - wins - losses}.`);
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, a), h('th', { scope: 'col' }, b),
    h('th', { scope: 'col', class: 'num' }, `${b} − ${a}`));
  const rows = pairs.slice(0, GALLERY_ITEMS).map(([x, y]) => {
    const [sx, sy] = [scoreOf(x, multiTurn), scoreOf(y, multiTurn)];
    const side = (e, s, p) => h('td', { 'data-policy': p }, picture(e, cache, p), h('span', { class: 'thumb-score' }, `score ${fmt(s)}`));
    return h('tr', { 'data-item': x.item_key }, itemHeader(x), side(x, sx, a), side(y, sy, b),
      h('td', { class: 'num' }, sx === null || sy === null ? '–' : fmtSigned(sy - sx)));
  });
  return [tally, ...galleryTable(`${a} and ${b} compared`, `${a} and ${b} on the same items (layout: final score; others: total reward)`,
    head, rows, items.length)];
}
