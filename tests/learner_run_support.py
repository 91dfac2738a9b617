"""Learner output as the API's Training endpoints read it: a run folder (``curves.jsonl``
rows as ``designrl.learner.grpo`` writes them, complete and incomplete checkpoints) and an
adapter store of ``policy-vN`` folders."""

from __future__ import annotations

import json
import math
from pathlib import Path


def write_learner_run(folder: Path, updates: int = 4, partial_tail: bool = False) -> None:
    """A learner output folder as ``designrl.learner.grpo`` writes it."""
    folder.mkdir(parents=True)
    rows = [{"version": v, "seconds": 1.5, "idle_fraction": round(0.02 * (v % 3), 4),
             "dropped": {"stale": v // 4}, "staleness": [0, v % 2],
             "staleness_mean": (v % 2) / 2, "group_reward_mean": 0.1 * v + 0.05 * math.sin(v),
             "valid_action_rate": min(1.0, 0.8 + 0.03 * v), "kl": 0.001 * v,
             "entropy": 1.2 - 0.05 * v, "loss": 0.1}
            for v in range(1, updates + 1)]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "curves.jsonl").write_text(text + ('{"version": 9' if partial_tail else ""))
    for version in (2, updates):
        (folder / f"checkpoint-{version}").mkdir()
        (folder / f"checkpoint-{version}" / "designrl_state.json").write_text("{}")
    (folder / "checkpoint-99").mkdir()  # no state file: incomplete, not listed


def write_adapter_store(store: Path, versions: int = 3) -> None:
    for version in range(1, versions + 1):
        (store / f"policy-v{version}").mkdir(parents=True)
    (store / f"policy-v{versions + 1}.tmp").mkdir()  # being written: not a version
    (store / "notes.txt").write_text("not a version")
