"""``designrl train``'s workflow: embedded GRPO between two greedy evaluations on
held-out seeds, with the curves as a PNG and the whole run in ``summary.json``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from designrl.learner.embedded import RolloutSettings, train_embedded
from designrl.learner.evaluate import evaluate_layout
from designrl.learner.grpo import CURVES_FILE, GRPOSettings
from designrl.learner.plots import plot_curves, read_curves


def run_train_workflow(model_dir: str, out_dir: Path, rollouts: RolloutSettings,
                       grpo: GRPOSettings, eval_seeds: Sequence[int] = (),
                       log: Callable[[dict], None] | None = None) -> dict[str, Any]:
    """Evaluate ``model_dir`` on ``eval_seeds`` (none: skip both evaluations), train it,
    evaluate the result, plot the curves and write ``out_dir/summary.json``; returns the
    summary. ``log`` gets the learner's row per update."""
    summary: dict[str, Any] = {"settings": {
        "grpo": grpo.model_dump(),
        "rollouts": rollouts.model_dump(exclude={"train_seeds"})}}
    if eval_seeds:
        summary["before"] = _evaluate(model_dir, rollouts, eval_seeds)
    stats = train_embedded(model_dir, out_dir, rollouts, grpo, log=log)
    summary["train"] = stats
    if eval_seeds:
        summary["after"] = _evaluate(stats["model_dir"], rollouts, eval_seeds)
    plot = plot_curves(read_curves(out_dir / CURVES_FILE), out_dir / "curves.png",
                       title=f"GRPO from {model_dir}")
    summary["curves_png"] = str(plot)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _evaluate(model_dir: str, rollouts: RolloutSettings, seeds: Sequence[int]) -> dict:
    """Greedy held-out means and rates, without the per-episode rows."""
    from designrl.inference.transformers_backend import TransformersBackend

    result = evaluate_layout(TransformersBackend(model_dir), rollouts.task_ids, seeds,
                             step_limit=rollouts.step_limit)
    return {k: v for k, v in result.items() if k != "rows"}
