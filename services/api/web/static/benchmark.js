// Benchmark page: a job's results per policy and per task, score-against-step charts, episodes.
import { api } from './api.js';
import { lineChart } from './chart.js';
import { $, fillSelect, fmt, fmtPercent, fmtSigned, fmtTime, h, params, shortId, table } from './dom.js';
import { requireKey, showError } from './shell.js';

const FINISHED = ['completed', 'failed', 'cancelled'];
let nextAfter = -1;

const STATS = [
  { label: 'Episodes', value: (r) => String(r.episodes), numeric: true },
  { label: 'Final score', value: (r) => fmt(r.final_score), numeric: true },
  { label: 'Instruction score', value: (r) => fmt(r.instruction_score), numeric: true },
  { label: 'Total reward', value: (r) => fmtSigned(r.total_reward), numeric: true },
  { label: 'Valid actions', value: (r) => fmtPercent(r.valid_action_rate), numeric: true },
  { label: 'Steer rate', value: (r) => fmtPercent(r.steer_rate), numeric: true },
  { label: 's / episode', value: (r) => fmt(r.seconds, 3), numeric: true },
];

async function init() {
  if (!requireKey()) return;
  const chosen = params().get('job');
  try {
    const page = await api('/v1/jobs?limit=100');
    const options = page.items.filter((j) => j.kind === 'benchmark')
      .map((j) => ({ value: j.id, label: `${shortId(j.id)} · ${j.spec.tasks.join(', ')} · ${j.status} · ${fmtTime(j.created_at)}` }));
    if (chosen && !options.some((o) => o.value === chosen)) options.unshift({ value: chosen, label: shortId(chosen) });
    if (!options.length) options.push({ value: '', label: 'no benchmark jobs yet', disabled: true });
    fillSelect($('#job'), options, chosen);
  } catch (error) {
    showError(error);
    return;
  }
  $('#pick').addEventListener('submit', (event) => {
    event.preventDefault();
    if ($('#job').value) location.search = `?job=${$('#job').value}`;
  });
  $('#more-episodes').addEventListener('click', () => episodes(chosen, false));
  if (chosen) show(chosen);
}

async function show(jobId) {
  try {
    const [job, summary] = await Promise.all([api(`/v1/jobs/${jobId}`), api(`/v1/jobs/${jobId}/summary`)]);
    $('#bench').hidden = false;
    $('#bench-title').textContent = `Job ${shortId(job.id)}`;
    const p = job.progress;
    $('#job-status').textContent = `${job.status}: ${p.completed} of ${job.episodes_total} episodes completed`
      + `${p.failed ? `, ${p.failed} failed` : ''}${p.cancelled ? `, ${p.cancelled} cancelled` : ''}.`;
    $('#bench').dataset.state = job.status;
    $('#by-policy').replaceChildren(table([{ label: 'Policy', value: (r) => r.policy }, ...STATS],
      summary.policies, { caption: 'Means per policy' }));
    $('#by-task').replaceChildren(table([{ label: 'Task', value: (r) => r.task_id },
      { label: 'Policy', value: (r) => r.policy }, ...STATS], summary.tasks, { caption: 'Means per task and policy' }));
    const tasks = [...new Set(summary.curves.map((c) => c.task_id))];
    $('#curves').replaceChildren(...tasks.map((task) => lineChart({
      title: task, xLabel: 'step', yLabel: 'score',
      series: summary.curves.filter((c) => c.task_id === task)
        .map((c) => ({ name: c.policy, points: c.scores.map((y, x) => [x, y]) })),
    })));
    await episodes(jobId, true);
    if (!FINISHED.includes(job.status)) setTimeout(() => show(jobId), 2000);
  } catch (error) {
    showError(error);
  }
}

async function episodes(jobId, fresh) {
  const page = await api(`/v1/jobs/${jobId}/episodes?limit=100&after=${fresh ? -1 : nextAfter}`);
  nextAfter = page.next_after;
  $('#more-episodes').hidden = nextAfter === null;
  const rows = table([
    { label: 'Task', value: (e) => e.task_id },
    { label: 'Seed', value: (e) => String(e.seed), numeric: true },
    { label: 'Policy', value: (e) => e.policy },
    { label: 'Status', value: (e) => h('span', { class: `badge ${e.status}` }, e.outcome && e.outcome !== 'ok' ? e.outcome : e.status) },
    { label: 'Final score', value: (e) => fmt(e.final_score), numeric: true },
    { label: 'Total reward', value: (e) => fmtSigned(e.total_reward), numeric: true },
    { label: 'Steps', value: (e) => String(e.steps_count ?? '–'), numeric: true },
    { label: 'Episode', value: (e) => h('a', { href: `/ui/episode?id=${e.id}` }, shortId(e.id)) },
  ], page.items, { caption: 'Episodes in submission order' });
  if (fresh) $('#episodes').replaceChildren(rows);
  else $('#episodes').append(rows);
}

init();
