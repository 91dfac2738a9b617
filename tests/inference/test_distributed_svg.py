"""The distributed training path for real, on ``gen-svg``: ``designrl stack up`` (the API
and two Celery workers on the real Redis and Postgres) samples ``vllm:latest`` on vLLM
(CPU, LoRA adapters loaded at runtime) while the learner service (``python -m
services.learner.main``) trains on the groups the workers publish and has that vLLM load
every version it writes. A rollout job submitted over REST runs to its end: each group is
trained exactly once or dropped for having no signal, nothing is left pending, the
episodes a worker starts later sample later versions, and the learner's curves hold one
row per update, which the API's Training page serves.

The model is ``svg_model`` (the tiny model fine-tuned on three gen-svg items, served by
``svg_server``, tests/inference/conftest.py): sampled, its drawings score about 1, 0.3 or
0, so about two groups in three have reward spread to train on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from db_support import REDIS_URL, postgres_schema
from process_support import descendants, process_table
from redis import Redis
from sqlalchemy import select
from stack_support import admin_key, free_port
from svg_sft_support import SVG_SEEDS

from designrl.inference.vllm_server import AdapterRegistry, version_name
from designrl.learner.batch import group_advantages
from designrl.learner.checkpoint import latest_checkpoint, read_state
from designrl.learner.runs import read_curves
from designrl.learner.versions import current_version
from designrl.rollout.groups import ScoredGroup
from designrl.store import make_engine, make_sessionmaker
from designrl.store.models import Episode

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GROUP_SIZE = 4
SEEDS = list(SVG_SEEDS) * 3  # nine groups: enough with signal for three updates or more
RUN = "learner"  # the learner's output folder under the stack's --out: a Training page run


def environment(**settings: str) -> dict[str, str]:
    """This process's environment for a service: this checkout's code, none of the caller's
    service settings, ``settings`` on top."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DESIGNRL_") or k in ("DESIGNRL_SHARED", "DESIGNRL_REQUIRE_NATIVE")}
    env.pop("DATABASE_URL", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env | settings


def start_learner(model: str, inference_url: str, out: Path, stream: str, key: str,
                  log: Path) -> subprocess.Popen:
    """The learner service: one group an update (a group with no signal is dropped, never
    held back waiting for a second), LoRA versions loaded into ``inference_url``, no group
    too stale to train on, a checkpoint (and the acknowledgement) after every update; it
    trains until it is stopped."""
    env = environment(REDIS_URL=REDIS_URL, DESIGNRL_GROUPS_STREAM=stream,
                      DESIGNRL_LEARNER_VERSION_KEY=key,
                      DESIGNRL_LEARNER_CONSUMER=f"learner-{key}",
                      DESIGNRL_LEARNER_MODEL_DIR=model,
                      DESIGNRL_LEARNER_OUTPUT_DIR=str(out / RUN),
                      DESIGNRL_LEARNER_ADAPTER_STORE=str(out / "adapters"),
                      DESIGNRL_LEARNER_INFERENCE_URL=inference_url,
                      DESIGNRL_LEARNER_GRPO__LORA_R="8",
                      DESIGNRL_LEARNER_GRPO__GROUPS_PER_STEP="1",
                      DESIGNRL_LEARNER_GRPO__MAX_STALENESS=str(len(SEEDS)),
                      DESIGNRL_LEARNER_GRPO__MAX_STEPS="100",
                      DESIGNRL_LEARNER_GRPO__CHECKPOINT_EVERY="1")
    return subprocess.Popen([sys.executable, "-m", "services.learner.main"], cwd=ROOT, env=env,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def stack_up(database_url: str, inference_url: str, out: Path, queue: str, stream: str,
             key: str) -> subprocess.Popen:
    """``designrl stack up --workers 2`` on this test's queue, stream and version key."""
    args = ["--db", database_url, "--redis", REDIS_URL, "--workers", "2",
            "--port", str(free_port()), "--queue", queue, "--groups-stream", stream,
            "--version-key", key, "--inference-url", inference_url, "--out", str(out),
            "--log-dir", str(out / "logs"), "--json"]
    return subprocess.Popen([sys.executable, "-m", "designrl.cli", "stack", "up", *args],
                            cwd=out, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            env=environment(DESIGNRL_INFERENCE_BASE_MODEL="tiny-svg"))


def stop(process: subprocess.Popen | None, timeout: float) -> int | None:
    """SIGTERM to the process's group, then SIGKILL to it and to any process it started
    that outlived it (the stack starts its services in sessions of their own)."""
    if process is None:
        return None
    started = descendants(process.pid)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    table = process_table()
    for pid, name in started.items():
        if pid in table and table[pid][1] == name:
            os.kill(pid, signal.SIGKILL)
    return process.returncode


def wait_until(predicate: Callable[[], bool], timeout: float, what: str,
               *watched: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        for process in watched:
            assert process.poll() is None, f"{process.args[:4]} exited while waiting for {what}"
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        time.sleep(0.5)


def stream_groups(redis: Redis, stream: str) -> dict[str, ScoredGroup]:
    """The groups published, by id (a group published twice is one)."""
    return {g.group_id: g for g in (ScoredGroup.model_validate_json(fields[b"group"])
                                    for _, fields in redis.xrange(stream))}


def all_consumed(redis: Redis, stream: str, groups: int) -> bool:
    """Every group published, delivered to the learner and acknowledged by it (trained and
    checkpointed, or dropped)."""
    if len(stream_groups(redis, stream)) < groups:
        return False
    info = {g["name"].decode(): g for g in redis.xinfo_groups(stream)}
    learner = info.get("learner")
    return learner is not None and learner["lag"] == 0 and learner["pending"] == 0


def test_the_stack_and_the_learner_service_train_on_the_groups_the_workers_sample(
        svg_server, svg_model, tmp_path):
    redis = Redis.from_url(REDIS_URL)
    tag = uuid.uuid4().hex[:8]
    queue, stream, key = (f"test-dist-{name}-{tag}" for name in ("queue", "groups", "version"))
    registry = AdapterRegistry(svg_server.url)
    out, log = tmp_path / "out", tmp_path / "learner.log"
    out.mkdir()
    seen: set[str] = set()  # adapters vLLM served at some point
    started = time.perf_counter()
    try:
        with postgres_schema() as url:  # dropped once the processes using it are stopped
            api_key = admin_key(url)
            learner = stack = None
            try:
                learner = start_learner(svg_model, svg_server.url, out, stream, key, log)
                stack = stack_up(url, svg_server.url, out, queue, stream, key)
                endpoints = json.loads(stack.stdout.readline() or "{}")
                assert endpoints.get("api"), f"stack up did not start (logs: {out / 'logs'})"
                # the learner announces its starting weights as version 0 before any group
                wait_until(lambda: current_version(redis, key) == 0, 240, "version 0", learner)
                assert version_name(0) in registry.served()
                ready_s = time.perf_counter() - started
                with httpx.Client(base_url=endpoints["api"], headers={"X-API-Key": api_key},
                                  timeout=30) as client:
                    def watch() -> None:
                        seen.update(registry.served())

                    job = run_job(client, watch, stack, learner)
                    wait_until(lambda: watch() or all_consumed(redis, stream, len(SEEDS)),
                               300, "the learner to take every group", learner)
                    job_s = time.perf_counter() - started - ready_s
                    assert stop(learner, 60) == 0, log.read_text()[-3000:]
                    runs = client.get("/v1/training/runs").json()
                    versions = client.get("/v1/training/versions").json()
                    listed = episodes_listed(client, job["id"])
                stored = stored_episodes(url, job["id"])
            finally:
                stop(learner, 60)
                stop(stack, 60)
        figures = check_training(redis, stream, key, out, log, seen, runs, versions)
        check_episodes(stored, listed, figures)
        print(f"\nready {ready_s:.0f} s, job and training {job_s:.0f} s; {figures['summary']}")
    finally:
        for name in registry.served():
            if name.startswith("policy-v"):
                registry.unload(name)
        redis.delete(stream, key, queue, f"_kombu.binding.{queue}",
                     f"_kombu.binding_permanent.{queue}")
        redis.close()


def run_job(client: httpx.Client, watch: Callable[[], None], *watched: subprocess.Popen
            ) -> dict:
    """A rollout job of ``vllm:latest`` over REST, polled to its end (``watch`` runs at
    every poll)."""
    body = {"kind": "rollout", "tasks": ["gen-svg"], "seeds": SEEDS, "policy": "vllm:latest",
            "group_size": GROUP_SIZE, "temperature": 1.0}
    submitted = client.post("/v1/jobs", json=body)
    assert submitted.status_code == 202, submitted.text
    job = submitted.json()

    def finished() -> bool:
        nonlocal job
        watch()
        job = client.get(f"/v1/jobs/{job['id']}").json()
        return job["status"] not in ("queued", "running")

    wait_until(finished, 300, f"job {job['id']}", *watched)
    assert job["status"] == "completed", job
    return job


def episodes_listed(client: httpx.Client, job_id: str) -> dict[str, dict]:
    page = client.get(f"/v1/jobs/{job_id}/episodes", params={"limit": 500}).json()
    return {e["id"]: e for e in page["items"]}


def stored_episodes(url: str, job_id: str) -> list[Episode]:
    """The job's episodes as the workers wrote them, in the order they started."""
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            rows = session.scalars(select(Episode).where(Episode.job_id == job_id)
                                   .order_by(Episode.started_at)).all()
            session.expunge_all()
        return list(rows)
    finally:
        engine.dispose()


def check_training(redis: Redis, stream: str, key: str, out: Path, log: Path, seen: set[str],
                   runs: list[dict], versions: dict) -> dict:
    """Every group with reward spread trained exactly once, one a version, the others
    dropped as no signal; every version published, announced and served by vLLM; one
    curve row per update with the reward of the group it trained on."""
    groups = stream_groups(redis, stream)
    assert len(groups) == len(SEEDS)
    lineage = read_state(latest_checkpoint(out / RUN))["lineage"]
    last = len(lineage)
    assert last >= 3, f"{last} updates: {lineage}"
    assert [version for version, _ in lineage] == list(range(1, last + 1))
    trained = [group_id for _, (group_id,) in lineage]  # one group an update
    assert len(set(trained)) == len(trained)  # none twice
    flat = {group_id for group_id, g in groups.items()
            if group_advantages([s.reward for s in g.samples]) is None}
    assert set(trained) == set(groups) - flat  # every group with signal, once
    summary = json.loads(log.read_text().strip().splitlines()[-1])
    assert (summary["version"], summary["groups_trained"]) == (last, last)
    assert summary["dropped"] == ({"no_signal": len(flat)} if flat else {})
    assert redis.xpending(stream, "learner")["pending"] == 0
    assert current_version(redis, key) == last
    assert {version_name(v) for v in range(last + 1)} <= seen  # each loaded into vLLM
    assert versions["current"] == last  # the API reads the key the stack named
    assert [v["version"] for v in versions["versions"]] == list(range(last + 1))
    curves = read_curves(out / RUN)
    assert [row["version"] for row in curves] == list(range(1, last + 1))
    assert (out / RUN / "curves.png").read_bytes()[:4] == b"\x89PNG"  # drawn as it stopped
    trained_rewards = []
    for row, group_id in zip(curves, trained, strict=True):
        rewards = [s.reward for s in groups[group_id].samples if s.reward is not None]
        trained_rewards.append(rewards)
        assert row["group_reward_mean"] == pytest.approx(sum(rewards) / len(rewards))
    assert [(r["name"], r["updates"], r["last_version"]) for r in runs] == [(RUN, last, last)]
    return {"groups": groups, "last": last, "trained_rewards": trained_rewards,
            "flat": len(flat)}


def check_episodes(stored: list[Episode], listed: dict[str, dict], figures: dict) -> None:
    """Every episode sampled a version and says which over REST; each worker, one episode
    at a time, sampled non-decreasing versions; the first sampled the starting weights and
    later ones versions the learner published meanwhile, up to 2 or more."""
    assert len(stored) == len(SEEDS) * GROUP_SIZE
    assert all(e.outcome in ("ok", "invalid_output") for e in stored), \
        [(e.outcome, e.error) for e in stored]
    assert {e.id: e.policy_version for e in stored} == \
        {i: e["policy_version"] for i, e in listed.items()}
    versions = [e.policy_version for e in stored]
    assert versions[0] == 0 and 2 <= max(versions) <= figures["last"], versions
    workers = {e.worker for e in stored}
    assert len(workers) >= 2, workers  # both workers ran episodes
    for worker in workers:
        mine = [e.policy_version for e in stored if e.worker == worker]
        assert mine == sorted(mine), (worker, mine)
    for group_id, group in figures["groups"].items():
        sampled = [e.policy_version for e in stored if e.group_id == group_id]
        assert group.policy_version == min(sampled)  # staleness never understated
    by_version: dict[int, list[float]] = {}
    for e in stored:
        by_version.setdefault(e.policy_version, []).append(e.total_reward)
    figures["summary"] = (
        f"{len(figures['groups'])} groups, {figures['last']} updates, {figures['flat']} "
        f"dropped as no signal; trained groups' rewards {figures['trained_rewards']}; "
        "episodes by the version they sampled: " + ", ".join(
            f"v{v}: {len(r)} (mean reward {sum(r) / len(r):.3f})"
            for v, r in sorted(by_version.items())))
