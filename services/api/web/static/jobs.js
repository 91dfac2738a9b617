// Jobs page: submit a benchmark from a form; list jobs with live progress; cancel.
import { api } from './api.js';
import { $, fillSelect, fmtTime, h, shortId, table } from './dom.js';
import { notice, requireKey, showError } from './shell.js';

const FINISHED = ['completed', 'completed_with_errors', 'failed', 'cancelled'];
let jobs = new Map(); // id -> job, newest first
let cursor = null;

async function init() {
  if (!requireKey()) return;
  try {
    const catalog = await api('/v1/catalog');
    const runnable = new Set(catalog.families.filter((f) => f.runnable).map((f) => f.name));
    boxes($('#task-boxes'), 'tasks', catalog.tasks.filter((t) => runnable.has(t.family)).map((t) => t.id), ['gen-poster']);
    boxes($('#policy-boxes'), 'policies', catalog.policies, ['rule', 'expert']);
    fillSelect($('#job-profile'), catalog.profiles.map((p) => ({ value: p })), 'default');
    $('#job-form').addEventListener('submit', submit);
    $('#more').addEventListener('click', () => load(cursor));
    await load(null);
  } catch (error) {
    showError(error);
  }
  setInterval(refresh, 2000);
}

function boxes(container, name, values, checked) {
  container.replaceChildren(...values.map((value) => h('label', { class: 'box' },
    h('input', { type: 'checkbox', name, value, checked: checked.includes(value) }), ` ${value}`)));
}

// "1000000-1000003, 7" -> [1000000, 1000001, 1000002, 1000003, 7]
function parseSeeds(text) {
  const seeds = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = part.match(/^(\d+)-(\d+)$/);
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      if (hi < lo || hi - lo >= 1000) throw new Error(`seed range ${part}: at most 1000 seeds, low to high`);
      for (let s = lo; s <= hi; s++) seeds.push(s);
    } else if (/^\d+$/.test(part)) {
      seeds.push(Number(part));
    } else {
      throw new Error(`"${part}" is not a seed or a range of seeds`);
    }
  }
  return seeds;
}

async function submit(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const button = $('#submit-job');
  button.disabled = true;
  try {
    const body = { kind: 'benchmark', tasks: form.getAll('tasks'), policies: form.getAll('policies'),
      seeds: parseSeeds(form.get('seeds')), profile: form.get('profile') };
    const job = await api('/v1/jobs', { method: 'POST', body });
    notice(`Submitted job ${shortId(job.id)}: ${job.episodes_total} episodes.`);
    jobs = new Map([[job.id, job], ...jobs]);
    render();
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

async function load(before) {
  const page = await api(`/v1/jobs?limit=50${before ? `&cursor=${encodeURIComponent(before)}` : ''}`);
  for (const job of page.items) jobs.set(job.id, job);
  cursor = page.next_cursor;
  $('#more').hidden = !cursor;
  render();
}

// Progress of the jobs on screen that are still going.
async function refresh() {
  const live = [...jobs.values()].filter((j) => !FINISHED.includes(j.status));
  if (!live.length || document.hidden) return;
  try {
    for (const job of await Promise.all(live.map((j) => api(`/v1/jobs/${j.id}`)))) jobs.set(job.id, job);
    render();
  } catch (error) {
    showError(error);
  }
}

async function cancel(job) {
  try {
    jobs.set(job.id, await api(`/v1/jobs/${job.id}/cancel`, { method: 'POST' }));
    notice(`Cancelled job ${shortId(job.id)}; its queued and running episodes are cancelled (finished ones are kept).`);
    render();
  } catch (error) {
    showError(error);
  }
}

// The bar and the count are what ran (completed + failed): a cancelled job with 2 of 10
// episodes run shows 2/10, then how many failed and how many were cancelled.
function progress(job) {
  const p = job.progress;
  const ran = job.episodes_ran ?? p.completed + p.failed;
  const notes = [p.running && `${p.running} running`, p.failed && `${p.failed} failed`,
    p.cancelled && `${p.cancelled} cancelled`].filter(Boolean);
  return h('span', { class: 'progress' },
    h('progress', { max: job.episodes_total, value: ran, class: p.failed ? 'with-failures' : '', 'aria-label': `Job ${shortId(job.id)} progress` }),
    ` ${ran}/${job.episodes_total} ran${notes.length ? ` (${notes.join(', ')})` : ''}`);
}

const STATUS_LABEL = { completed_with_errors: 'completed with errors' };
// A job that did not simply succeed: its row is marked (a coloured edge and a sign, with
// words for a screen reader) and says why under its status.
const MARKS = {
  completed_with_errors: ['errors', '⚠', 'some episodes failed'],
  failed: ['failed', '✗', 'every episode failed'],
  cancelled: ['cancelled', '⊘', 'cancelled before every episode ran'],
};

function status(job) {
  const badge = h('span', { class: `badge ${job.status}` }, STATUS_LABEL[job.status] ?? job.status);
  const mark = MARKS[job.status];
  if (!mark) return badge;
  return [h('span', { class: 'mark', 'aria-hidden': 'true' }, `${mark[1]} `), badge,
    h('span', { class: 'why' }, job.error ? `${mark[2]}: ${job.error}` : mark[2])];
}

// "gen-banner × 4 seeds × random, rule"; dataset tasks: "× 3 items" or "× items 0–10"
function describe(job) {
  const { tasks = [], seeds, items, item_range: range, policies, policy, group_size: size } = job.spec;
  const who = policies ? policies.join(', ') : `${policy}, groups of ${size}`;
  const what = tasks.length > 3 ? `${tasks.length} tasks` : tasks.join(', ');
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const which = [seeds && plural(seeds.length, 'seed'), items && plural(items.length, 'item'),
    range && `items ${range.start}–${range.stop ?? 'end'}`].filter(Boolean).join(' + ');
  return `${job.kind}: ${what} × ${which} × ${who}`;
}

function render() {
  if (!jobs.size) {
    $('#jobs').replaceChildren(h('p', { class: 'muted' }, 'No jobs yet.'));
    return;
  }
  $('#jobs').replaceChildren(table([
    { label: 'Job', value: (j) => h('a', { href: `/ui/benchmark?job=${j.id}` }, shortId(j.id)) },
    { label: 'What', value: describe },
    { label: 'Status', value: status },
    { label: 'Progress', value: progress },
    { label: 'Created', value: (j) => fmtTime(j.created_at) },
    { label: 'Actions', value: (j) => (FINISHED.includes(j.status) ? ''
      : h('button', { type: 'button', class: 'secondary small', onclick: () => cancel(j), 'aria-label': `Cancel job ${shortId(j.id)}` }, 'Cancel')) },
  ], [...jobs.values()], { caption: 'Jobs, newest first',
    rowAttrs: (j) => ({ 'data-job': j.id, class: MARKS[j.status] ? `job-${MARKS[j.status][0]}` : null }) }));
}

init();
