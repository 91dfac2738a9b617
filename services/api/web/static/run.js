// Run page: start an episode of any family (or show the stored one) and follow it: a layout
// step by step, a single-turn episode (html, svg, webpage) until its render and reward land.
import { api, streamEvents } from './api.js';
import { $, fillSelect, fmt, fmtSigned, h, params, shortId } from './dom.js';
import { actionLabel, beforeAfter, facts, frame, rawJson, stepImage, trajectory } from './episode_view.js';
import { itemLabel, outcomeText, policyLabel, singleTurnView } from './family_view.js';
import { requireKey, showError } from './shell.js';

let catalog;
let families = new Map(); // name -> the catalog's family record
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
  families = new Map(catalog.families.map((f) => [f.name, f]));
  const q = params();
  const asked = catalog.tasks.find((t) => t.id === q.get('task'));
  fillSelect($('#family'), catalog.families.map((f) => ({ value: f.name })), asked?.family ?? 'layout');
  fillSelect($('#profile'), catalog.profiles.map((p) => ({ value: p })), q.get('profile') ?? 'default');
  if (q.get('seed')) $('#seed').value = q.get('seed');
  familyChanged(asked?.id, q.get('policy'), q.get('item'), q.get('dataset'));
  $('#family').addEventListener('change', () => familyChanged());
  $('#task').addEventListener('change', () => taskChanged());
  $('#profile').addEventListener('change', () => fillTasks());
  $('#run-form').addEventListener('submit', start);
}

const family = () => families.get($('#family').value);
const task = () => catalog.tasks.find((t) => t.id === $('#task').value);

// The policies a Run can name: the family's own, the models the inference server serves;
// never a placeholder ("predictions:<set>", which a benchmark job names).
function runnablePolicies(f) {
  const served = new Set(catalog.served_models.map((m) => `vllm:${m}`));
  return f.policies.filter((p) => !p.includes('<') && (!p.startsWith('vllm:') || served.has(p)
    || (p === 'vllm:latest' && served.size > 0)));
}

function familyChanged(selectedTask, selectedPolicy, selectedItem, selectedDataset) {
  const f = family();
  $('#family-hint').textContent = f.summary;
  $('#profile-row').hidden = !f.multi_turn; // profiles are layout's env profiles
  $('#profile').disabled = !f.multi_turn;
  const policies = runnablePolicies(f);
  const fallback = policies.includes('rule') ? 'rule' : policies[0];
  fillSelect($('#policy'), policies.map((p) => ({ value: p, label: policyLabel(p, f) })),
    policies.includes(selectedPolicy) ? selectedPolicy : fallback);
  fillTasks(selectedTask, selectedItem, selectedDataset);
}

// The tasks of the chosen family that the chosen profile runs; one that reads a dataset
// file is offered only when the operator registered one.
function fillTasks(selected, selectedItem, selectedDataset) {
  const f = family();
  const designgym = f.multi_turn && $('#profile').value === 'designgym';
  const tasks = f.tasks.filter((t) => !designgym || t.designgym);
  const noData = !catalog.datasets.length;
  fillSelect($('#task'), tasks.map((t) => ({ value: t.id, disabled: t.needs_path && noData,
    label: t.needs_path && noData ? `${t.id} (needs a registered dataset)` : t.id })),
  selected ?? (tasks.some((t) => t.id === $('#task').value) ? $('#task').value : undefined));
  if ($('#task').selectedOptions[0]?.disabled) {
    const usable = [...$('#task').options].find((o) => !o.disabled);
    if (usable) $('#task').value = usable.value;
  }
  taskChanged(selectedItem, selectedDataset);
}

// Seeded tasks take a seed; dataset tasks an item id (and a registered dataset, if they read one).
function taskChanged(selectedItem, selectedDataset) {
  const t = task();
  if (!t) return;
  $('#task-hint').textContent = `Items: ${t.source}.`;
  $('#seed-row').hidden = !t.seeded;
  $('#seed').disabled = !t.seeded;
  $('#item-row').hidden = t.seeded;
  itemControl(t, selectedItem);
  const datasets = t.seeded ? [] : catalog.datasets;
  $('#dataset-row').hidden = !datasets.length;
  $('#dataset').disabled = !datasets.length;
  fillSelect($('#dataset'), [...(t.needs_path ? [] : [{ value: '', label: 'the items designrl ships' }]),
    ...datasets.map((d) => ({ value: d }))], selectedDataset ?? '');
}

// A select of the task's item ids when the catalog lists them; else a text field.
function itemControl(t, selected) {
  const field = $('#item-field');
  if (t.seeded) {
    field.replaceChildren();
    return;
  }
  const ids = Array.isArray(t.items) ? t.items : null;
  const hint = h('p', { id: 'item-hint', class: 'hint' }, ids
    ? `${ids.length} items in the shipped set.`
    : `The id of one of ${t.id}'s items; an unknown id is answered with the ids it has.`);
  const control = ids
    ? h('select', { id: 'item', name: 'item', required: true, 'aria-describedby': 'item-hint' },
      ids.map((id) => h('option', { value: id, selected: id === selected }, id)))
    : h('input', { id: 'item', name: 'item', type: 'text', required: true, autocomplete: 'off',
      spellcheck: 'false', 'aria-describedby': 'item-hint', value: selected ?? '' });
  field.replaceChildren(control, hint);
}

async function start(event) {
  event.preventDefault();
  watching?.abort();
  const form = new FormData(event.target);
  const t = task();
  const body = { task: form.get('task'), policy: form.get('policy') };
  if (t.seeded) body.seed = Number(form.get('seed'));
  else body.item = form.get('item');
  if (family().multi_turn) body.profile = form.get('profile');
  if (form.get('dataset')) body.dataset = form.get('dataset');
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
  const multiTurn = families.get(episode.family)?.multi_turn ?? true;
  const steps = trajectory([], (step) => showStep(episode.id, step));
  $('#live').hidden = false;
  $('#live').dataset.family = episode.family;
  $('#live-title').textContent = `Episode ${shortId(episode.id)}: ${episode.task_id}, ${itemLabel(episode)}, ${episode.policy}`;
  $('#stage').hidden = !multiTurn; // a single-turn episode has no steps to follow
  for (const id of ['#current', '#result', '#steps', '#raw']) $(id).replaceChildren();
  if (multiTurn) $('#steps').replaceChildren(steps.node);
  // the right column says what runs until the first step replaces it
  $('#scoreboard').replaceChildren(...[['Task', episode.task_id], ['Item', itemLabel(episode)],
    ['Policy', episode.policy], ['Status', run.cached ? 'ran before' : 'queued']]
    .map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, String(v)))));
  $('#live').scrollIntoView({ block: 'start' }); // the render first: above the form
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
  const f = families.get(episode.family);
  if (f && !f.multi_turn) {
    finishSingleTurn(episode, f);
    return;
  }
  if (replay) {
    episode.steps.forEach(steps.add);
    if (episode.steps.length) showStep(episode.id, episode.steps.at(-1));
  }
  const done = episode.status === 'completed';
  setStatus(done
    ? `Completed in ${episode.steps_count} steps: score ${fmt(episode.start_score)} → ${fmt(episode.final_score)}, total reward ${fmtSigned(episode.total_reward)}.`
    : `Episode ${episode.status}${episode.error ? `: ${episode.error}` : ''}.`, done ? 'done' : 'failed');
  $('#result').replaceChildren(
    h('h3', {}, 'Before and after'), beforeAfter(episode), facts(episode, f),
    links(episode, 'Every step of this episode'));
  $('#raw').replaceChildren(rawJson(episode));
}

function finishSingleTurn(episode, f) {
  const done = episode.status === 'completed';
  setStatus(done
    ? `Completed: ${episode.outcome} (${outcomeText(episode.outcome)}), total reward ${fmt(episode.total_reward)}.`
    : `Episode ${episode.status}${episode.error ? `: ${episode.error}` : ''}.`, done ? 'done' : 'failed');
  $('#result').replaceChildren(h('h3', {}, 'Result'), singleTurnView(episode, f), facts(episode, f),
    links(episode, 'This episode on its own page'));
  $('#raw').replaceChildren(rawJson(episode));
}

const links = (episode, label) => h('p', {}, h('a', { href: `/ui/episode?id=${episode.id}` }, label), ' · ',
  h('a', { href: `/ui/benchmark?job=${episode.job_id}` }, 'Its job'));

init();
