// The Training page's gallery: the samples each update trained on, newest version first; a
// card per sample with its picture (its stored episode's, or a layout replayed from its
// completions), reward and text.
import { loadImage } from './api.js';
import { fmt, h, shortId } from './dom.js';

export const VERSIONS_SHOWN = 6; // the newest ones; the rest are in the run's samples.jsonl

function card(sample) {
  const what = `${sample.task_id} item ${sample.item_key}`;
  const words = `reward ${fmt(sample.reward)}${sample.outcome && sample.outcome !== 'ok' ? `, ${sample.outcome}` : ''}`
    + `${sample.sampled_by === null || sample.sampled_by === undefined ? '' : ` · sampled by v${sample.sampled_by}`}`;
  let picture = h('span', { class: 'no-render' }, 'No picture: the episode is not stored here');
  if (sample.picture) {
    const img = h('img', { alt: `Result of the sample on ${what} (${words})`, width: 240, height: 180 });
    loadImage(img, sample.picture).catch(() => { img.alt += ' (could not be loaded)'; });
    // a stored episode opens on the Episode page; a replayed layout has no page of its own
    picture = sample.stored ? h('a', { href: `/ui/episode?id=${sample.episode_id}`, class: 'thumb-link' }, img) : img;
  }
  const kind = sample.picture ? (sample.stored ? 'stored' : 'replayed') : 'none';
  const episodeLink = sample.stored
    ? [' · ', h('a', { href: `/ui/episode?id=${sample.episode_id}` }, `episode ${shortId(sample.episode_id)}`)]
    : null;
  const replayed = kind === 'replayed' ? [' · ', h('span', { class: 'muted' }, 'final layout, replayed from its text')] : null;
  return h('figure', { class: 'sample', 'data-episode': sample.episode_id, 'data-picture': kind }, picture,
    h('figcaption', {}, h('strong', {}, what), h('br'), words, episodeLink, replayed),
    h('details', { class: 'raw sample-text' }, h('summary', {}, 'The model’s text'),
      h('pre', { tabindex: '0', 'aria-label': `Text of the sample on ${what}` }, h('code', {}, sample.text || '(empty)'))));
}

// [<section per version>], newest first.
export function samplesByVersion(samples) {
  if (!samples?.length) {
    return [h('p', { class: 'muted' }, 'No samples recorded (a learner from before samples.jsonl, or no update yet).')];
  }
  const versions = [...new Set(samples.map((s) => s.version))].sort((a, b) => b - a);
  const shown = versions.slice(0, VERSIONS_SHOWN);
  const sections = shown.map((version) => h('section', { class: 'version-samples', 'data-version': version,
    'aria-labelledby': `samples-v${version}` },
  h('h4', { id: `samples-v${version}` }, `Version ${version}`),
  h('div', { class: 'samples' }, samples.filter((s) => s.version === version).map(card))));
  if (versions.length > shown.length) {
    sections.push(h('p', { class: 'hint' }, `The newest ${shown.length} of ${versions.length} versions.`));
  }
  return sections;
}
