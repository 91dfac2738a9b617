// A single-turn family's results on the Benchmark page: a table of its reward components'
// means per task and policy, and a gallery of renders, one per item × policy, each linking
// to its episode. Means come from the episodes themselves (the job summary has no
// components): `details` maps episode id -> the episode's full record (its `rewards`).
import { loadImage } from './api.js';
import { fmt, h, table } from './dom.js';
import { candidateWords, itemLabel, itemName, outcomeText, policyLabel } from './family_view.js';

export const GALLERY_ITEMS = 24; // items shown per family; the rest are in the episode list

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const nice = (name) => name.replaceAll('_', ' ');
const uniq = (xs) => [...new Set(xs)];

// Rows per (task, policy), in the job's order, over its completed episodes.
export function componentRows(family, episodes, details) {
  const groups = new Map();
  for (const e of episodes) {
    if (e.status !== 'completed' || e.outcome === 'infra_error') continue;
    const key = `${e.task_id}\u0000${e.policy}`;
    if (!groups.has(key)) groups.set(key, { task_id: e.task_id, policy: e.policy, episodes: [] });
    groups.get(key).episodes.push(e);
  }
  return [...groups.values()].map((g) => {
    const records = g.episodes.map((e) => details.get(e.id)).filter(Boolean);
    const outcomes = {};
    for (const e of g.episodes) outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
    const components = Object.fromEntries(family.components.map((name) => [name,
      mean(records.map((r) => r.rewards?.[name]).filter((v) => v !== undefined && v !== null))]));
    return { ...g, count: g.episodes.length, read: records.length, outcomes, components,
      total: mean(g.episodes.map((e) => e.total_reward).filter((v) => v !== null)) };
  });
}

function componentTable(family, rows) {
  const outcomeWords = (r) => Object.entries(r.outcomes)
    .map(([o, n]) => `${n} ${o === 'ok' ? 'ok' : o.replaceAll('_', ' ')}`).join(', ');
  return table([
    { label: 'Task', value: (r) => r.task_id },
    { label: 'Policy', value: (r) => policyLabel(r.policy, family) },
    { label: 'Episodes', value: (r) => String(r.count), numeric: true },
    { label: 'Outcomes', value: outcomeWords },
    { label: 'Total reward', value: (r) => h('strong', {}, fmt(r.total)), numeric: true },
    ...family.components.map((name) => ({ label: nice(name), value: (r) => fmt(r.components[name]), numeric: true })),
  ], rows, { caption: `${family.name}: mean reward and components per task and policy`
    + ' (a component’s mean is over the episodes that recorded it)',
  rowAttrs: (r) => ({ 'data-task': r.task_id, 'data-policy': r.policy }) });
}

// One thumbnail (a link to the episode), or what stands in for a missing render.
function thumb(episode, image, alt, cache) {
  const key = `${episode.id}/${image}`;
  if (!cache.has(key)) {
    const img = h('img', { alt, width: 160, height: 120 });
    loadImage(img, episode.links[image]).catch(() => { img.alt = `${alt} (could not be loaded)`; });
    cache.set(key, img);
  }
  return cache.get(key);
}

function cell(episode, cache) {
  const href = `/ui/episode?id=${episode.id}`;
  if (episode.status !== 'completed') {
    return h('a', { href, class: 'pending' }, h('span', { class: `badge ${episode.status}` }, episode.status),
      h('span', { class: 'visually-hidden' }, ` ${episode.policy} on ${itemName(episode)}`));
  }
  const words = `total ${fmt(episode.total_reward)}${episode.outcome === 'ok' ? '' : `, ${nice(episode.outcome)}`}`;
  const picture = episode.images?.includes('candidate')
    ? thumb(episode, 'candidate', `${candidateWords(episode)[1]} (${words})`, cache)
    : h('span', { class: 'no-render' }, `No render: ${outcomeText(episode.outcome)}`,
      h('span', { class: 'visually-hidden' }, ` (${episode.policy} on ${itemName(episode)})`));
  return [h('a', { href, class: 'thumb-link' }, picture),
    h('span', { class: `thumb-score${episode.outcome === 'ok' ? '' : ' bad'}` }, words)];
}

// Items down, policies across; html adds the reference page each item asks for.
function gallery(family, episodes, cache) {
  const policies = uniq(episodes.map((e) => e.policy));
  const items = uniq(episodes.map((e) => `${e.task_id}\u0000${e.item_key}`));
  const shown = items.slice(0, GALLERY_ITEMS);
  const byCell = new Map(episodes.map((e) => [`${e.task_id}\u0000${e.item_key}\u0000${e.policy}`, e]));
  const withReference = episodes.some((e) => e.images?.includes('reference'));
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Item'),
    withReference ? h('th', { scope: 'col' }, 'Reference') : null,
    policies.map((p) => h('th', { scope: 'col' }, policyLabel(p, family))));
  const rows = shown.map((key) => {
    const ofItem = episodes.filter((e) => `${e.task_id}\u0000${e.item_key}` === key);
    const first = ofItem[0];
    const ref = ofItem.find((e) => e.images?.includes('reference'));
    return h('tr', { 'data-item': first.item_key },
      h('th', { scope: 'row' }, first.task_id, h('br'), h('span', { class: 'muted' }, itemLabel(first))),
      withReference ? h('td', {}, ref ? h('a', { href: `/ui/episode?id=${ref.id}`, class: 'thumb-link' },
        thumb(ref, 'reference', `Screenshot of the reference page for ${itemName(ref)} (the page to reproduce)`, cache))
        : '–') : null,
      policies.map((p) => {
        const e = byCell.get(`${key}\u0000${p}`);
        return h('td', e ? { 'data-policy': p, 'data-episode': e.id } : {}, e ? cell(e, cache) : '–');
      }));
  });
  const note = items.length > shown.length
    ? h('p', { class: 'hint' }, `The first ${shown.length} of ${items.length} items; the episode list below has every one.`) : null;
  return [h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `${family.name} renders` },
    h('table', { class: `gallery family-${family.name}` },
      h('caption', {}, `${family.name} renders: one per item and policy; each opens its episode`),
      h('thead', {}, head), h('tbody', {}, rows))), note];
}

// The section of one single-turn family: its summary, component means and gallery.
export function familySection(family, episodes, details, cache, unread) {
  const rows = componentRows(family, episodes, details);
  const partial = rows.some((r) => r.read < r.count);
  return h('section', { class: 'family-results', 'data-family': family.name, 'aria-labelledby': `family-${family.name}` },
    h('h3', { id: `family-${family.name}` }, family.name),
    h('p', { class: 'hint' }, family.summary),
    h('h4', {}, 'Component means'),
    rows.length ? componentTable(family, rows) : h('p', { class: 'muted' }, 'No completed episode yet.'),
    partial || unread ? h('p', { class: 'hint' }, 'Components are means over the episodes read so far;'
      + ' the totals count every completed episode.') : null,
    h('h4', {}, 'Renders'), gallery(family, episodes, cache));
}
