// Run page: start an episode (or show the stored one) and follow it step by step.
import { api, streamEvents } from './api.js';
import { $, fillSelect, fmt, fmtSigned, h, params, shortId } from './dom.js';
import { actionLabel, beforeAfter, facts, frame, rawJson, stepImage, trajectory } from './episode_view.js';
import { requireKey, showError } from './shell.js';

let catalog;
let watching = null; // the AbortController of the stream on screen

const STATUS = {
  queued: 'Queued: waiting for a worker…',
  running: 'Running on a worker…',
};

async function init() {
  if (!requireKey()) return;
  try {
    catalog = await api('/v1/catalog');
  } catch (error) {
    showError(error);
    return;
  }
  const q = params();
  fillSelect($('#family'), catalog.families.map((f) => ({
    value: f.name, disabled: !f.runnable,
    label: f.runnable ? f.name : `${f.name} (needs a language-model policy)` })), 'layout');
  fillSelect($('#policy'), catalog.policies.map((p) => ({ value: p })), q.get('policy') ?? 'rule');
  fillSelect($('#profile'), catalog.profiles.map((p) => ({ value: p })), q.get('profile') ?? 'default');
  if (q.get('seed')) $('#seed').value = q.get('seed');
  fillTasks(q.get('task'));
  $('#family').addEventListener('change', () => fillTasks());
  $('#profile').addEventListener('change', () => fillTasks());
  $('#run-form').addEventListener('submit', start);
}

// The tasks of the chosen family that the chosen profile runs.
function fillTasks(selected) {
  const family = $('#family').value;
  const designgym = $('#profile').value === 'designgym';
  const tasks = catalog.tasks.filter((t) => t.family === family && (!designgym || t.designgym));
  fillSelect($('#task'), tasks.map((t) => ({ value: t.id })), selected ?? $('#task').value);
}

async function start(event) {
  event.preventDefault();
  watching?.abort();
  const form = new FormData(event.target);
  const body = { task: form.get('task'), seed: Number(form.get('seed')), policy: form.get('policy'),
    profile: form.get('profile') };
  history.replaceState(null, '', `?${new URLSearchParams(body)}`); // a link to this run
  const button = $('#start');
  button.disabled = true;
  try {
    show(await api('/v1/runs', { method: 'POST', body }));
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function setStatus(text, state) {
  $('#run-status').textContent = text;
  $('#live').dataset.state = state;
}

function show(run) {
  const episode = run.episode;
  const steps = trajectory([], (step) => showStep(episode.id, step));
  $('#live').hidden = false;
  $('#live-title').textContent = `Episode ${shortId(episode.id)}: ${episode.task_id}, seed ${episode.seed}, ${episode.policy}`;
  $('#steps').replaceChildren(steps.node);
  for (const id of ['#current', '#scoreboard', '#result', '#raw']) $(id).replaceChildren();
  if (run.cached) {
    setStatus('Ran before: shown from the stored episode.', 'loading');
    api(episode.links.self).then((detail) => finish(detail, steps, true)).catch(showError);
  } else {
    setStatus(STATUS.queued, 'queued');
    watch(episode.id, steps);
  }
}

async function watch(id, steps) {
  const controller = new AbortController();
  watching = controller;
  let after = -1;
  let ended = false;
  const onEvent = (type, data) => {
    if (type === 'episode' && STATUS[data.status]) setStatus(STATUS[data.status], data.status);
    if (type === 'step') {
      after = data.index;
      steps.add(data);
      showStep(id, data);
    }
    if (type === 'end') {
      ended = true;
      finish(data, steps, false);
    }
  };
  try {
    // The server closes a stream after its time limit; carry on from the last step seen.
    while (!ended && !controller.signal.aborted) {
      await streamEvents(`/v1/episodes/${id}/events?after=${after}`, onEvent, controller.signal);
      if (!ended) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } catch (error) {
    if (error.name !== 'AbortError') showError(error);
  }
}

let pendingFrame = null;

function showStep(id, step) {
  const n = step.index + 1;
  const label = actionLabel(step.action);
  // Steps can land in a burst: fetch the picture of the last one only.
  clearTimeout(pendingFrame);
  pendingFrame = setTimeout(() => $('#current').replaceChildren(frame(stepImage(id, step.index),
    `After step ${n}: ${label}`, `Layout after step ${n} (${label})`)), 30);
  const items = [['Step', n], ['Action', label], ['Valid', step.valid ? 'yes' : `no: ${step.error}`],
    ['Reward', fmtSigned(step.reward)], ['Score', fmt(step.score)]];
  $('#scoreboard').replaceChildren(...items.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, String(v)))));
}

function finish(episode, steps, replay) {
  if (replay) {
    episode.steps.forEach(steps.add);
    if (episode.steps.length) showStep(episode.id, episode.steps.at(-1));
  }
  const done = episode.status === 'completed';
  setStatus(done
    ? `Completed in ${episode.steps_count} steps: score ${fmt(episode.start_score)} → ${fmt(episode.final_score)}, total reward ${fmtSigned(episode.total_reward)}.`
    : `Episode ${episode.status}${episode.error ? `: ${episode.error}` : ''}.`, done ? 'done' : 'failed');
  $('#result').replaceChildren(
    h('h3', {}, 'Before and after'), beforeAfter(episode), facts(episode),
    h('p', {}, h('a', { href: `/ui/episode?id=${episode.id}` }, 'Every step of this episode'), ' · ',
      h('a', { href: `/ui/benchmark?job=${episode.job_id}` }, 'Its job')));
  $('#raw').replaceChildren(rawJson(episode));
}

init();
