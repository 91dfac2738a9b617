"""The learner service against the real Redis: killed mid-run, restarted, it resumes from
its last checkpoint and its pending groups, and no group is trained on twice."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from db_support import REDIS_URL
from group_support import TurnScorer, layout_group
from redis import Redis

from designrl.learner.checkpoint import latest_checkpoint, read_state
from designrl.learner.versions import current_version

pytestmark = [pytest.mark.integration, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[2]
STEPS, PER_STEP = 4, 2


def start_learner(env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.learner.main"], cwd=REPO,
                            env={**os.environ, **env}, stdout=log.open("ab"),
                            stderr=subprocess.STDOUT)


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_killed_learner_resumes_without_training_a_group_twice(tiny_model, tmp_path):
    redis = Redis.from_url(REDIS_URL)
    tag = uuid.uuid4().hex[:8]
    stream, version_key = f"test-learner-groups-{tag}", f"test-learner-version-{tag}"
    scorer = TurnScorer(tiny_model)
    good = [layout_group(scorer, "gen-flyer", seed, step_limit=2, group_id=f"g{seed}")
            for seed in range(STEPS * PER_STEP)]
    for n, group in enumerate(good):
        redis.xadd(stream, {"group_id": group.group_id, "group": group.model_dump_json()})
        if n == 2:  # an entry no learner can read: dropped, acknowledged, never fatal
            redis.xadd(stream, {"group_id": "bad", "group": b"{not json"})
    out = tmp_path / "learner"
    env = {"REDIS_URL": REDIS_URL, "DESIGNRL_GROUPS_STREAM": stream,
           "DESIGNRL_LEARNER_CONSUMER": "learner-test",
           "DESIGNRL_LEARNER_MODEL_DIR": tiny_model, "DESIGNRL_LEARNER_OUTPUT_DIR": str(out),
           "DESIGNRL_LEARNER_ADAPTER_STORE": str(tmp_path / "adapters"),
           "DESIGNRL_LEARNER_VERSION_KEY": version_key,
           "DESIGNRL_LEARNER_GRPO__MAX_STEPS": str(STEPS),
           "DESIGNRL_LEARNER_GRPO__GROUPS_PER_STEP": str(PER_STEP),
           "DESIGNRL_LEARNER_GRPO__MAX_STALENESS": "100"}
    log = tmp_path / "learner.log"
    try:
        first = start_learner(env, log)
        wait_for(lambda: (latest_checkpoint(out) or Path("checkpoint-0")).name == "checkpoint-2",
                 240, "the second checkpoint")
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        killed_at = read_state(latest_checkpoint(out))["version"]
        assert killed_at < STEPS, "the learner finished before it could be killed"

        second = start_learner(env, log)
        assert second.wait(300) == 0, log.read_text()[-3000:]
    finally:
        for process in ("first", "second"):
            if process in locals() and locals()[process].poll() is None:
                locals()[process].kill()
        pending = redis.xpending(stream, "learner")["pending"]
        announced = current_version(redis, version_key)
        redis.delete(stream, version_key)

    output = log.read_text()
    assert f"resuming from {out / f'checkpoint-{killed_at}'}" in output
    state = read_state(latest_checkpoint(out))
    assert state["version"] == STEPS
    versions = [version for version, _ in state["lineage"]]
    trained = [group_id for _, ids in state["lineage"] for group_id in ids]
    assert versions == list(range(1, STEPS + 1))  # one update per version, none repeated
    assert sorted(trained) == sorted(g.group_id for g in good)  # each group exactly once
    assert pending == 0  # everything acknowledged: trained and checkpointed, or dropped
    summary = json.loads(output.strip().splitlines()[-1])
    assert summary["dropped"] == {"malformed": 1}
    assert (tmp_path / "adapters" / f"policy-v{STEPS}" / "config.json").is_file()
    assert announced == STEPS  # workers read the newest version here


def test_learner_metrics_pass_promtool(tmp_path):
    """Every update's curve row, as the service exports it, is valid Prometheus text."""
    from prometheus_client import generate_latest

    from services.learner import metrics

    rows = [{"version": 1, "seconds": 2.5, "idle_fraction": 0.25, "dropped": {"stale": 1},
             "staleness": [0, 1], "group_reward_mean": 0.12, "valid_action_rate": 0.9,
             "loss": 0.01, "kl": 0.002},
            {"version": 2, "seconds": 1.5, "idle_fraction": 0.2, "dropped": {"stale": 2},
             "staleness": [1, 1], "loss": -0.02}]
    for row in rows:
        metrics.observe(row)
    text = generate_latest().decode()
    promtool = shutil.which("promtool")
    if promtool is None:
        if os.environ.get("CI"):
            raise AssertionError("promtool is missing: `make setup` installs prometheus")
        pytest.skip("promtool is missing")
    run = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "designrl_learner_policy_version 2.0" in text
    assert 'designrl_learner_groups_dropped_total{reason="stale"} 2.0' in text
    assert "designrl_learner_staleness_versions_count 4.0" in text
