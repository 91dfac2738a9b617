"""The designgym profile reproduces DesignGym 2.0's reference transitions.

Every line of ``shared/data/designgym/vectors.jsonl`` (90 resets, 734 steps) is
replayed per (task, seed) from reset; numbers must match to 1e-6 (they match
exactly today), strings, bools, ints and element boxes exactly. The replay runs
on both scoring paths (``metrics_path``: the C extension and pure Python).
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict

import pytest
from shared_data import require_shared

from designrl.tasks.layout.designgym import DesignGymEpisode
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS, designgym_task

TOL = 1e-6


def _load() -> list[dict]:
    path = require_shared("data/designgym/vectors.jsonl")
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


def _compare(got, want, where: str, problems: list[str], errors: list[float]) -> None:
    if isinstance(want, dict):
        if not isinstance(got, dict) or list(got) != list(want):
            problems.append(f"{where}: keys {list(got) if isinstance(got, dict) else got!r} "
                            f"!= {list(want)}")
            return
        for key in want:
            _compare(got[key], want[key], f"{where}.{key}", problems, errors)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            problems.append(f"{where}: {got!r} != {want!r}")
            return
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _compare(g, w, f"{where}[{i}]", problems, errors)
    elif isinstance(want, float):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            problems.append(f"{where}: {got!r} is not a number (want {want!r})")
            return
        err = abs(got - want)
        errors.append(err)
        if not err <= TOL:
            problems.append(f"{where}: {got!r} != {want!r} (|diff| {err:.3g})")
    elif got != want or type(got) is not type(want):
        problems.append(f"{where}: {got!r} != {want!r}")


def test_designgym_vectors_reproduced(metrics_path):
    lines = _load()
    episodes: dict[tuple[str, int], DesignGymEpisode] = {}
    problems: list[str] = []
    errors: list[float] = []
    checked = 0
    for n, line in enumerate(lines):
        key = (line["task_id"], line["seed"])
        where = f"line {n + 1} ({key[0]} seed {key[1]} step {line['step_index']})"
        if line["step_index"] == -1:
            episodes[key] = DesignGymEpisode(designgym_task(line["task_id"]))
            got = episodes[key].reset(line["seed"])
        else:
            episode = episodes[key]
            _compare(episode.layout.to_json(), line["before"]["elements"],
                     f"{where} before", problems, errors)
            got = episode.step(line["action"])
        _compare(got, line["after"], where, problems, errors)
        checked += 1
    max_err = max(errors, default=0.0)
    print(f"designgym vectors: {checked} lines checked, {len(errors)} numbers, "
          f"max abs error {max_err:.3g}")
    assert not problems, f"{len(problems)} mismatches, first: " + "\n".join(problems[:20])
    assert checked == len(lines) == 824


def test_step_after_reset_matches_fresh_episode_copy():
    """``copy()`` gives an independent episode: stepping it leaves the original unchanged."""
    episode = DesignGymEpisode(designgym_task("dense_flyer_v1"))
    episode.reset(3)
    before = episode.record()
    trial = episode.copy()
    trial.step({"action_type": "move", "element_id": "title", "dx": 0.03, "dy": 0.01})
    trial.step({"action_type": "promote", "element_id": "cta"})
    assert episode.record() == before
    again = episode.copy().step({"action_type": "move", "element_id": "title", "dx": 0.03,
                                 "dy": 0.01})
    first = episode.step({"action_type": "move", "element_id": "title", "dx": 0.03, "dy": 0.01})
    assert first == again


GARBAGE = [
    None, 0, 1.5, "move", "", b"\x00", [], [1, 2], {}, {"action_type": None},
    {"action_type": 5}, {"action_type": ["move"]}, {"action_type": "move", "dx": "abc"},
    {"action_type": "move", "element_id": "title", "dx": float("nan"), "dy": float("inf")},
    {"action_type": "move", "element_id": "title", "dx": 1e308, "dy": -1e308},
    {"action_type": "move", "element_id": "title", "dx": 10**400},
    {"action_type": "move", "element_id": "title", "dx": True},
    {"action_type": "move", "element_id": 7},
    {"action_type": "resize", "element_id": "title", "dw": float("inf"), "dh": float("-inf"),
     "anchor": "center"},
    {"action_type": "resize", "element_id": "title", "dw": float("nan"), "anchor": None},
    {"action_type": "resize", "element_id": "title", "dw": 0.1, "anchor": ["se"]},
    {"action_type": "snap", "element_id": "title", "grid": 10**400},
    {"action_type": "snap", "element_id": "title", "grid": 10**300},
    {"action_type": "snap", "element_id": "title", "grid": 1e308},
    {"action_type": "snap", "element_id": "title", "grid": -3},
    {"action_type": "snap", "element_id": "title", "grid": "12"},
    {"action_type": "snap", "element_id": "title", "grid": 2.5},
    {"action_type": "promote", "element_id": "title", "strength": float("nan")},
    {"action_type": "promote", "element_id": "title", "strength": -1e300},
    {"action_type": "align", "element_ids": "title", "axis": "x", "mode": "left"},
    {"action_type": "align", "element_ids": [None, 3], "axis": "x"},
    {"action_type": "align", "element_ids": ["title", "title"], "axis": "y", "mode": "middle"},
    {"action_type": "distribute", "element_ids": ["title"] * 5, "axis": "x"},
    {"action_type": "distribute", "element_ids": {"a": 1}, "axis": "x"},
    {"action_type": "swap_z", "element_ids": ["title", "title"]},
    {"action_type": "reflow_group", "group_id": {}, "pattern": "grid2"},
    {"action_type": "reflow_group", "group_id": "headline", "pattern": 3},
    {"action_type": "anchor_to_region", "element_id": "title", "region_id": "nowhere"},
    {"action_type": "anchor_to_region", "element_id": "title", "region_id": "top_band",
     "mode": "sideways"},
    {"action_type": "apply_template", "template_id": ["hero"]},
    {"action_type": "apply_template", "template_id": ""},
    {"action_type": "finalize", "extra": {"deep": [1, 2, {"x": None}]}},
    {1: 2, (3,): "x", "action_type": "move"},
]


@pytest.mark.parametrize("task_id", DESIGNGYM_TASK_IDS)
def test_garbage_actions_never_raise(task_id):
    rng = random.Random(task_id)
    task = designgym_task(task_id)
    counts: dict[str, int] = defaultdict(int)
    for round_ in range(40):
        episode = DesignGymEpisode(task)
        episode.reset(round_)
        actions = GARBAGE[:]
        rng.shuffle(actions)
        for action in actions[: task.max_steps + 3]:
            record = episode.step(action)
            counts[str(record["last_action_error"]).split(":")[0]] += 1
            assert isinstance(record["reward"], float) and 0.0 <= record["reward"] <= 1.0
            assert 0.0 <= record["total_reward"] <= 1.0
            for e in record["elements"]:
                assert all(math.isfinite(v) for v in e["bbox"]), (action, e)
            assert all(math.isfinite(v) for v in record["metrics"].values())
            assert record["step_count"] <= task.max_steps
    assert counts["invalid_action_payload"] > 0
    assert counts["episode_already_done"] > 0


def test_payload_errors_are_readable():
    episode = DesignGymEpisode(designgym_task("poster_basic_v1"))
    episode.reset(0)
    record = episode.step({"action_type": "move", "element_id": "title", "dx": "abc"})
    assert record["last_action_error"].startswith("invalid_action_payload: dx: Input should be")
    assert record["step_count"] == 1 and record["invalid_actions"] == 1
    record = episode.step(["not", "an", "action"])
    assert record["last_action_error"] == (
        "invalid_action_payload: an action must be a JSON object, got list")
    record = episode.step({"action_type": "move", "element_id": "title", "dx": 0.01,
                           "rotation": 45})
    assert record["last_action_error"] is None  # unknown fields are ignored, as in DesignGym
