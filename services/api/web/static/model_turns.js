// A language model's episode on the Episode page: what it was asked (the prompt), what it
// wrote, in its own words, and its tokens, turn by turn (summary.policy_stats.turns).
import { fmt, h } from './dom.js';

const RAN = {
  model: 'its action ran',
  fallback: 'invalid: the fallback policy acted instead',
  invalid: 'invalid: the step was rejected',
};
const TOKENS_SHOWN = 400;

export const modelTurns = (episode) => episode.summary?.policy_stats?.turns ?? [];

function prompt(messages, n) {
  if (!messages?.length) return null;
  return h('details', { class: 'raw prompt' }, h('summary', {}, `Prompt of turn ${n} (${messages.length} messages)`),
    messages.map((m) => h('div', { class: 'message' }, h('p', { class: 'role' }, m.role),
      h('pre', { tabindex: '0', 'aria-label': `${m.role} message of turn ${n}` }, h('code', {}, String(m.content ?? ''))))));
}

function tokens(turn, n) {
  const ids = turn.token_ids ?? [];
  if (!ids.length) return null;
  const logprobs = turn.logprobs ?? [];
  const shown = ids.slice(0, TOKENS_SHOWN).map((id, i) => (logprobs[i] === undefined ? String(id)
    : `${id} (${fmt(logprobs[i], 2)})`)).join(' ');
  return h('details', { class: 'raw tokens' },
    h('summary', {}, `Tokens of turn ${n}: ${ids.length}${logprobs.length ? ', with log-probabilities' : ''}`),
    h('pre', { tabindex: '0', 'aria-label': `Token ids of turn ${n}` }, h('code', {},
      shown + (ids.length > TOKENS_SHOWN ? ` … (${ids.length - TOKENS_SHOWN} more)` : ''))));
}

// One <li> per turn: the text, how it went, its prompt and tokens one click away.
export function turnsView(episode) {
  const turns = modelTurns(episode);
  if (!turns.length) return null;
  const stats = episode.summary.policy_stats;
  const totals = [stats.prompt_tokens !== undefined && `${stats.prompt_tokens} prompt tokens`,
    stats.completion_tokens !== undefined && `${stats.completion_tokens} completion tokens`,
    stats.llm_seconds !== undefined && `${fmt(stats.llm_seconds, 2)} s in the model`].filter(Boolean).join(', ');
  return h('section', { class: 'model-turns', 'aria-labelledby': 'model-turns-title' },
    h('h3', { id: 'model-turns-title' }, 'What the model wrote'),
    totals ? h('p', { class: 'hint' }, `${turns.length} turn${turns.length === 1 ? '' : 's'}; ${totals}.`) : null,
    h('ol', { class: 'turns' }, turns.map((turn, i) => h('li', { class: `turn ran-${turn.ran ?? 'model'}`, 'data-turn': i },
      h('p', { class: 'turn-head' }, h('strong', {}, `Turn ${i + 1}`), ` · ${RAN[turn.ran] ?? turn.ran ?? ''}`,
        turn.finish_reason && turn.finish_reason !== 'stop' ? ` · stopped: ${turn.finish_reason}` : '',
        turn.error ? h('span', { class: 'error' }, ` · ${turn.error}`) : null),
      h('pre', { class: 'completion-text', tabindex: '0', 'aria-label': `Text of turn ${i + 1}` },
        h('code', {}, turn.completion ?? '')),
      prompt(turn.messages, i + 1), tokens(turn, i + 1)))));
}

// The brief a layout episode worked to: its goal and where each required element belongs.
export function briefView(brief) {
  if (!brief) return null;
  const regions = Object.entries(brief.required_regions ?? {});
  return h('div', { class: 'brief' },
    h('p', {}, h('strong', {}, 'Brief: '), brief.primary_goal || brief.brief_id || '–'),
    regions.length ? [h('p', { class: 'hint' }, 'Dashed boxes on the images are its target regions:'),
      h('ul', { class: 'regions' }, regions.map(([element, region]) => h('li', {},
        h('code', {}, element), ' → ', h('code', {}, region))))] : null);
}
