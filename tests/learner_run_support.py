"""Learner output as the API's Training endpoints read it: a run folder (``curves.jsonl``
rows as ``designrl.learner.grpo`` writes them, complete and incomplete checkpoints) and an
adapter store of ``policy-vN`` folders."""

from __future__ import annotations

import json
import math
from pathlib import Path


def write_learner_run(folder: Path, updates: int = 4, partial_tail: bool = False,
                      summary: bool = False) -> None:
    """A learner output folder as ``designrl.learner.grpo`` writes it."""
    folder.mkdir(parents=True)
    rows = [{"version": v, "seconds": 1.5, "idle_fraction": round(0.02 * (v % 3), 4),
             "dropped": {"stale": v // 4}, "staleness": [0, v % 2],
             "staleness_mean": (v % 2) / 2, "group_reward_mean": 0.1 * v + 0.05 * math.sin(v),
             "valid_action_rate": min(1.0, 0.8 + 0.03 * v), "kl": 0.001 * v,
             "entropy": 1.2 - 0.05 * v, "loss": 0.1 - 0.01 * v,
             "learning_rate": 1e-4 * (1 - v / (updates + 1)), "grad_norm": 0.5 + 0.1 * v,
             "clip_ratio/region_mean": 0.01 * (v % 3), "clip_ratio/low_mean": 0.0,
             "clip_ratio/high_mean": 0.005 * v}
            for v in range(1, updates + 1)]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "curves.jsonl").write_text(text + ('{"version": 9' if partial_tail else ""))
    for version in (2, updates):
        (folder / f"checkpoint-{version}").mkdir()
        (folder / f"checkpoint-{version}" / "designrl_state.json").write_text("{}")
    (folder / "checkpoint-99").mkdir()  # no state file: incomplete, not listed
    write_samples(folder, [(v, f"episode-{v}-{i}") for v in range(1, updates + 1)
                           for i in range(2)])
    if summary:
        evaluation = {"episodes": 4, "valid_action_rate": 0.5, "mean_final_score": 0.6,
                      "mean_return": 0.1}
        (folder / "summary.json").write_text(json.dumps({
            "before": evaluation, "after": evaluation | {"valid_action_rate": 0.75,
                                                         "mean_final_score": 0.7}}))


# what a layout model wrote, turn by turn: a valid move, then a truncated answer
COMPLETIONS = ['{"action_type":"move","element_id":"title","dx":24,"dy":-16}',
               '{"action_type": "finalize"']


def write_samples(folder: Path, samples: list[tuple[int, str]],
                  completions: list[str] | None = None) -> None:
    """``samples.jsonl`` rows (version, episode id) as ``designrl.learner.runs`` writes them;
    with ``completions``, each row keeps them (a multi-turn sample's, replayable)."""
    with (folder / "samples.jsonl").open("a", encoding="utf-8") as out:
        for i, (version, episode_id) in enumerate(samples):
            row = {"version": version, "group_id": f"g{version}", "task_id": "gen-poster",
                   "item_key": str(1_000_000 + i % 2), "episode_id": episode_id,
                   "sampled_by": version - 1, "reward": 0.1 * (i % 5), "outcome": "ok",
                   "text": f'{{"action_type": "move", "element_id": "title"}} (sample {i})'}
            out.write(json.dumps(row | ({"completions": completions} if completions else {}))
                      + "\n")


def write_adapter_store(store: Path, versions: int = 3) -> None:
    for version in range(1, versions + 1):
        (store / f"policy-v{version}").mkdir(parents=True)
    (store / f"policy-v{versions + 1}.tmp").mkdir()  # being written: not a version
    (store / "notes.txt").write_text("not a version")


def write_single_turn_samples(folder: Path, version: int,
                              completions: list[tuple[str, str, str]]) -> None:
    """``samples.jsonl`` rows of single-turn samples (task id, item key, completion) whose
    episodes are not stored, written by ``designrl.learner.runs`` as the learner does."""
    from designrl.learner.runs import append_samples, sample_rows
    from designrl.rollout.groups import Sample, ScoredGroup

    groups = [ScoredGroup(group_id=f"g{i}", job_id="j", task_id=task_id, item_key=key,
                          policy=f"policy-v{version - 1}", policy_version=version - 1,
                          samples=[Sample(episode_id=f"drawn-{i}", outcome="ok", reward=0.5,
                                          completion=completion)])
              for i, (task_id, key, completion) in enumerate(completions)]
    append_samples(folder, sample_rows(version, groups, most=len(groups)))


DRAWN_RUN = "grpo-drawn"  # a run whose svg, html and webpage samples are drawn from text
# a page over the render pool's DOM cap (50,000 elements): it fails in the browser
HUGE_DOM = ("<!doctype html><html><body><script>for (let i = 0; i < 60000; i++) "
            "document.body.appendChild(document.createElement('i'));</script></body></html>")


def drawn_completions() -> list[tuple[str, str, str]]:
    """(task id, item key, completion): an svg, an html page (fenced, as a model writes it)
    and a webpage that draw, then a text with no SVG in it and a page that fails."""
    from designrl.tasks import FAMILIES, find_item, load_items

    webpage = load_items("webpage-prompts", limit=1)[0]
    html = FAMILIES["html"].policies["reference"](find_item("gen-html", "1000001"), 0)
    return [("gen-svg", "1000001",
             FAMILIES["svg"].policies["expert"](find_item("gen-svg", "1000001"), 0)),
            ("gen-html", "1000001", f"```html\n{html}\n```"),
            ("webpage-prompts", webpage.id,
             FAMILIES["webpage"].policies["template"](webpage, 0)),
            ("gen-svg", "1000002", "I would draw a red circle on a blue square."),
            ("gen-html", "1000002", HUGE_DOM)]


def write_drawn_run(runs: Path) -> Path:
    """``DRAWN_RUN`` under ``runs``: three updates of layout samples (not stored), then
    ``drawn_completions`` at version 3; older than any other run (not the page's default)."""
    import os

    folder = runs / DRAWN_RUN
    write_learner_run(folder, updates=3)
    write_single_turn_samples(folder, 3, drawn_completions())
    old = os.stat(folder / "curves.jsonl").st_mtime - 3600
    os.utime(folder / "curves.jsonl", (old, old))
    return folder
