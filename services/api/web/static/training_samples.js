// The Training page's gallery: the samples each update trained on, newest version first; a
// card per sample with its picture (its stored episode's, a layout replayed from its
// completions, or an svg, html or webpage sample's text drawn by the API), reward and text.
// A sample that cannot be drawn shows why in place of its picture.
import { loadImage } from './api.js';
import { fmt, h, shortId } from './dom.js';

export const VERSIONS_SHOWN = 6; // the newest ones; the rest are in the run's samples.jsonl

const NOTES = { replayed: 'final layout, replayed from its text', drawn: 'drawn from its text' };

const noPicture = (why) => h('span', { class: 'no-render', role: 'note' }, `No picture: ${why}`);

function pictureOf(sample, what, words, figure) {
  if (!sample.picture) {
    return noPicture(sample.picture_problem || 'the episode is not stored here');
  }
  const img = h('img', { alt: `Result of the sample on ${what} (${words})`, width: 240, height: 180 });
  loadImage(img, sample.picture).then((headers) => {
    const problem = headers.get('X-Picture-Problem');
    if (!problem) return;
    // the page failed in the browser: the reason, not the placeholder image
    img.replaceWith(noPicture(decodeURIComponent(problem)));
    figure.querySelector('.picture-note')?.remove();
    figure.dataset.picture = 'problem';
  }).catch(() => { img.alt += ' (could not be loaded)'; });
  // a stored episode opens on the Episode page; a replayed or drawn one has no page of its own
  return sample.stored ? h('a', { href: `/ui/episode?id=${sample.episode_id}`, class: 'thumb-link' }, img) : img;
}

function card(sample) {
  const what = `${sample.task_id} item ${sample.item_key}`;
  const words = `reward ${fmt(sample.reward)}${sample.outcome && sample.outcome !== 'ok' ? `, ${sample.outcome}` : ''}`
    + `${sample.sampled_by === null || sample.sampled_by === undefined ? '' : ` · sampled by v${sample.sampled_by}`}`;
  const kind = sample.picture
    ? (sample.picture_kind || (sample.stored ? 'stored' : 'replayed'))
    : (sample.picture_problem ? 'problem' : 'none');
  const episodeLink = sample.stored
    ? [' · ', h('a', { href: `/ui/episode?id=${sample.episode_id}` }, `episode ${shortId(sample.episode_id)}`)]
    : null;
  const note = NOTES[kind] ? h('span', { class: 'picture-note' }, ' · ', h('span', { class: 'muted' }, NOTES[kind])) : null;
  const figure = h('figure', { class: 'sample', 'data-episode': sample.episode_id, 'data-picture': kind });
  figure.append(pictureOf(sample, what, words, figure),
    h('figcaption', {}, h('strong', {}, what), h('br'), words, episodeLink, note),
    h('details', { class: 'raw sample-text' }, h('summary', {}, 'The model’s text'),
      h('pre', { tabindex: '0', 'aria-label': `Text of the sample on ${what}` }, h('code', {}, sample.text || '(empty)'))));
  return figure;
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
