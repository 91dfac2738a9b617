"""A single-turn episode: prompt -> policy -> completion -> render -> reward -> record.

The html, svg and webpage families run here, embedded and in workers alike. The
family record supplies every step (``designrl.tasks.family.Family``); this file
only sequences them and turns each way an episode can go wrong into a recorded
outcome: a completion with no document is ``invalid_output``, a page that does not
render ``render_failed`` or ``timeout``, a policy that cannot answer (a server
error, a prediction set without the item) ``error``, and a browser lost on every
try (``InfrastructureError``: not the design's doing) ``infra_error``; the last two
have no reward.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from designrl.policies import InferenceServer, make_completion_policy
from designrl.render.types import InfrastructureError
from designrl.rollout.browser import process_runner
from designrl.rollout.record import EpisodeRecord
from designrl.tasks import find_item, get_family, reference_screenshot
from designrl.tasks.family import Family, ItemScorer

if TYPE_CHECKING:
    from designrl.judge import JudgeConfig
    from designrl.policies.completion import PredictionLookup, Turn
    from designrl.render.runner import PoolRunner
    from designrl.rollout.episode import EpisodeSpec

log = logging.getLogger(__name__)
SCORE_TIMEOUT_S = 240.0  # a scoring that outlives this is a recorded time-out
# The record keeps at most this much of a completion (the renderer refuses pages over
# 2 MB anyway); a longer one is cut and its length noted, so a 50 MB answer is scored
# as the failure it is without being stored and served whole.
MAX_STORED_COMPLETION = 1_000_000


@dataclass
class EpisodeContext:
    """What an episode may use beyond its spec. ``datasets`` maps the dataset names a
    server's operator registered to their paths; with ``paths_allowed`` (embedded runs)
    a spec's ``source`` may also be a path of the user's. ``judge``: a judge model's
    endpoint, which families that have a judge score with (their own kind of judge)."""

    server: InferenceServer | None = None
    browser: Callable[[], PoolRunner] = process_runner
    predictions: PredictionLookup | None = None
    datasets: Mapping[str, str] = field(default_factory=dict)
    paths_allowed: bool = True
    judge: JudgeConfig | None = None
    _scorers: dict[tuple[str, int], ItemScorer] = field(default_factory=dict, repr=False)

    def source_path(self, source: str | None) -> str | None:
        if source is None or source in self.datasets:
            return None if source is None else self.datasets[source]
        if not self.paths_allowed:
            known = ", ".join(self.datasets) or "none are registered"
            raise ValueError(f"unknown dataset {source!r}; registered: {known}")
        return source

    def scorer(self, family: Family, runner: PoolRunner) -> ItemScorer:
        """One scorer per family and pool (scorers cache reference renders), with the
        family's judge when one is configured and the family has one."""
        key = (family.name, id(runner.pool))
        if key not in self._scorers:
            if self.judge is not None and family.judge is not None:
                judge = family.judge.from_config(self.judge)
                self._scorers[key] = family.scorer(runner.pool, judge)
            else:
                self._scorers[key] = family.scorer(runner.pool)
        return self._scorers[key]


def run_single_turn(spec: EpisodeSpec, context: EpisodeContext) -> EpisodeRecord:
    """Run one html, svg or webpage episode; every failure past the spec is a record."""
    started = time.perf_counter()
    family = get_family(spec.family)
    key = spec.item_key if spec.item_key is not None else spec.seed
    item = find_item(spec.task_id, key, context.source_path(spec.source))
    seed = spec.sampling_seed if spec.sampling_seed is not None else (spec.seed or 0)
    policy = make_completion_policy(family, spec.policy, seed, temperature=spec.temperature,
                                    server=context.server, version=spec.policy_version,
                                    predictions=context.predictions,
                                    max_tokens=spec.max_tokens)
    try:
        runner = context.browser()
        turn = _answer(family, policy, item, runner, spec.task_id)
    except InfrastructureError as exc:  # the reference's render lost its browser
        return _infra_error(exc, started, _summary(family, item, None))
    except Exception as exc:  # noqa: BLE001 - whatever the policy raised is the outcome
        log.info("%s on %s %s: %s", spec.policy, spec.task_id, key, exc)
        return EpisodeRecord(outcome="error", error=_policy_error(exc, family),
                             seconds=_since(started), summary=_summary(family, item, None))
    try:
        scored = runner.run(context.scorer(family, runner).score_item(item, turn.text),
                            SCORE_TIMEOUT_S)
    except InfrastructureError as exc:
        record = _infra_error(exc, started, _summary(family, item, turn))
        record.completion = _stored(turn.text)
        return record
    except TimeoutError:
        return EpisodeRecord(outcome="timeout", error=f"scoring over {SCORE_TIMEOUT_S:g}s",
                             completion=_stored(turn.text), seconds=_since(started),
                             summary=_summary(family, item, turn))
    except Exception as exc:  # noqa: BLE001 - the scorer broke (a reference that does not
        # render, a browser that died): recorded with no reward, never a score of 0
        log.warning("scoring %s %s failed: %s", spec.task_id, key, exc)
        return EpisodeRecord(outcome="error", error=f"scoring failed: {type(exc).__name__}: "
                             f"{exc}"[:500], completion=_stored(turn.text),
                             seconds=_since(started), summary=_summary(family, item, turn))
    summary = _summary(family, item, turn, valid=scored.outcome != "invalid_output")
    summary["details"] = scored.details
    return EpisodeRecord(
        outcome=scored.outcome, error=scored.error, completion=_stored(turn.text),
        total_reward=scored.total, final_score=scored.total, rewards=scored.components,
        seconds=_since(started), summary=summary, images=scored.images)


def _infra_error(exc: InfrastructureError, started: float, summary: dict[str, Any]
                 ) -> EpisodeRecord:
    log.warning("render infrastructure failed: %s", exc)
    return EpisodeRecord(outcome="infra_error", error=str(exc)[:500], seconds=_since(started),
                         summary=summary)


def _answer(family: Family, policy, item: Any, runner: PoolRunner, task_id: str) -> Turn:
    messages = None
    if policy.needs_messages:
        screenshot = (reference_screenshot(family, item, runner, task_id)
                      if family.reference is not None else None)
        messages = family.messages(item, screenshot)
    return policy.complete(item, messages)


def _policy_error(exc: Exception, family: Family) -> str:
    """What went wrong, in words; a server refusing a prompt with an image says why."""
    text = f"{type(exc).__name__}: {exc}"[:500]
    refused = getattr(exc, "status_code", None) == 400
    if refused and family.reference is not None and (
            "multimodal" in text.lower() or "image" in text.lower()):
        return (f"the model does not take images (a {family.name} prompt shows the "
                f"reference's screenshot): {text}")
    return text


def _summary(family: Family, item: Any, turn: Turn | None, valid: bool = True
             ) -> dict[str, Any]:
    summary: dict[str, Any] = {"family": family.name, "item_id": item.id}
    if turn is not None and len(turn.text) > MAX_STORED_COMPLETION:
        summary["completion_chars"] = len(turn.text)  # what was cut to MAX_STORED_COMPLETION
    if turn is not None and turn.messages is not None:  # a language model's tokens, for GRPO
        summary["policy_stats"] = turn.stats(valid)
    return summary


def _stored(text: str) -> str:
    return text[:MAX_STORED_COMPLETION]


def _since(started: float) -> float:
    return time.perf_counter() - started
