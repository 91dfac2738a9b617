"""The CLI never fails silently (issue 20): a mistake in the command line exits 2 with
argparse's ``designrl CMD: error: ...``, naming the bad value and the known ones, before
any browser or model starts, and with no traceback; ``designrl train`` reports progress
even when every group is dropped."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYOUT_TASKS = "poster_basic_v1, editorial_cover_v1, dense_flyer_v1, gen-poster"


def designrl(*argv: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "designrl.cli", *argv], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)


@pytest.mark.parametrize(("argv", "expected"), [
    # an unknown name lists the known ones
    (["bench", "--tasks", "gen-postr"], ["'gen-postr'", "known:", "gen-poster, gen-editorial"]),
    (["bench", "--families", "lay"], ["'lay'", "known: layout, html, svg, webpage"]),
    (["bench", "--profiles", "defualt"], ["'defualt'", "known: default, designgym"]),
    (["bench", "--policies", "oracel"], ["'oracel'", "random", "rule", "expert",
                                         "llm:<model directory>"]),
    # impossible combinations say why
    (["bench", "--profiles", "designgym", "--tasks", "gen-poster"],
     ["gen-poster", "only in profile default", "designgym runs DesignGym's tasks"]),
    (["bench", "--families", "html", "--profiles", "default"],
     ["profiles apply to layout tasks", "no layout task is selected"]),
    (["bench", "--families", "html", "--tasks", "gen-poster"],
     ["gen-poster is a layout task", "families selected are html"]),
    (["bench", "--tasks", "gen-svg", "--policies", "rule"],
     ["gen-svg", "none of the policies given (rule)", "expert"]),
    (["bench", "--policies", "vllm:policy"], ["'vllm:policy'", "llm:<model directory>"]),
    (["bench", "--tasks", "gen-poster", "--path", "design2code=/tmp"],
     ["a path is given for design2code, which is not selected"]),
    # a user's path: no model there, no transformers traceback
    (["bench", "--tasks", "gen-poster", "--policies", "llm:/nonexistent"],
     ["no model at /nonexistent"]),
    # --seeds is DesignGym's; generated tasks take --gen-seeds (never silently ignored)
    (["bench", "--tasks", "gen-poster", "--seeds", "5"],
     ["--seeds", "DesignGym's tasks", "gen-poster", "take --gen-seeds"]),
    (["bench", "--tasks", "poster_basic_v1", "--gen-seeds", "1000005"],
     ["--gen-seeds", "generated tasks", "take --seeds"]),
    # a judge: an http(s) URL with its model, on a family that has a judge
    (["bench", "--tasks", "gen-svg", "--judge", "localhost:8001", "--judge-model", "m"],
     ["--judge takes the endpoint's http(s) URL", "'localhost:8001'"]),
    (["bench", "--tasks", "gen-svg", "--judge", "http://127.0.0.1:9/v1"],
     ["--judge needs --judge-model NAME"]),
    (["bench", "--tasks", "gen-svg", "--judge-model", "m"],
     ["--judge-model and --judge-multimodal", "--judge URL, which is not given"]),
    (["bench", "--families", "html", "--judge", "http://127.0.0.1:9/v1", "--judge-model", "m"],
     ["a judge scores svg, webpage tasks", "the families selected are html"]),
    (["train", "--model", "/nonexistent", "--out", "run"], ["no model at /nonexistent"]),
    (["train", "--model", "/nonexistent", "--out", "run", "--tasks", "gen-postr"],
     ["--tasks", "'gen-postr'", f"known: {LAYOUT_TASKS}"]),
    (["sft", "--model", "/nonexistent", "--out", "run"], ["no model at /nonexistent"]),
    (["sft", "--model", "/nonexistent", "--out", "run", "--tasks", "gen-svg"],
     ["no model at /nonexistent"]),
    (["sft", "--model", "/nonexistent", "--out", "run", "--tasks", "gen-svg,gen-poster"],
     ["gen-svg trains alone"]),
    (["sft", "--model", "/nonexistent", "--out", "run", "--tasks", "gen-svg",
      "--eval-seeds", "5"], ["test seeds must be in the test split"]),
    (["sft", "--model", "/nonexistent", "--out", "run", "--more-rounds", "1"],
     ["--more-rounds is for gen-svg"]),
    (["sft", "--model", "/nonexistent", "--out", "run", "--until-valid", "1.5"],
     ["--until-valid", "less than or equal to 1"]),
    (["inference", "load", "policy-v1"], ["load needs NAME and PATH"]),
], ids=lambda v: " ".join(v) if v[0] in ("bench", "train", "sft", "inference") else "")
def test_a_mistake_exits_2_naming_it(argv, expected, tmp_path):
    started = time.monotonic()
    done = designrl(*argv, tmp_path=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"designrl {argv[0]}: error: " in done.stderr
    assert done.stderr.startswith("usage: designrl " + argv[0])  # as argparse's own errors
    for text in expected:
        assert text in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    assert not (tmp_path / "out").exists()  # refused before anything ran or was written
    assert time.monotonic() - started < 30  # no browser, no model


def test_seeds_flags_are_documented_in_help(tmp_path):
    done = designrl("bench", "--help", tmp_path=tmp_path)
    text = "".join(done.stdout.split())  # argparse wraps lines, at hyphens too
    assert "generatedtasks(gen-*)take--gen-seeds" in text
    assert "--seedswithnoDesignGymtaskselectedisanerror" in text


def _equal_reward_group(n: int):
    from designrl.rollout.groups import Sample, ScoredGroup

    return ScoredGroup(group_id=f"g{n}", job_id="embedded", task_id="gen-poster",
                       item_key=str(n), policy="policy-v0", policy_version=0,
                       samples=[Sample(episode_id=f"e{n}-{k}", outcome="ok", reward=0.25,
                                       turns=[{"completion": "{}"}]) for k in range(4)])


def test_train_progress_reports_groups_dropped_for_no_signal():
    """The run the issue reports: every group has equal rewards, so the learner drops
    each (``no_signal``) and never updates; the progress lines still show it, and say
    what to try. (A real ``designrl train`` needs a trained model and minutes: the feed,
    its stats and the CLI's reporter here are the ones it runs.)"""
    from designrl.cli.train import ProgressLines
    from designrl.learner.embedded import train_progress
    from designrl.learner.feed import FeedStopped, GroupFeed
    from designrl.learner.sources import LocalGroupSource

    source = LocalGroupSource()
    feed = GroupFeed(source, lambda messages: [1], groups_per_step=2, poll_s=0.02)
    for n in range(6):
        source.put(_equal_reward_group(n))
    stopped = []

    def learn():
        try:
            feed.next_batch(version=0)
        except FeedStopped:
            stopped.append(True)

    learner = threading.Thread(target=learn)
    learner.start()
    deadline = time.monotonic() + 10
    while source.outstanding and time.monotonic() < deadline:
        time.sleep(0.01)
    feed.stop()
    learner.join(5)
    assert stopped and dict(feed.stats.dropped) == {"no_signal": 6}

    row = train_progress(feed.stats, 0, groups_sampled=6, episodes_sampled=24,
                         reward_sum=24 * 0.25)
    out = io.StringIO()
    report = ProgressLines(out, every=60)
    report({"stage": "load", "model": "sft-model"})
    report(row)
    report(row)  # within a minute of the last: not repeated
    report({"stage": "evaluate", "when": "after", "seeds": 2})
    lines = out.getvalue().splitlines()
    assert lines[0] == "designrl train: loading sft-model and sampling the first groups"
    assert lines[1].startswith("designrl train: 0 updates; groups sampled 6, trained 0, "
                               "dropped no_signal 6; mean reward +0.250")
    assert "every group so far has equal rewards" in lines[1] and "--temperature" in lines[1]
    assert lines[2].startswith("designrl train: evaluating the result") and len(lines) == 3


@pytest.mark.slow
def test_train_is_never_silent_when_every_group_is_dropped(tiny_model, tmp_path):
    """The real command on the untrained tiny model: its greedy-ish answers all score the
    same, so every group is dropped (``no_signal``) and no update ever comes; stderr
    still says what the run is doing within seconds of the model loading."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "designrl.cli", "train", "--model", tiny_model,
         "--out", str(tmp_path / "run"), "--tasks", "gen-poster", "--train-seeds", "0-3",
         "--steps", "1", "--group-size", "2", "--groups-per-step", "1", "--step-limit", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stderr.readline, "")),
                              daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and not any("groups sampled" in x for x in lines):
            time.sleep(0.2)
    finally:
        process.kill()
        process.wait()
    progress = [x for x in lines if x.startswith("designrl train: ")]
    assert progress[0].startswith(f"designrl train: loading {tiny_model}")
    assert any("0 updates; groups sampled" in x and "trained 0" in x for x in progress), lines
