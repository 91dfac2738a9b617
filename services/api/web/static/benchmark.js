// Benchmark page: a job's results per family. Layout: means per policy and per task and
// score-against-step charts (from the job summary). Single-turn families (html, svg,
// webpage): reward component means per task and policy, and a gallery of renders (from the
// job's episodes). Then every episode of the job.
import { api } from './api.js';
import { lineChart } from './chart.js';
import { $, fillSelect, fmt, fmtPercent, fmtSigned, fmtTime, h, params, shortId, table } from './dom.js';
import { compareView, layoutGallery } from './bench_gallery.js';
import { familySection } from './family_results.js';
import { itemLabel } from './family_view.js';
import { requireKey, showError } from './shell.js';

const FINISHED = ['completed', 'completed_with_errors', 'failed', 'cancelled'];
const MAX_EPISODES = 2000; // read for the family sections (pages of 500)
const MAX_DETAILS = 400; // full records read for component means
const PARALLEL = 6;
let nextAfter = -1;
let catalog;
const details = new Map(); // episode id -> full record (a completed one never changes)
const thumbs = new Map(); // "episode/image" -> <img>, kept across refreshes

const STATS = [
  { label: 'Episodes', value: (r) => String(r.episodes), numeric: true },
  { label: 'Final score', value: (r) => fmt(r.final_score), numeric: true },
  { label: 'Instruction score', value: (r) => fmt(r.instruction_score), numeric: true },
  { label: 'Total reward', value: (r) => fmtSigned(r.total_reward), numeric: true },
  { label: 'Valid actions', value: (r) => fmtPercent(r.valid_action_rate), numeric: true },
  { label: 'Steer rate', value: (r) => fmtPercent(r.steer_rate), numeric: true },
  { label: 's / episode', value: (r) => fmt(r.seconds, 3), numeric: true },
];
const MEANS = ['final_score', 'instruction_score', 'total_reward', 'valid_action_rate', 'steer_rate', 'seconds'];

async function init() {
  if (!requireKey()) return;
  const chosen = params().get('job');
  try {
    const [page, cat] = await Promise.all([api('/v1/jobs?limit=100'), api('/v1/catalog')]);
    catalog = cat;
    const what = (tasks) => (tasks.length > 3 ? `${tasks.length} tasks` : tasks.join(', '));
    const options = page.items.filter((j) => j.kind === 'benchmark')
      .map((j) => ({ value: j.id, label: `${shortId(j.id)} · ${what(j.spec.tasks ?? [])} · ${j.status} · ${fmtTime(j.created_at)}` }));
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
  $('#compare-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const q = params();
    q.set('a', $('#policy-a').value);
    q.set('b', $('#policy-b').value);
    history.replaceState(null, '', `?${q}`); // a link to this compare
    renderCompare();
  });
  if (chosen) show(chosen);
}

const familyOf = (taskId) => catalog.tasks.find((t) => t.id === taskId)?.family;
const multiTurn = (e) => catalog.families.find((f) => f.name === e.family)?.multi_turn ?? false;
let compared = []; // the job's episodes the compare form works on
const compareThumbs = new Map(); // its own <img>s: a node shows in one place only

// Two selects of the job's policies (the first two, or ?a= and ?b=) and their compare.
function showCompare(all) {
  compared = all;
  const policies = [...new Set(all.map((e) => e.policy))];
  $('#compare').hidden = policies.length < 2;
  if (policies.length < 2) return;
  const pick = (select, wanted, fallback) => {
    const value = policies.includes(select.value) ? select.value : policies.includes(wanted) ? wanted : fallback;
    fillSelect(select, policies.map((p) => ({ value: p })), value);
  };
  pick($('#policy-a'), params().get('a'), policies[0]);
  pick($('#policy-b'), params().get('b'), policies.find((p) => p !== $('#policy-a').value));
  renderCompare();
}

function renderCompare() {
  const [a, b] = [$('#policy-a').value, $('#policy-b').value];
  $('#compare-result').replaceChildren(...(a === b ? [h('p', { class: 'muted' }, 'Pick two different policies.')]
    : compareView(compared, a, b, compareThumbs, multiTurn)));
}

async function show(jobId) {
  try {
    const [job, summary, all] = await Promise.all([api(`/v1/jobs/${jobId}`),
      api(`/v1/jobs/${jobId}/summary`), allEpisodes(jobId)]);
    $('#bench').hidden = false;
    $('#bench-title').textContent = `Job ${shortId(job.id)}`;
    const p = job.progress;
    $('#job-status').textContent = `${job.status.replaceAll('_', ' ')}: ${p.completed} of ${job.episodes_total} episodes completed`
      + `${p.failed ? `, ${p.failed} failed` : ''}${p.cancelled ? `, ${p.cancelled} cancelled` : ''}.`
      + `${job.error ? ` ${job.error}` : ''}`;
    const present = new Set(all.map((e) => e.family));
    for (const t of job.spec.tasks ?? []) present.add(familyOf(t));
    showLayout(summary, present.has('layout'));
    await showFamilies(present, all);
    $('#layout-gallery').replaceChildren(...layoutGallery(all.filter((e) => multiTurn(e)), thumbs));
    showCompare(all);
    await episodes(jobId, true);
    $('#bench').dataset.state = job.status; // set last: the page is complete for this status
    if (!FINISHED.includes(job.status)) setTimeout(() => show(jobId), 2000);
  } catch (error) {
    showError(error);
  }
}

// Layout's tables and charts. A job of layout tasks only has its per-policy means in the
// summary; in a mixed job those mix families, so layout's are combined from its task rows.
function showLayout(summary, present) {
  $('#layout-results').hidden = !present;
  if (!present) return;
  const layout = catalog.families.find((f) => f.name === 'layout');
  $('#layout-summary').textContent = layout?.summary ?? '';
  const layoutTasks = summary.tasks.filter((r) => familyOf(r.task_id) === 'layout');
  const policies = layoutTasks.length === summary.tasks.length ? summary.policies : combine(layoutTasks);
  $('#by-policy').replaceChildren(table([{ label: 'Policy', value: (r) => r.policy }, ...STATS],
    policies, { caption: 'Means per policy' }));
  $('#by-task').replaceChildren(table([{ label: 'Task', value: (r) => r.task_id },
    { label: 'Policy', value: (r) => r.policy }, ...STATS], layoutTasks, { caption: 'Means per task and policy' }));
  const curves = summary.curves.filter((c) => familyOf(c.task_id) === 'layout');
  const tasks = [...new Set(curves.map((c) => c.task_id))];
  $('#curves').replaceChildren(...tasks.map((task) => lineChart({
    title: task, xLabel: 'step', yLabel: 'score',
    series: curves.filter((c) => c.task_id === task)
      .map((c) => ({ name: c.policy, points: c.scores.map((y, x) => [x, y]) })),
  })));
}

// Per-policy means from per-task rows, each weighted by its episodes.
function combine(rows) {
  const byPolicy = new Map();
  for (const r of rows) byPolicy.set(r.policy, [...(byPolicy.get(r.policy) ?? []), r]);
  return [...byPolicy].map(([policy, rs]) => {
    const out = { policy, task_id: null, episodes: rs.reduce((n, r) => n + r.episodes, 0) };
    for (const name of MEANS) {
      const present = rs.filter((r) => r[name] !== null && r[name] !== undefined);
      const weight = present.reduce((n, r) => n + r.episodes, 0);
      out[name] = weight ? present.reduce((s, r) => s + r[name] * r.episodes, 0) / weight : null;
    }
    return out;
  });
}

async function allEpisodes(jobId) {
  const items = [];
  let after = -1;
  while (after !== null && items.length < MAX_EPISODES) {
    const page = await api(`/v1/jobs/${jobId}/episodes?limit=500&after=${after}`);
    items.push(...page.items);
    after = page.next_after;
  }
  return items;
}

// The full records of completed single-turn episodes not read yet, a few at a time.
async function readDetails(episodes) {
  const wanted = episodes.filter((e) => e.status === 'completed' && !details.has(e.id))
    .slice(0, Math.max(0, MAX_DETAILS - details.size));
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const e = wanted[next++];
      details.set(e.id, await api(e.links.self));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return episodes.filter((e) => e.status === 'completed' && !details.has(e.id)).length;
}

async function showFamilies(present, all) {
  const single = catalog.families.filter((f) => !f.multi_turn && present.has(f.name));
  const sections = [];
  for (const family of single) {
    const episodes = all.filter((e) => e.family === family.name);
    const unread = await readDetails(episodes);
    sections.push(familySection(family, episodes, details, thumbs, unread));
  }
  $('#families').replaceChildren(...sections);
}

async function episodes(jobId, fresh) {
  const page = await api(`/v1/jobs/${jobId}/episodes?limit=100&after=${fresh ? -1 : nextAfter}`);
  nextAfter = page.next_after;
  $('#more-episodes').hidden = nextAfter === null;
  const rows = table([
    { label: 'Task', value: (e) => e.task_id },
    { label: 'Item', value: (e) => itemLabel(e) },
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
