// How a single-turn episode (html, svg, webpage) looks on the Run and Episode pages: its
// outcome, its renders, its reward components as bars, what each family checked (svg's
// requirement checklist, webpage's interaction log and findings) and the completion's source.
import { loadImage } from './api.js';
import { fmt, h, table } from './dom.js';

// What an outcome means, in words (the API's outcome names are the keys).
const OUTCOMES = {
  ok: 'rendered and scored',
  invalid_output: 'invalid output: the completion held no document to render',
  render_failed: 'render failed',
  timeout: 'timed out',
  error: 'error',
  infra_error: 'infrastructure error (left out of every mean)',
};

export const outcomeText = (outcome) => OUTCOMES[outcome] ?? outcome ?? 'not finished';

// "seed 1000000" or "item traffic-light"
export const itemLabel = (episode) => (episode.seed !== null && episode.seed !== undefined
  ? `seed ${episode.seed}` : `item ${episode.item_key}`);

// "svg-prompts item traffic-light"
export const itemName = (episode) => `${episode.task_id} ${itemLabel(episode)}`;

// The policy's name, marked when it is an oracle (it sees the answer: a ceiling, not a model).
export function policyLabel(policy, family) {
  return family?.oracles?.includes(policy) ? `${policy} (oracle)` : policy;
}

// What the candidate image is, per family: [caption, alt text].
const CANDIDATE = {
  html: (e) => ['Candidate: the page the policy wrote',
    `Screenshot of the page that ${e.policy} wrote for ${itemName(e)}`],
  svg: (e) => ['The SVG as drawn',
    `Render of the SVG that ${e.policy} drew for ${itemName(e)}`],
  webpage: (e) => ['The page after loading',
    `Screenshot of the page that ${e.policy} built for ${itemName(e)}`],
};

export function candidateWords(episode) {
  return (CANDIDATE[episode.family] ?? ((e) => ['Candidate render',
    `Render of ${e.policy}'s answer for ${itemName(e)}`]))(episode);
}

// An image fetched with the API key in a box of its own: a tall page screenshot scrolls
// inside the box (which then takes keyboard focus), never stretching the page.
export function shot(path, caption, alt) {
  const img = h('img', { alt, width: 480, height: 360 }); // decoded when painted, even off screen
  const box = h('div', { class: 'shot' }, img);
  const figure = h('figure', { class: 'frame' }, box, h('figcaption', {}, caption));
  img.addEventListener('load', () => {
    if (box.scrollHeight > box.clientHeight + 1) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', `${caption} (scrolls)`);
    }
  }, { once: true });
  loadImage(img, path).catch((error) => figure.append(h('p', { class: 'error' }, error.message)));
  return figure;
}

// "Outcome: ok (rendered and scored) · total reward 0.992", and the error when there is one.
export function outcomeLine(episode) {
  const ok = episode.outcome === 'ok';
  const line = h('p', { class: `outcome ${ok ? 'ok' : 'bad'}`, 'data-outcome': episode.outcome ?? '' },
    h('strong', {}, 'Outcome: '), episode.outcome ? `${episode.outcome} (${outcomeText(episode.outcome)})`
      : episode.status, ' · total reward ', h('strong', {}, fmt(episode.total_reward)));
  return episode.error
    ? [line, h('p', { class: 'error episode-error' }, h('strong', {}, 'Error: '), episode.error)]
    : line;
}

const nice = (name) => name.replaceAll('_', ' ');

function bar(value) {
  const fill = h('span', { class: 'fill' });
  fill.style.width = `${Math.max(0, Math.min(1, value)) * 100}%`; // CSSOM: allowed by the CSP
  return h('span', { class: 'bar', 'aria-hidden': 'true' }, fill);
}

// The reward's components as bars (0 to 1), in the family's order, under the total.
export function componentBars(episode, family) {
  const rewards = episode.rewards ?? {};
  const names = [...(family?.components ?? []), ...Object.keys(rewards)]
    .filter((name, i, all) => all.indexOf(name) === i);
  const row = (name, value, attrs = {}) => h('tr', attrs,
    h('th', { scope: 'row' }, name),
    h('td', { class: 'num' }, value === undefined || value === null ? 'not scored' : fmt(value)),
    h('td', { class: 'bar-cell' }, value === undefined || value === null ? null : bar(value)));
  return h('div', { class: 'scroll components', tabindex: '0', role: 'region', 'aria-label': 'Reward components' },
    h('table', { class: 'bars' },
      h('caption', {}, 'Reward and its components, 0 to 1 (“not scored”: the reward stopped before it)'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Component'), h('th', { scope: 'col', class: 'num' }, 'Score'),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Bar')))),
      h('tbody', {}, row('total reward', episode.total_reward, { class: 'total' }),
        names.map((name) => row(nice(name), rewards[name], { 'data-component': name })))));
}

// The completion's source, one click away.
export function completionSource(episode) {
  if (episode.completion === null || episode.completion === undefined) return null;
  const size = `${episode.completion.length.toLocaleString('en')} characters`;
  return h('details', { class: 'raw completion' },
    h('summary', {}, `Completion: the policy's answer (${size})`),
    h('pre', { tabindex: '0', 'aria-label': 'Completion source' }, h('code', {}, episode.completion)));
}

// ---- per family ----------------------------------------------------------------------

function htmlView(episode) {
  const { links } = episode;
  const nodes = [];
  if (links.reference || links.candidate) {
    nodes.push(h('div', { class: 'pair' },
      links.reference ? shot(links.reference, 'Reference: the page to reproduce',
        `Screenshot of the reference page for ${itemName(episode)} (the page to reproduce)`)
        : h('p', { class: 'muted' }, 'No reference image stored.'),
      links.candidate ? shot(links.candidate, ...candidateWords(episode))
        : h('p', { class: 'muted' }, 'No candidate image: nothing rendered.')));
  }
  if (episode.details?.blank) nodes.push(h('p', { class: 'muted' }, 'The page rendered blank, so it scores 0.'));
  return nodes;
}

const VERDICTS = {
  pass: ['Passed', '✓'],
  fail: ['Failed', '✗'],
  unchecked: ['Undecided', '?'],
};
const ATOM_MARKS = { true: '✓', false: '✗', null: '?' };

// svg: each requirement with its verdict: passed, failed, or undecided (counted as half a
// pass with no judge, left to the judge model when one is set), and the atoms it was read into.
export function checklist(requirements) {
  const count = (v) => requirements.filter((r) => r.verdict === v).length;
  const tally = `${count('pass')} passed, ${count('fail')} failed, ${count('unchecked')} undecided`
    + ` (of ${requirements.length}; undecided ones count half, or go to the judge when one is set)`;
  const atoms = (r) => r.atoms.map((a) => `${ATOM_MARKS[a.verdict] ?? '?'} ${a.check}`
    + (a.detail ? ` (${a.detail})` : '')).join('; ');
  return [
    h('p', { class: 'tally' }, tally),
    h('ul', { class: 'checklist', 'aria-label': 'Requirements' }, requirements.map((r) => {
      const [word, mark] = VERDICTS[r.verdict] ?? [r.verdict, '·'];
      const read = r.atoms?.length ? atoms(r) : [r.check && `check: ${r.check}`, r.detail]
        .filter(Boolean).join(' · ');
      const how = [read, r.source && `by ${r.source}`,
        r.judge && `judge: ${typeof r.judge === 'string' ? r.judge : JSON.stringify(r.judge)}`]
        .filter(Boolean).join(' · ');
      return h('li', { class: `verdict-${r.verdict}`, 'data-verdict': r.verdict },
        h('span', { class: 'verdict' }, h('span', { 'aria-hidden': 'true' }, `${mark} `), word),
        h('span', { class: 'requirement' }, r.requirement, how ? h('span', { class: 'how' }, how) : null));
    })),
  ];
}

function svgView(episode) {
  const details = episode.details ?? {};
  const requirements = details.requirements ?? [];
  const side = [h('h4', {}, 'Requirements')];
  side.push(...(requirements.length ? checklist(requirements)
    : [h('p', { class: 'muted' }, 'No requirement was checked.')]));
  if (details.warnings?.length) {
    side.push(h('h4', {}, 'Warnings'), h('ul', {}, details.warnings.map((w) => h('li', {}, String(w)))));
  }
  if (details.judge_error) side.push(h('p', { class: 'error' }, `Judge: ${details.judge_error}`));
  return [h('div', { class: 'split' },
    episode.links.candidate ? shot(episode.links.candidate, ...candidateWords(episode))
      : h('p', { class: 'muted' }, 'No render: nothing was drawn.'),
    h('div', { class: 'checks' }, side))];
}

const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const pct = (x) => `${Math.round(100 * x)}%`;

// webpage: what each static check found, in words.
const FINDINGS = {
  axe: (d) => (d.error ? `axe-core did not run: ${d.error}`
    : d.violations?.length ? `${plural(d.violations.length, 'violation')}: ${d.violations
      .map((v) => `${v.id} (${v.impact ?? 'no impact'}, ${plural(v.nodes, 'node')})`).join(', ')}`
      : 'no violations'),
  contrast: (d) => (d.failing_examples?.length
    ? `${d.failing_examples.length} of ${d.blocks} text blocks fall short: ${d.failing_examples
      .map((x) => `“${x.text}” ${x.ratio}:1 (needs ${x.need}:1)`).join('; ')}`
    : `all ${plural(d.blocks ?? 0, 'text block')} readable`),
  overlap: (d) => (d.overlapping_pairs || d.occluded
    ? `${plural(d.overlapping_pairs ?? 0, 'overlapping pair')}, ${plural(d.occluded ?? 0, 'element')} hidden under another`
    : 'no elements overlap'),
  text_fit: (d) => (d.clipped || d.overflowing || d.page_overflow_px
    ? `${d.clipped} clipped, ${d.overflowing} overflowing of ${d.units} text units`
      + `${d.page_overflow_px ? `; the page is ${d.page_overflow_px}px wider than the window` : ''}`
    : `all ${plural(d.units ?? 0, 'text unit')} fit`),
  alignment: (d) => `${d.aligned} of ${d.units} units share an edge or centre with another`
    + ` (${d.x_aligned} horizontally)`,
  type_scale: (d) => (Array.isArray(d.levels)
    ? `${plural(d.levels.length, 'text size')}: ${d.levels.join(', ')} px; body text ${d.body_px} px`
    : 'no text sizes found'),
  whitespace: (d) => (d.empty_share === null || d.empty_share === undefined ? 'not measured'
    : `${pct(d.empty_share)} of the page is empty space; left–right balance ${fmt(d.balance, 2)}`),
  color_harmony: (d) => `${plural(d.dominant ?? 0, 'dominant colour')}, ${d.chromatic ?? 0} of them vivid`,
};

function swatches(palette) {
  const SVG = 'http://www.w3.org/2000/svg';
  return h('span', { class: 'palette' }, palette.map((colour) => {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('aria-hidden', 'true');
    const rect = document.createElementNS(SVG, 'rect');
    for (const [k, v] of Object.entries({ width: 16, height: 16, rx: 3, fill: colour, stroke: '#8a8a94' })) {
      rect.setAttribute(k, v);
    }
    svg.append(rect);
    return h('span', { class: 'colour' }, svg, h('code', {}, colour));
  }));
}

// webpage: what the request named and what of it the rendered page shows.
function instructionFound(info) {
  if (info.checkable === false) return 'nothing in the request could be checked';
  const parts = info.atoms ?? [];
  const named = (found) => parts.filter((a) => a.found === found).map((a) => a.target).join(', ');
  return [named(true) && `found: ${named(true)}`, named(false) && `missing: ${named(false)}`,
    info.missing_terms?.length && `request words not on the page: ${info.missing_terms.join(', ')}`,
    info.echo_units && `${plural(info.echo_units, 'passage')} copying the request (not counted)`,
    info.stuffed && 'keyword stuffing (not counted)'].filter(Boolean).join('; ');
}

function findings(episode) {
  const details = episode.details ?? {};
  const rewards = episode.rewards ?? {};
  const rows = [];
  const errors = details.page_errors ?? [];
  rows.push({ check: 'execution', score: rewards.execution,
    found: [errors.length ? `page errors: ${errors.join(' | ')}` : 'no page errors',
      plural(details.console_errors ?? 0, 'console error'),
      `${plural(details.blocked_requests ?? 0, 'request')} blocked`,
      plural(details.dialogs ?? 0, 'dialog'),
      details.failure && `failure: ${details.failure}`].filter(Boolean).join('; ') });
  if (details.blank) {
    rows.push({ check: 'non blank', score: rewards.non_blank,
      found: [details.blank.reason, details.blank.ink_share !== undefined
        && `${pct(details.blank.ink_share)} of the screenshot is ink`].filter(Boolean).join('; ') });
  }
  for (const [name, info] of Object.entries(details.static ?? {})) {
    const say = FINDINGS[name] ?? ((d) => JSON.stringify(d));
    let found;
    try {
      found = info?.error ? `did not run: ${info.error}` : say(info ?? {});
    } catch {
      found = JSON.stringify(info);
    }
    rows.push({ check: nice(name), score: rewards[name], found,
      extra: name === 'color_harmony' && info?.palette?.length ? swatches(info.palette) : null });
  }
  if (details.instruction) {
    rows.push({ check: 'instruction', score: rewards.instruction, found: instructionFound(details.instruction) });
  }
  if (details.facts_error) rows.push({ check: 'layout facts', found: `read from the render instead: ${details.facts_error}` });
  if (details.judge) {
    rows.push({ check: 'judge', score: rewards.judge,
      found: details.judge.error ? `no verdict: ${details.judge.error}` : JSON.stringify(details.judge.parts ?? details.judge) });
  }
  return table([
    { label: 'Check', value: (r) => r.check },
    { label: 'Score', value: (r) => (r.score === undefined ? '–' : fmt(r.score)), numeric: true },
    { label: 'What it found', value: (r) => [r.found, r.extra] },
  ], rows, { caption: 'Findings: what each check saw on the rendered page' });
}

function interactionLog(details) {
  const log = details.interactions;
  if (!log) return [h('p', { class: 'muted' }, 'No interaction was tried (the page did not load).')];
  const available = Object.entries(log.available ?? {}).filter(([, n]) => n)
    .map(([kind, n]) => plural(n, kind)).join(', ') || 'nothing to try';
  const summary = `${log.passed} of ${plural(log.attempted, 'interaction')} passed; on the page: ${available}`
    + `${log.restless ? '; the page changes on its own' : ''}${log.stopped ? `; stopped early: ${log.stopped}` : ''}.`;
  if (!log.records?.length) return [h('p', { class: 'tally' }, summary)];
  return [h('p', { class: 'tally' }, summary), table([
    { label: '#', value: (r) => String(r.index + 1), numeric: true },
    { label: 'Kind', value: (r) => r.kind },
    { label: 'Target', value: (r) => r.label },
    { label: 'Result', value: (r) => h('span', { class: r.passed ? 'pass' : 'fail' },
      r.passed ? 'passed' : `failed${r.reason ? `: ${r.reason.replaceAll('_', ' ')}` : ''}`) },
    { label: 'Seen through', value: (r) => (r.via ?? []).join(', ') || '–' },
    { label: 'DOM changes', value: (r) => String(r.mutations ?? 0), numeric: true },
    { label: 'Pixels changed', value: (r) => String(r.changed_pixels ?? 0), numeric: true },
    { label: 'Seconds', value: (r) => fmt(r.seconds, 2), numeric: true },
  ], (log.records ?? []).map((r, index) => ({ ...r, index })),
  { caption: 'Interaction log: each control tried, in order', rowAttrs: (r) => ({ class: r.passed ? null : 'invalid' }) })];
}

function webpageView(episode) {
  const details = episode.details ?? {};
  return [
    episode.links.candidate ? shot(episode.links.candidate, ...candidateWords(episode))
      : h('p', { class: 'muted' }, 'No screenshot: the page did not render.'),
    h('h4', {}, 'Interactions'), ...interactionLog(details),
    h('h4', {}, 'Findings'), findings(episode),
  ];
}

// Any other single-turn family: each stored image.
function imagesView(episode) {
  return [h('div', { class: 'frames' }, (episode.images ?? []).map((name) =>
    shot(episode.links[name], name, `${name} image of episode ${episode.id}`)))];
}

const VIEWS = { html: htmlView, svg: svgView, webpage: webpageView };

// The whole view of a finished single-turn episode; family is its catalog record.
export function singleTurnView(episode, family) {
  const view = VIEWS[episode.family] ?? imagesView;
  return h('div', { class: `single-turn family-${episode.family}` },
    outcomeLine(episode), view(episode),
    h('h4', {}, 'Reward components'), componentBars(episode, family),
    completionSource(episode));
}
