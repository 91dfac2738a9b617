// Episode page: before and after side by side, the layout after every step, the trajectory.
import { api } from './api.js';
import { $, fmt, fmtSigned, h, params, shortId } from './dom.js';
import { actionLabel, beforeAfter, facts, frame, rawJson, stepImage, trajectory } from './episode_view.js';
import { notice, requireKey, showError } from './shell.js';

async function init() {
  if (!requireKey()) return;
  const id = params().get('id');
  if (!id) {
    notice('Open an episode from the Run or Benchmark page (this page needs ?id=EPISODE).', 'error');
    return;
  }
  try {
    const episode = await api(`/v1/episodes/${encodeURIComponent(id)}`);
    $('#episode').hidden = false;
    $('#episode-title').textContent = `Episode ${shortId(episode.id)}: ${episode.task_id}, seed ${episode.seed}, ${episode.policy}`;
    $('#episode-facts').replaceChildren(facts(episode),
      h('p', {}, h('a', { href: `/ui/run?${new URLSearchParams({ task: episode.task_id, seed: episode.seed, policy: episode.policy, profile: episode.profile ?? 'default' })}` }, 'Open on the Run page'),
        ' · ', h('a', { href: `/ui/benchmark?job=${episode.job_id}` }, 'Its job')));
    $('#before-after').replaceChildren(beforeAfter(episode));
    const images = episode.links.before ? episode.steps : [];
    $('#frames').replaceChildren(...images.map((step) => frame(stepImage(episode.id, step.index),
      `${step.index + 1}. ${actionLabel(step.action)} · reward ${fmtSigned(step.reward)} · score ${fmt(step.score)}`,
      `Layout after step ${step.index + 1}`)));
    $('#episode-steps').replaceChildren(trajectory(episode.steps).node);
    $('#episode-raw').replaceChildren(rawJson(episode));
  } catch (error) {
    showError(error);
  }
}

init();
