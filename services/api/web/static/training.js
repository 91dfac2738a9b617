// Training page: a learner run's curves per policy version (optimisation and rollouts), its
// held-out evaluations, a gallery of samples per version, and the published versions.
import { api } from './api.js';
import { lineChart } from './chart.js';
import { $, fillSelect, fmt, fmtSigned, fmtTime, h, params, table } from './dom.js';
import { rawJson } from './episode_view.js';
import { requireKey, showError } from './shell.js';
import { samplesByVersion } from './training_samples.js';

const mean = (xs) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const key = (name) => (r) => r[name];

// (title, y label, [[series name, row => value]]) per chart, from curves.jsonl's keys:
// TRL's logged metrics (loss, learning_rate, grad_norm, clip_ratio/*, kl, entropy) and ours.
const OPTIMISATION = [
  ['Loss', 'loss', [['loss', key('loss')]]],
  ['Learning rate', 'learning rate', [['learning rate', key('learning_rate')]]],
  ['Gradient norm (before clipping)', 'grad norm', [['grad norm', key('grad_norm')]]],
  ['Clip ratio', 'share clipped', [
    ['in the clipped region', key('clip_ratio/region_mean')],
    ['low', key('clip_ratio/low_mean')], ['high', key('clip_ratio/high_mean')]]],
  ['KL to the starting weights', 'KL', [['KL', key('kl')]]],
  ['Token entropy', 'entropy', [['entropy', key('entropy')]]],
];
const ROLLOUTS = [
  ['Mean group reward', 'reward', [['reward', key('group_reward_mean')]]],
  ['Valid-action rate', 'share of turns', [['valid actions', key('valid_action_rate')]]],
  ['Staleness of trained groups', 'versions behind', [
    ['mean', (r) => r.staleness_mean ?? mean(r.staleness)],
    ['max', (r) => (r.staleness?.length ? Math.max(...r.staleness) : null)]]],
  ['Learner idle fraction', 'share of the update', [['idle', key('idle_fraction')]]],
];

// Held-out evaluation numbers, as designrl.learner.evaluate reports them.
const EVAL = [
  ['mean_final_score', 'Mean final score'], ['mean_return', 'Mean return'],
  ['mean_potential_gain', 'Mean potential gain'], ['valid_action_rate', 'Valid-action rate'],
  ['valid_json_rate', 'Valid-JSON rate'], ['steer_rate', 'Steer rate'],
  ['episodes', 'Episodes'], ['steps', 'Steps'],
];

async function init() {
  if (!requireKey()) return;
  const chosen = params().get('run');
  try {
    const [runs, sources] = await Promise.all([api('/v1/training/runs'), api('/v1/training/sources')]);
    whereFrom(sources, runs.length);
    if (runs.length) {
      $('#pick-run').hidden = false;
      fillSelect($('#run'), runs.map((r) => ({ value: r.name,
        label: `${r.name} · ${r.updates} updates · ${fmtTime(r.updated_at)}` })), chosen);
    }
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

function whereFrom(sources, count) {
  $('#sources').append(' This API reads runs from ', h('code', {}, sources.runs_dir),
    ' (setting DESIGNRL_TRAINING_RUNS_DIR) and versions from ', h('code', {}, sources.adapter_store),
    ' (DESIGNRL_ADAPTER_STORE).');
  if (count) return;
  $('#no-runs').hidden = false;
  $('#no-runs').append('No learner run yet: no folder under ', h('code', {}, sources.runs_dir),
    ' holds a curves.jsonl. Start one with ', h('code', {}, `designrl train --model MODEL --out ${sources.runs_dir}/NAME`),
    ' or run the learner service with its output_dir there; it shows here after its first update.');
}

function charts(rows, specs) {
  return specs.map(([title, yLabel, series]) => lineChart({
    title, xLabel: 'policy version', yLabel,
    series: series.map(([seriesName, value]) => ({ name: series.length > 1 ? seriesName : '',
      points: rows.map((r) => [r.version, value(r)]) })),
  }));
}

async function showRun(name) {
  const run = await api(`/v1/training/runs/${encodeURIComponent(name)}`);
  $('#training').hidden = false;
  $('#run-title').textContent = `Run ${run.name}`;
  $('#run-facts').textContent = `${run.updates} updates, last version ${run.last_version ?? '–'}, `
    + `checkpoints ${run.checkpoints.join(', ') || 'none'}; updated ${fmtTime(run.updated_at)}.`;
  $('#charts').replaceChildren(...charts(run.curves, OPTIMISATION));
  $('#rollout-charts').replaceChildren(...charts(run.curves, ROLLOUTS));
  $('#evaluation').replaceChildren(evaluation(run.summary));
  $('#samples').replaceChildren(...samplesByVersion(run.samples));
  $('#run-raw').replaceChildren(rawJson(run.summary ? { summary: run.summary, curves: run.curves } : run.curves,
    'Raw curves (JSON)'));
  $('#training').dataset.state = 'loaded';
}

function evaluation(summary) {
  const { before, after } = summary ?? {};
  if (!before && !after) {
    return h('p', { class: 'muted' }, 'No evaluation recorded: ',
      h('code', {}, 'designrl train --eval-seeds'), ' evaluates before and after training.');
  }
  const rows = EVAL.filter(([k]) => (before ?? {})[k] !== undefined || (after ?? {})[k] !== undefined);
  const whole = (k) => ['episodes', 'steps'].includes(k);
  const show = (v, k) => (v === undefined || v === null ? '–' : whole(k) ? String(v) : fmt(v));
  return table([
    { label: 'Measure', value: ([, label]) => label },
    { label: 'Before', value: ([k]) => show(before?.[k], k), numeric: true },
    { label: 'After', value: ([k]) => show(after?.[k], k), numeric: true },
    { label: 'Change', value: ([k]) => (before?.[k] === undefined || after?.[k] === undefined || whole(k)
      ? '–' : fmtSigned(after[k] - before[k])), numeric: true },
  ], rows, { caption: 'Greedy episodes on held-out test seeds, before and after training',
    rowAttrs: ([k]) => ({ 'data-measure': k }) });
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
