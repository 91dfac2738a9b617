// Episode page: a layout's before and after side by side, its layout after every step and
// its trajectory; a single-turn episode's renders, reward components and checks.
import { api } from './api.js';
import { $, fmt, fmtSigned, h, params, shortId } from './dom.js';
import { actionLabel, beforeAfter, facts, frame, rawJson, stepImage, trajectory } from './episode_view.js';
import { itemLabel, singleTurnView } from './family_view.js';
import { briefView, turnsView } from './model_turns.js';
import { notice, requireKey, showError } from './shell.js';

async function init() {
  if (!requireKey()) return;
  const id = params().get('id');
  if (!id) {
    notice('Open an episode from the Run or Benchmark page (this page needs ?id=EPISODE).', 'error');
    return;
  }
  try {
    const [episode, catalog] = await Promise.all([api(`/v1/episodes/${encodeURIComponent(id)}`), api('/v1/catalog')]);
    const family = catalog.families.find((f) => f.name === episode.family);
    const multiTurn = family?.multi_turn ?? true;
    $('#episode').hidden = false;
    $('#episode').dataset.family = episode.family;
    $('#episode-title').textContent = `Episode ${shortId(episode.id)}: ${episode.task_id}, ${itemLabel(episode)}, ${episode.policy}`;
    const again = { task: episode.task_id, policy: episode.policy };
    if (episode.seed !== null) again.seed = episode.seed;
    else again.item = episode.item_key;
    if (multiTurn) again.profile = episode.profile ?? 'default';
    if (episode.source) again.dataset = episode.source;
    $('#episode-facts').replaceChildren(facts(episode, family),
      h('p', {}, h('a', { href: `/ui/run?${new URLSearchParams(again)}` }, 'Open on the Run page'),
        ' · ', h('a', { href: `/ui/benchmark?job=${episode.job_id}` }, 'Its job')));
    if (multiTurn) showLayout(episode);
    else {
      $('#family-view').hidden = false;
      $('#family-result').replaceChildren(singleTurnView(episode, family));
    }
    $('#model-text').replaceChildren(turnsView(episode) ?? '');
    $('#episode-raw').replaceChildren(rawJson(episode));
    $('#episode').dataset.state = 'loaded';
  } catch (error) {
    showError(error);
  }
}

function showLayout(episode) {
  $('#layout-view').hidden = false;
  $('#brief').replaceChildren(briefView(episode.brief) ?? '');
  $('#before-after').replaceChildren(beforeAfter(episode));
  const images = episode.links.before ? episode.steps : [];
  $('#frames').replaceChildren(...images.map((step) => frame(stepImage(episode.id, step.index),
    `${step.index + 1}. ${actionLabel(step.action)} · reward ${fmtSigned(step.reward)} · score ${fmt(step.score)}`,
    `Layout after step ${step.index + 1}`)));
  $('#episode-steps').replaceChildren(trajectory(episode.steps).node);
}

init();
