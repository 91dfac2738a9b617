"""Run many layout episodes with one language model in lockstep, one batched call a round.

``run_layout_batch`` is ``run_episode`` with ``LLMLayoutPolicy`` for a whole batch of
``(task_id, seed)`` pairs (a pair may repeat: a GRPO group samples one task G
times). Each round asks the backend once for a completion per unfinished episode,
parses each strictly, and steps each env; an invalid completion goes to the env as
its raw text, so it is a recorded invalid step, exactly as the policy does it. The
records have ``run_episode``'s shape (``policy_stats`` included), so
``EpisodeRecord.from_layout`` takes them.

Greedy (``temperature == 0``) rollouts take the same actions as one episode at a
time, up to float ties under padding. With sampling, round ``r`` draws with the
seed ``step_seed(sample_seed, r)``, so the same call gives the same episodes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from designrl.inference.types import Backend
from designrl.policies.llm.layout_policy import EpisodeStats, step_seed
from designrl.rollout.layout_episode import episode_record, step_entry
from designrl.tasks.layout.env import LayoutEnv, LayoutObservation
from designrl.tasks.layout.prompt import PromptStyle, layout_messages

DEFAULT_STEP_LIMIT = 64  # run_episode's


@dataclass
class _Episode:
    task_id: str
    seed: int
    env: LayoutEnv
    obs: LayoutObservation
    first: LayoutObservation
    before: dict[str, Any]
    stats: EpisodeStats = field(default_factory=EpisodeStats)
    steps: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def run_layout_batch(backend: Backend, episodes: Sequence[tuple[str, int]], *,
                     temperature: float = 0.0, sample_seed: int = 0,
                     prompt_style: PromptStyle | None = None, max_tokens: int = 96,
                     step_limit: int | None = None, profile: str = "default",
                     name: str = "llm") -> list[dict[str, Any]]:
    """Roll out every ``(task_id, seed)`` episode; one record per pair, in order. The
    prompt style is the backend's (what its model was trained on) unless given."""
    prompt_style = prompt_style or getattr(backend, "prompt_style", "compact")
    started = time.perf_counter()
    limit = DEFAULT_STEP_LIMIT if step_limit is None else step_limit
    runs = []
    for task_id, seed in episodes:
        env = LayoutEnv(profile=profile)
        obs = env.reset(task_id=task_id, seed=seed)
        runs.append(_Episode(task_id, seed, env, obs, obs, env.episode.layout.to_json()))
    for run in runs:
        run.seconds = time.perf_counter() - started
    rnd = 0
    while live := [r for r in runs if not r.obs.done and len(r.steps) < limit]:
        prompts = [layout_messages(r.obs, prompt_style) for r in live]
        completions = backend.complete(prompts, n=1, temperature=temperature,
                                       max_tokens=max_tokens,
                                       seed=step_seed(sample_seed, rnd, temperature))
        for run, messages, (completion, *_) in zip(live, prompts, completions, strict=True):
            parsed = run.stats.add_turn(messages, completion)
            action = parsed.action if parsed.valid else completion.text
            run.obs = run.env.step(action)
            run.steps.append(step_entry(action, run.obs))
            run.seconds = time.perf_counter() - started
        rnd += 1
    return [_record(run, name) for run in runs]


def _record(run: _Episode, name: str) -> dict[str, Any]:
    """``run_episode``'s record for one finished episode."""
    record = episode_record(name, run.task_id, run.seed, run.env, run.first, run.obs,
                            run.steps, run.before, run.seconds)
    record["policy_stats"] = run.stats.summary()
    return record
