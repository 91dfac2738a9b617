// How an episode looks on the Run and Episode pages: its numbers, images, trajectory and JSON.
import { loadImage } from './api.js';
import { fmt, fmtPercent, fmtSigned, h, table, tableRow } from './dom.js';

export const stepImage = (episodeId, index) => `/v1/episodes/${episodeId}/steps/${index}.svg`;

export function actionLabel(action) {
  if (!action) return '–';
  if (Object.keys(action).length === 1 && 'raw' in action) { // a model's text that was no action
    const text = String(action.raw).replace(/\s+/g, ' ').trim();
    return `model text: “${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`;
  }
  const subject = action.element_id ?? action.group_id ?? action.element_ids?.join(', ');
  const target = action.region_id ?? action.template_id;
  return [action.action_type ?? '?', subject, target && `→ ${target}`].filter(Boolean).join(' ');
}

// A figure whose image is fetched with the API key; alt says what the picture shows.
export function frame(path, caption, alt) {
  const img = h('img', { alt, width: 480, height: 360, decoding: 'async' });
  const figure = h('figure', { class: 'frame' }, img, h('figcaption', {}, caption));
  loadImage(img, path).catch((error) => figure.append(h('p', { class: 'error' }, error.message)));
  return figure;
}

export function beforeAfter(episode) {
  const { id, links } = episode;
  if (!links.before) return h('p', { class: 'muted' }, 'No images: not a finished layout episode.');
  return h('div', { class: 'pair' },
    frame(links.before, `Before · score ${fmt(episode.start_score)}`, `Layout before the first step of episode ${id}`),
    frame(links.after, `After ${episode.steps_count} steps · score ${fmt(episode.final_score)}`,
      `Layout after the last step of episode ${id}`));
}

// The episode's numbers; family is its catalog record (a single-turn episode has no steps,
// scores or actions to show: its total reward and outcome instead).
export function facts(episode, family) {
  const item = episode.seed !== null && episode.seed !== undefined ? `seed ${episode.seed}` : `item ${episode.item_key}`;
  const status = episode.outcome ? `${episode.status} (${episode.outcome})` : episode.status;
  const items = family && !family.multi_turn ? [
    ['Task', `${episode.task_id} (${item})`], ['Family', episode.family], ['Policy', episode.policy],
    ['Status', status], ['Total reward', fmt(episode.total_reward)],
    ...(episode.source ? [['Dataset', episode.source]] : []), ['Attempts', episode.attempts],
    ['Seconds', fmt(episode.seconds, 3)],
  ] : [
    ['Task', `${episode.task_id} (${item})`], ['Policy', episode.policy],
    ['Profile', episode.profile ?? '–'], ['Status', status],
    ['Steps', episode.steps_count ?? '–'], ['Start score', fmt(episode.start_score)],
    ['Final score', fmt(episode.final_score)], ['Instruction score', fmt(episode.instruction_score)],
    ['Total reward', fmtSigned(episode.total_reward)], ['Valid actions', fmtPercent(episode.valid_action_rate)],
    ['Seconds', fmt(episode.seconds, 3)],
  ];
  const list = h('dl', { class: 'facts' }, items.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, String(v)))));
  return episode.error && !(family && !family.multi_turn) ? [list, h('p', { class: 'error' }, episode.error)] : list;
}

const STEP_COLUMNS = (onSelect) => [
  { label: 'Step', value: (s) => (onSelect
    ? h('button', { type: 'button', class: 'link', onclick: () => onSelect(s), 'aria-label': `Show step ${s.index + 1}` }, String(s.index + 1))
    : String(s.index + 1)), numeric: true },
  { label: 'Action', value: (s) => actionLabel(s.action) },
  { label: 'Valid', value: (s) => (s.valid ? 'yes' : 'no') },
  { label: 'Reward', value: (s) => fmtSigned(s.reward), numeric: true },
  { label: 'Score', value: (s) => fmt(s.score), numeric: true },
  { label: 'Error', value: (s) => s.error ?? '' },
];

// The trajectory table; add(step) appends a row as a step arrives.
export function trajectory(steps, onSelect) {
  const columns = STEP_COLUMNS(onSelect);
  const rowAttrs = (s) => ({ class: s.valid ? null : 'invalid' });
  const node = table(columns, steps, { caption: 'Trajectory', rowAttrs });
  const body = node.querySelector('tbody');
  return { node, add: (step) => body.append(tableRow(columns, step, rowAttrs)) };
}

export function rawJson(value, label = 'Raw JSON') {
  return h('details', { class: 'raw' }, h('summary', {}, label), h('pre', { tabindex: '0' }, h('code', {}, JSON.stringify(value, null, 2))));
}
