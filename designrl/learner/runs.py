"""A learner's run folder, as the learner writes it and the Training page reads it.

A run is a folder holding ``curves.jsonl`` (one row per update: TRL's logged metrics,
loss, learning rate, grad norm, clip ratios, KL, entropy, and ours: reward, staleness,
idle fraction, drops), ``samples.jsonl`` (a few of the samples each update trained on:
their text, reward and episode, and a multi-turn sample's completions), ``checkpoint-N`` folders and, for ``designrl train``,
``summary.json`` (held-out evaluations before and after). Both the learner service
(``output_dir``) and ``designrl train --out`` write one. Reading never opens a path
taken from a request: a run is found by its name among the folder's children.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from designrl.learner.checkpoint import STATE_FILE

CURVES_FILE = "curves.jsonl"
SAMPLES_FILE = "samples.jsonl"
SUMMARY_FILE = "summary.json"
SAMPLES_PER_UPDATE = 4  # kept per update: enough for a gallery, small on disk
TEXT_CHARS = 2000  # of each sample's text
# A single-turn completion at least TEXT_CHARS long is kept whole up to this, as
# ``completion``: what drawing its picture needs (``designrl.learner.sample_render``).
COMPLETION_CHARS = 100_000
_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")
_VERSION = re.compile(r"^policy-v(\d+)$")  # not policy-vN.tmp: a version being written


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; a last line still being written is left out."""
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()
    return [json.loads(line) for line in lines if line.strip()]


def read_curves(folder: Path) -> list[dict[str, Any]]:
    return read_jsonl(folder / CURVES_FILE)


def run_folders(root: Path) -> list[Path]:
    """The runs under ``root``: children holding a ``curves.jsonl``."""
    if not root.is_dir():
        return []
    return [child for child in root.iterdir() if (child / CURVES_FILE).is_file()]


def mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def run_overview(folder: Path, curves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    curves = read_curves(folder) if curves is None else curves
    return {"name": folder.name, "updates": len(curves),
            "last_version": curves[-1].get("version") if curves else None,
            "updated_at": mtime(folder / CURVES_FILE)}


def list_runs(root: Path) -> list[dict[str, Any]]:
    """Every run's overview, most recently updated first."""
    runs = [run_overview(folder) for folder in run_folders(root)]
    return sorted(runs, key=lambda r: r["updated_at"], reverse=True)


def read_run(root: Path, name: str) -> dict[str, Any] | None:
    """One run in full (None: no run of that name under ``root``)."""
    folder = next((f for f in run_folders(root) if f.name == name), None)
    if folder is None:
        return None
    curves = read_curves(folder)
    checkpoints = sorted(int(m.group(1)) for child in folder.iterdir()
                         if (m := _CHECKPOINT.match(child.name))
                         and (child / STATE_FILE).is_file())
    summary = folder / SUMMARY_FILE
    return {**run_overview(folder, curves), "curves": curves, "checkpoints": checkpoints,
            "samples": read_jsonl(folder / SAMPLES_FILE),
            "summary": json.loads(summary.read_text()) if summary.is_file() else None}


def adapter_versions(store: Path) -> list[dict[str, Any]]:
    """The complete ``policy-vN`` folders in an adapter store, oldest first."""
    found = [{"version": int(m.group(1)), "name": child.name, "created_at": mtime(child)}
             for child in (store.iterdir() if store.is_dir() else ())
             if (m := _VERSION.match(child.name)) and child.is_dir()]
    return sorted(found, key=lambda v: v["version"])


def sample_text(sample: Any) -> str:
    """What the model wrote: a single-turn completion, or each turn of a multi-turn one."""
    if sample.completion is not None:
        return sample.completion
    return "\n".join(str(turn.get("completion", "")) for turn in sample.turns or ())


def replay_completions(sample: Any) -> list[str] | None:
    """A multi-turn sample's completions, turn by turn: what replaying it in its env needs
    (``designrl.learner.sample_picture``). None for a single-turn sample, and for one where
    a fallback policy acted on some turn (its action is not in the turns)."""
    if not sample.turns or any(turn.get("ran") == "fallback" for turn in sample.turns):
        return None
    return [str(turn.get("completion", "")) for turn in sample.turns]


def sample_rows(version: int, groups: list[Any], most: int = SAMPLES_PER_UPDATE) -> list[dict]:
    """Up to ``most`` samples of an update's groups (``ScoredGroup``s), one group's best and
    worst first so the gallery shows the spread a group's advantage came from. A
    multi-turn sample keeps its ``completions`` too, so its picture can be rebuilt where its
    episode is not stored (``designrl train`` stores none); a single-turn one whose text is
    cut keeps its whole ``completion`` (up to ``COMPLETION_CHARS``), so it can be drawn."""
    picked = []
    for group in groups:
        scored = sorted(group.samples, key=lambda s: s.reward if s.reward is not None else -1e9)
        ends = [scored[-1], scored[0]] if len(scored) > 1 else scored
        picked += [(group, s) for s in ends]
    rows = []
    for group, s in picked[:most]:
        row = {"version": version, "group_id": group.group_id, "task_id": group.task_id,
               "item_key": group.item_key, "episode_id": s.episode_id,
               "sampled_by": s.policy_version, "reward": s.reward, "outcome": s.outcome,
               "text": sample_text(s)[:TEXT_CHARS]}
        completions = replay_completions(s)
        if completions is not None:
            row["completions"] = completions
        elif s.completion is not None and TEXT_CHARS <= len(s.completion) <= COMPLETION_CHARS:
            row["completion"] = s.completion
        rows.append(row)
    return rows


def append_samples(folder: Path, rows: list[dict]) -> None:
    if rows:
        with (folder / SAMPLES_FILE).open("a", encoding="utf-8") as out:
            out.write("".join(json.dumps(row) + "\n" for row in rows))
