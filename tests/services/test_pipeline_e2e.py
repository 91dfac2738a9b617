"""The distributed pipeline end to end: an API process and two worker processes on the real
Postgres and Redis. A benchmark submitted over REST equals the embedded run; a Redis restart
and a worker killed outright during a job lose nothing and duplicate nothing."""

from __future__ import annotations

import os
import signal
import time

import pytest
from db_support import postgres_schema
from sqlalchemy import func, select
from stack_support import PrivateRedis, Stack

from designrl.bench import BenchCase, run_case
from designrl.store import upgrade
from designrl.store.models import Episode, Step

pytestmark = pytest.mark.integration

BENCH = {"kind": "benchmark", "tasks": ["gen-poster", "gen-slide", "gen-banner"],
         "seeds": [1_000_000, 1_000_001, 1_000_002, 1_000_003], "policies": ["rule", "random"]}


@pytest.fixture
def schema():
    with postgres_schema() as url:
        upgrade(url)
        yield url


def episodes_over_rest(client, job_id: str) -> list[dict]:
    items, after = [], -1
    while after is not None:
        page = client.get(f"/v1/jobs/{job_id}/episodes", params={"after": after}).json()
        items += page["items"]
        after = page["next_after"]
    return items


def assert_each_written_once(stack: Stack, job_id: str) -> None:
    with stack.sessions() as session:
        episodes = session.scalars(select(Episode).where(Episode.job_id == job_id)).all()
        assert episodes and all(e.status == "completed" and e.outcome == "ok" for e in episodes)
        for e in episodes:
            rows = session.scalar(select(func.count()).select_from(Step)
                                  .where(Step.episode_id == e.id))
            assert rows == e.steps_count


def test_a_benchmark_over_rest_equals_the_embedded_run(schema):
    stack = Stack(schema)
    try:
        stack.start_worker("w1")
        stack.start_worker("w2")
        stack.start_api()
        with stack.client() as client:
            reply = client.post("/v1/jobs", json=BENCH)
            assert reply.status_code == 202, reply.text
            job_id = reply.json()["id"]
            assert stack.wait_for(job_id).status == "completed"
            job = client.get(f"/v1/jobs/{job_id}").json()
            assert job["progress"]["completed"] == 24 and job["status"] == "completed"
            episodes = episodes_over_rest(client, job_id)
            detail = client.get(episodes[0]["links"]["self"]).json()
            assert len(detail["steps"]) == detail["steps_count"]
            svg = client.get(episodes[0]["links"]["after"])
            assert svg.headers["content-type"].startswith("image/svg+xml")
        assert len(episodes) == 24
        for e in episodes:
            embedded = run_case(BenchCase("layout", e["task_id"], e["policy"], e["seed"],
                                          str(e["seed"]), "default"))
            assert (e["start_score"], e["final_score"], e["instruction_score"],
                    e["total_reward"], e["steps_count"]) == (
                embedded["start_score"], embedded["final_score"],
                embedded["instruction_score"], embedded["total_reward"], embedded["steps"])
        assert_each_written_once(stack, job_id)
    finally:
        stack.close()


def test_a_redis_restart_during_a_job_loses_nothing(schema):
    """The queued tasks are gone with Redis's data; the API's reconciler sees the loss on
    its next pass and enqueues them again then, not ``requeue_after_s`` (15 min) later."""
    redis = PrivateRedis()
    stack = Stack(schema, redis.url, DESIGNRL_RECONCILE_EVERY_S="1")
    try:
        stack.start_worker("w1")
        stack.start_worker("w2")
        stack.start_api()
        body = {**BENCH, "policies": ["expert"]}  # about a second per episode
        with stack.client() as client:
            job_id = client.post("/v1/jobs", json=body).json()["id"]
        time.sleep(2.0)
        redis.stop()  # nothing on disk: every queued task is gone
        time.sleep(1.0)
        redis.start()
        assert stack.wait_for(job_id, timeout=240).status == "completed"
        assert_each_written_once(stack, job_id)
        assert "the broker lost its data" in stack.service_logs["api"].path.read_text()
    finally:
        stack.close()
        redis.stop()


def test_a_worker_killed_outright_mid_episode_loses_nothing(schema):
    stack = Stack(schema, DESIGNRL_VISIBILITY_TIMEOUT_S="5", DESIGNRL_RESTORE_INTERVAL_S="1",
                  DESIGNRL_RECONCILE_EVERY_S="1", DESIGNRL_REQUEUE_AFTER_S="30")
    try:
        victim = stack.start_worker("victim")
        stack.start_api()
        with stack.client() as client:
            job_id = client.post("/v1/jobs", json={**BENCH, "policies": ["expert"],
                                                   "tasks": ["gen-poster"]}).json()["id"]
        deadline, running = time.monotonic() + 60, None
        while running is None and time.monotonic() < deadline:
            with stack.sessions() as session:
                running = session.scalar(select(Episode.id).where(
                    Episode.job_id == job_id, Episode.status == "running"))
            time.sleep(0.05)
        assert running is not None
        os.killpg(victim.pid, signal.SIGKILL)  # the worker and its pool child, at once
        stack.start_worker("rescuer")
        assert stack.wait_for(job_id, timeout=240).status == "completed"
        assert_each_written_once(stack, job_id)
    finally:
        stack.close()
