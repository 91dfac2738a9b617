// Training page: a learner run's curves per policy version, and the published versions.
import { api } from './api.js';
import { lineChart } from './chart.js';
import { $, fillSelect, fmtTime, h, params, table } from './dom.js';
import { rawJson } from './episode_view.js';
import { requireKey, showError } from './shell.js';

// (title, y label, [[series name, row => value]]) per chart, from curves.jsonl's keys
const CHARTS = [
  ['Mean group reward', 'reward', [['reward', (r) => r.group_reward_mean]]],
  ['Valid-action rate', 'share of turns', [['valid actions', (r) => r.valid_action_rate]]],
  ['Staleness of trained groups', 'versions behind', [
    ['mean', (r) => r.staleness_mean ?? mean(r.staleness)],
    ['max', (r) => (r.staleness?.length ? Math.max(...r.staleness) : null)]]],
  ['KL to the starting weights', 'KL', [['KL', (r) => r.kl]]],
  ['Learner idle fraction', 'share of the update', [['idle', (r) => r.idle_fraction]]],
  ['Token entropy', 'entropy', [['entropy', (r) => r.entropy]]],
];

const mean = (xs) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

async function init() {
  if (!requireKey()) return;
  const chosen = params().get('run');
  try {
    const runs = await api('/v1/training/runs');
    fillSelect($('#run'), runs.length
      ? runs.map((r) => ({ value: r.name, label: `${r.name} · ${r.updates} updates · ${fmtTime(r.updated_at)}` }))
      : [{ value: '', label: 'no learner runs found', disabled: true }], chosen);
    $('#pick-run').addEventListener('submit', (event) => {
      event.preventDefault();
      if ($('#run').value) location.search = `?run=${encodeURIComponent($('#run').value)}`;
    });
    const name = chosen ?? runs[0]?.name;
    await Promise.all([name ? showRun(name) : null, versions()]);
  } catch (error) {
    showError(error);
  }
}

async function showRun(name) {
  const run = await api(`/v1/training/runs/${encodeURIComponent(name)}`);
  $('#training').hidden = false;
  $('#run-title').textContent = `Run ${run.name}`;
  $('#run-facts').textContent = `${run.updates} updates, last version ${run.last_version ?? '–'}, `
    + `checkpoints ${run.checkpoints.join(', ') || 'none'}; updated ${fmtTime(run.updated_at)}.`;
  $('#charts').replaceChildren(...CHARTS.map(([title, yLabel, series]) => lineChart({
    title, xLabel: 'policy version', yLabel,
    series: series.map(([seriesName, value]) => ({ name: series.length > 1 ? seriesName : '',
      points: run.curves.map((r) => [r.version, value(r)]) })),
  })));
  $('#run-raw').replaceChildren(rawJson(run.summary ? { summary: run.summary, curves: run.curves } : run.curves,
    'Raw curves (JSON)'));
}

async function versions() {
  const { current, versions: list } = await api('/v1/training/versions');
  $('#current-version').textContent = current === null
    ? 'No version announced by a learner.' : `The learner's newest version: ${current}.`;
  $('#versions').replaceChildren(list.length ? table([
    { label: 'Version', value: (v) => String(v.version), numeric: true },
    { label: 'Adapter', value: (v) => (v.version === current ? h('strong', {}, `${v.name} (current)`) : v.name) },
    { label: 'Written', value: (v) => fmtTime(v.created_at) },
  ], list.slice().reverse(), { caption: 'Versions in the adapter store, newest first' })
    : h('p', { class: 'muted' }, 'The adapter store holds no versions.'));
}

init();
