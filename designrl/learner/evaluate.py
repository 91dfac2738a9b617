"""Held-out evaluation of a language-model layout policy: greedy episodes on test seeds.

``evaluate_layout`` plays every task × seed greedily (``run_layout_batch``) and
reports per-step rates pooled over all steps (valid JSON; valid action, the share
of steps the env accepted; steer, the share where the model's own output ran) and
per-episode means (final score, return, potential gain), plus one row per episode.
Seeds must be test seeds, so nothing trained on is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Any

from designrl.inference.types import Backend
from designrl.rollout.layout_batch import run_layout_batch
from designrl.tasks.layout.generate import TEST_SEED_START
from designrl.tasks.layout.prompt import PromptStyle


def evaluate_layout(backend: Backend, task_ids: Sequence[str], seeds: Sequence[int], *,
                    step_limit: int = 8, prompt_style: PromptStyle | None = None,
                    max_tokens: int = 96) -> dict[str, Any]:
    """Greedy episodes on every task × held-out seed; rates, means and per-episode rows."""
    if any(seed < TEST_SEED_START for seed in seeds):
        raise ValueError(f"evaluation seeds must be test seeds (>= {TEST_SEED_START})")
    pairs = [(task_id, seed) for task_id in task_ids for seed in seeds]
    if not pairs:
        raise ValueError("nothing to evaluate: no task ids or no seeds")
    records = run_layout_batch(backend, pairs, temperature=0.0, prompt_style=prompt_style,
                               max_tokens=max_tokens, step_limit=step_limit)
    steps = [s for r in records for s in r["actions"]]
    stats = [r["policy_stats"] for r in records]
    rows = [{"task_id": r["task_id"], "seed": r["seed"], "steps": r["steps"],
             "valid_actions": sum(s["error"] is None for s in r["actions"]),
             "final_score": r["final_score"], "return": r["total_reward"],
             "potential_gain": r["final_potential"] - r["start_potential"],
             "done": r["done"]} for r in records]
    per_step = max(1, len(steps))
    return {
        "episodes": len(records),
        "steps": len(steps),
        "valid_json_rate": sum(round(st["valid_json_rate"] * r["steps"])
                               for st, r in zip(stats, records, strict=True)) / per_step,
        "valid_action_rate": sum(s["error"] is None for s in steps) / per_step,
        "steer_rate": (len(steps) - sum(st["fallback_steps"] for st in stats)) / per_step,
        "mean_final_score": fmean(r["final_score"] for r in records),
        "mean_return": fmean(r["total_reward"] for r in records),
        "mean_potential_gain": fmean(row["potential_gain"] for row in rows),
        "rows": rows,
    }

