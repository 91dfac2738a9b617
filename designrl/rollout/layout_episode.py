"""Run one layout episode with a policy and record what happened."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from designrl.tasks.layout.env import LayoutEnv, LayoutObservation


class LayoutPolicy(Protocol):
    """Chooses the next action. White-box policies may look at ``env.episode``."""

    name: str

    def act(self, env: LayoutEnv, obs: LayoutObservation) -> dict[str, Any]: ...


def run_episode(env: LayoutEnv, policy: LayoutPolicy, task_id: str, seed: int,
                step_limit: int = 64,
                on_step: Callable[[dict[str, Any]], object] | None = None) -> dict[str, Any]:
    """Reset, act until done, and return the episode record (JSON-ready). ``on_step``
    sees each step's entry (the record's ``actions`` item) as soon as it is taken, for
    watching a live episode."""
    started = time.perf_counter()
    if hasattr(policy, "start_episode"):  # policies that keep per-episode stats (LLMs)
        policy.start_episode()
    obs = env.reset(task_id=task_id, seed=seed)
    first = obs
    before = env.episode.layout.copy()
    steps: list[dict[str, Any]] = []
    while not obs.done and len(steps) < step_limit:
        action = policy.act(env, obs)
        obs = env.step(action)
        steps.append(step_entry(action, obs))
        if on_step is not None:
            on_step(steps[-1])
    record = episode_record(policy.name, task_id, seed, env, first, obs, steps,
                            before.to_json(), time.perf_counter() - started)
    if hasattr(policy, "episode_summary"):
        record["policy_stats"] = policy.episode_summary()
    return record


def step_entry(action: Any, obs: LayoutObservation) -> dict[str, Any]:
    """One step of an episode record: the action sent and what the env made of it."""
    return {"action": action, "reward": obs.reward, "score": obs.score,
            "instruction_score": obs.instruction_score, "potential": obs.potential,
            "error": obs.last_action_error}


def episode_record(policy: str, task_id: str, seed: int, env: LayoutEnv,
                   first: LayoutObservation, obs: LayoutObservation,
                   steps: list[dict[str, Any]], before: dict[str, Any], seconds: float
                   ) -> dict[str, Any]:
    """The episode record (JSON-ready) every layout rollout returns."""
    return {
        "policy": policy,
        "task_id": task_id,
        "family": env.task.family,
        "profile": env.profile,
        "seed": seed,
        "start_score": first.score,
        "final_score": obs.score,
        "start_instruction_score": first.instruction_score,
        "instruction_score": obs.instruction_score,
        "start_potential": first.potential,
        "final_potential": obs.potential,
        "total_reward": sum(s["reward"] or 0.0 for s in steps),
        "steps": len(steps),
        "invalid_actions": env.state.invalid_actions,
        "done": obs.done,
        "seconds": seconds,
        "before": before,
        "after": env.episode.layout.to_json(),
        "actions": steps,
    }
