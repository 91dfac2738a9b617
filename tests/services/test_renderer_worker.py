"""Renderer workers for real: Celery worker processes over the running Redis, writing to a
fresh Postgres schema. Episodes complete exactly once, their records equal the embedded
run's, finished groups reach the Redis stream, and a worker killed mid-episode loses nothing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from db_support import REDIS_URL, postgres_schema
from redis import Redis
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from stack_support import Stack
from tcp_proxy import TcpProxy

from designrl.rollout.episode import run_episode_spec
from designrl.rollout.live import live_key, read_live_steps
from designrl.rollout.stored import stored_spec
from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.jobs import EpisodePlan, create_job, list_episodes, mark_enqueued
from designrl.store.models import Episode, Step
from services.renderer.app import make_celery
from services.renderer.settings import RendererSettings

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def submit(stack: Stack, plans: list[EpisodePlan]) -> str:
    """Store a job and send its episodes straight to the queue (no API in these tests)."""
    celery = make_celery(RendererSettings(redis_url=stack.redis_url, queue=stack.queue))
    with stack.sessions() as session:
        job = create_job(session, kind="benchmark", spec={"test": True}, plans=plans)
        ids = [e.id for e in list_episodes(session, job.id)]
        for episode_id in ids:
            celery.send_task("designrl.run_episode", args=[episode_id], queue=stack.queue)
        mark_enqueued(session, ids)
    return job.id


@pytest.fixture
def stack():
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_EPISODE_TIME_LIMIT_S="60")
        try:
            yield stack
        finally:
            stack.close()


def plans(tasks, seeds, policies, group_size=None) -> list[EpisodePlan]:
    out = [EpisodePlan(family="layout", task_id=t, item_key=str(s), seed=s, policy=p,
                       profile="default") for t in tasks for s in seeds for p in policies]
    if group_size:
        out = [EpisodePlan(**{**p.__dict__, "group": i // group_size}) for i, p in enumerate(out)]
    return out


def test_two_workers_run_a_job_exactly_as_the_embedded_path(stack):
    for name in ("w1", "w2"):
        stack.start_worker(name)
    job_id = submit(stack, plans(["gen-poster", "gen-slide"], [1_000_000, 1_000_001],
                                ["rule", "random"], group_size=2))
    stack.wait_for(job_id)
    with stack.sessions() as session:
        episodes = list_episodes(session, job_id)
        assert len(episodes) == 8 and all(e.status == "completed" for e in episodes)
        assert all(e.attempts == 1 and e.outcome == "ok" for e in episodes)
        for e in episodes:
            embedded = run_episode_spec(stored_spec(e))  # grouped: each its sampling seed
            assert (e.final_score, e.instruction_score, e.total_reward, e.steps_count) == (
                embedded.final_score, embedded.instruction_score, embedded.total_reward,
                len(embedded.steps))
        assert len({e.worker.split(":")[1] for e in episodes}) >= 1
        # each step was published live as it was taken, as the record stores it
        redis = Redis.from_url(stack.redis_url)
        for e in episodes:
            stored = [{"index": s.index, "action": s.action, "valid": s.valid,
                       "reward": s.reward, "score": s.score, "error": s.error, "info": s.info}
                      for s in e.steps]
            assert read_live_steps(redis, e.id) == stored
            redis.delete(live_key(e.id))
    entries = redis.xrange(stack.stream)
    groups = [json.loads(fields[b"group"]) for _, fields in entries]
    assert len(groups) == 4 and all(len(g["samples"]) == 2 for g in groups)
    assert all(s["reward"] is not None and s["outcome"] == "ok"
               for g in groups for s in g["samples"])


def test_a_worker_killed_mid_episode_loses_nothing_and_duplicates_nothing(stack):
    stack.start_worker("victim")
    job_id = submit(stack, plans(["gen-poster", "gen-editorial"], [1_000_000, 1_000_001],
                                ["expert"], group_size=2))
    # Wait until the victim's pool child is inside an episode, then SIGKILL that child.
    deadline = time.monotonic() + 60
    running = None
    while running is None and time.monotonic() < deadline:
        with stack.sessions() as session:
            running = session.scalar(select(Episode).where(Episode.job_id == job_id,
                                                           Episode.status == "running"))
        time.sleep(0.05)
    assert running is not None, "no episode started"
    os.kill(int(running.worker.split(":")[1]), signal.SIGKILL)
    stack.start_worker("rescuer")
    stack.wait_for(job_id, timeout=180)
    with stack.sessions() as session:
        episodes = list_episodes(session, job_id)
        assert all(e.status == "completed" and e.outcome == "ok" for e in episodes)
        killed = session.get(Episode, running.id)
        assert killed.attempts == 2  # started, killed, run again
        steps = session.scalar(select(func.count()).select_from(Step)
                               .where(Step.episode_id == running.id))
        assert steps == killed.steps_count  # written once
    assert len(Redis.from_url(stack.redis_url).xrange(stack.stream)) == 2


def test_a_worker_killed_outright_and_never_restarted_is_replaced_by_the_reconciler():
    """The whole victim worker (parent and pool child) is SIGKILLed mid-episode, so Celery
    would give its task back only after the 900 s visibility timeout: the API's reconciler
    sees the worker's heartbeat expire and queues the episode again, and another worker
    runs it within the reconciler's period."""
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_EPISODE_TIME_LIMIT_S="60", DESIGNRL_HEARTBEAT_S="0.5",
                      DESIGNRL_HEARTBEAT_TTL_S="2", DESIGNRL_RECONCILE_EVERY_S="1",
                      DESIGNRL_LOST_WORKER_AFTER_S="2")
        try:
            stack.start_api()  # runs the reconciler
            stack.start_worker("victim")
            job_id = submit(stack, plans(["gen-poster", "gen-editorial"], [1_000_000],
                                         ["expert"]))
            deadline = time.monotonic() + 60
            running = None
            while running is None and time.monotonic() < deadline:
                with stack.sessions() as session:
                    running = session.scalar(select(Episode).where(
                        Episode.job_id == job_id, Episode.status == "running"))
                time.sleep(0.05)
            assert running is not None, "no episode started"
            stack.kill("victim")
            stack.start_worker("rescuer")
            killed_at = time.monotonic()
            stack.wait_for(job_id, timeout=60)
            assert time.monotonic() - killed_at < 60  # far inside the visibility timeout
            with stack.sessions() as session:
                episodes = list_episodes(session, job_id)
                assert all(e.status == "completed" and e.outcome == "ok" for e in episodes)
                rerun = session.get(Episode, running.id)
                assert rerun.attempts == 2 and rerun.worker != running.worker
        finally:
            stack.close()


def test_a_database_outage_mid_job_is_retried_not_lost():
    """Workers reach Postgres through a proxy that is cut for a few seconds mid-job: their
    writes fail, the tasks retry with backoff, and every episode is still written once."""
    with postgres_schema() as url:
        upgrade(url)
        target = make_url(url)
        proxy = TcpProxy((target.host, target.port or 5432))
        proxied = target.set(port=proxy.port).render_as_string(hide_password=False)
        stack = Stack(proxied, DESIGNRL_EPISODE_TIME_LIMIT_S="60")
        direct = make_sessionmaker(make_engine(url))
        try:
            stack.start_worker("w1")
            stack.start_worker("w2")
            job_id = submit(stack, plans(["gen-poster", "gen-editorial"],
                                         [1_000_000, 1_000_001, 1_000_002], ["expert"]))
            # cut while an episode is running, so its write is sure to meet the outage
            # (a fixed delay misses on a loaded machine, where workers start late)
            deadline = time.monotonic() + 120
            while True:
                with direct() as session:
                    if any(e.status == "running" for e in list_episodes(session, job_id)):
                        break
                assert time.monotonic() < deadline, "no episode started"
                time.sleep(0.05)
            # hold the cut until a worker has come back to the database and been refused
            # (a running episode under load may compute for longer than the 4 s)
            proxy.cut()
            cut_at = time.monotonic()
            while time.monotonic() - cut_at < 4.0 or (
                    proxy.refused == 0 and time.monotonic() - cut_at < 60):
                time.sleep(0.1)
            refused = proxy.refused
            proxy.restore()
            assert refused > 0, "no worker touched the database during the cut"
            deadline = time.monotonic() + 180
            while True:
                with direct() as session:
                    episodes = list_episodes(session, job_id)
                    if all(e.status == "completed" for e in episodes):
                        break
                assert time.monotonic() < deadline, [e.status for e in episodes]
                time.sleep(0.3)
            with direct() as session:
                for e in episodes:
                    rows = session.scalar(select(func.count()).select_from(Step)
                                          .where(Step.episode_id == e.id))
                    assert rows == e.steps_count and e.outcome == "ok"
            assert any(e.attempts > 1 for e in episodes)  # the outage did hit a write
        finally:
            stack.close()
            proxy.close()
            direct.kw["bind"].dispose()


# What a worker's ``vllm:latest`` episode asks for the version it samples, in a worker's
# own process as its settings come from the environment.
LATEST_VERSION = """
from services.renderer.tasks import _latest_version
print(_latest_version())
"""


def test_a_worker_reads_the_version_at_the_key_it_is_configured_with():
    """``DESIGNRL_VERSION_KEY`` names where the learner announces its versions; a worker's
    ``vllm:latest`` episodes read that key, not the default one (where another learner,
    or none, announces)."""
    redis = Redis.from_url(REDIS_URL)
    key = f"test-version-{uuid.uuid4().hex[:8]}"
    redis.set(key, 7)
    env = {**os.environ, "REDIS_URL": REDIS_URL, "DESIGNRL_VERSION_KEY": key,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    try:
        ran = subprocess.run([sys.executable, "-P", "-c", LATEST_VERSION], env=env,
                             capture_output=True, text=True, timeout=120)
    finally:
        redis.delete(key)
        redis.close()
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.split()[-1] == "7"
