"""``designrl train``'s workflow: embedded GRPO between two greedy evaluations on
held-out seeds, with the curves as a PNG and the whole run in ``summary.json``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from designrl.learner.embedded import RolloutSettings, train_embedded
from designrl.learner.evaluate import evaluate_layout
from designrl.learner.grpo import CURVES_PNG, GRPOSettings
from designrl.policies import check_model_dir


def run_train_workflow(model_dir: str, out_dir: Path, rollouts: RolloutSettings,
                       grpo: GRPOSettings, eval_seeds: Sequence[int] = (),
                       log: Callable[[dict], None] | None = None,
                       progress: Callable[[dict], None] | None = None) -> dict[str, Any]:
    """Evaluate ``model_dir`` on ``eval_seeds`` (none: skip both evaluations), train it,
    evaluate the result, plot the curves and write ``out_dir/summary.json``; returns the
    summary. ``log`` gets the learner's row per update; ``progress`` a row as each stage
    starts (``{"stage": "load" | "evaluate" | ...}``) and ``train_progress``'s while it
    trains. ``ValueError`` before anything loads: no model at ``model_dir``."""
    check_model_dir(model_dir)
    report = progress or (lambda row: None)
    summary: dict[str, Any] = {"settings": {
        "grpo": grpo.model_dump(),
        "rollouts": rollouts.model_dump(exclude={"train_seeds"})}}
    if eval_seeds:
        report({"stage": "evaluate", "when": "before", "seeds": len(eval_seeds)})
        summary["before"] = _evaluate(model_dir, rollouts, eval_seeds)
    report({"stage": "load", "model": model_dir})
    stats = train_embedded(model_dir, out_dir, rollouts, grpo, log=log, progress=progress)
    summary["train"] = stats
    if eval_seeds:
        report({"stage": "evaluate", "when": "after", "seeds": len(eval_seeds)})
        summary["after"] = _evaluate(stats["model_dir"], rollouts, eval_seeds)
    summary["curves_png"] = str(out_dir / CURVES_PNG)  # drawn by the learner as it ends
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _evaluate(model_dir: str, rollouts: RolloutSettings, seeds: Sequence[int]) -> dict:
    """Greedy held-out means and rates, without the per-episode rows: the layout tasks'
    pooled, each single-turn task's under its id."""
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.evaluate_single_turn import evaluate_single_turn
    from designrl.tasks.family import TEST_SEED_START
    from designrl.tasks.layout.env import LAYOUT_TASK_IDS

    if any(seed < TEST_SEED_START for seed in seeds):
        raise ValueError(f"evaluation seeds must be test seeds (>= {TEST_SEED_START})")
    layout = [t for t in rollouts.task_ids if t in LAYOUT_TASK_IDS]
    result = evaluate_layout(TransformersBackend(model_dir), layout, seeds,
                             step_limit=rollouts.step_limit) if layout else {}
    for task_id in (t for t in rollouts.task_ids if t not in LAYOUT_TASK_IDS):
        result[task_id] = evaluate_single_turn(model_dir, task_id, seeds,
                                               max_tokens=rollouts.completion_tokens).as_dict()
        del result[task_id]["rows"]
    return {k: v for k, v in result.items() if k != "rows"}
