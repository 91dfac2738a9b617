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

from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.jobs import EpisodePlan, create_job, list_episodes, mark_enqueued
from designrl.store.models import Episode, Job, Step
from services.renderer.app import make_celery
from services.renderer.settings import RendererSettings

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


class Stack:
    """A database schema, a private queue and stream, and worker processes on them."""

    def __init__(self, database_url: str) -> None:
        tag = uuid.uuid4().hex[:8]
        self.env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": REDIS_URL,
                    "DESIGNRL_QUEUE": f"test-episodes-{tag}",
                    "DESIGNRL_GROUPS_STREAM": f"test-groups-{tag}",
                    "DESIGNRL_EPISODE_TIME_LIMIT_S": "60",
                    "PYTHONPATH": str(ROOT)}
        self.settings = RendererSettings(_env_file=None, **{
            "database_url": database_url, "redis_url": REDIS_URL,
            "queue": self.env["DESIGNRL_QUEUE"], "groups_stream": self.env["DESIGNRL_GROUPS_STREAM"]})
        self.celery = make_celery(self.settings)
        self.sessions = make_sessionmaker(make_engine(database_url))
        self.redis = Redis.from_url(REDIS_URL)
        self.workers: list[subprocess.Popen] = []

    def start_worker(self, name: str) -> subprocess.Popen:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "services.renderer.app", "worker",
             "--pool=prefork", "--concurrency=1", "-Q", self.settings.queue, "-n",
             f"{name}@%h", "--without-gossip", "--without-mingle", "--loglevel=WARNING"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True)
        self.workers.append(worker)
        return worker

    def submit(self, plans: list[EpisodePlan]) -> str:
        with self.sessions() as session:
            job = create_job(session, kind="benchmark", spec={"test": True}, plans=plans)
            ids = [e.id for e in list_episodes(session, job.id)]
            for episode_id in ids:
                self.celery.send_task("designrl.run_episode", args=[episode_id],
                                      queue=self.settings.queue)
            mark_enqueued(session, ids)
        return job.id

    def wait_for(self, job_id: str, timeout: float = 120.0) -> Job:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.sessions() as session:
                job = session.get(Job, job_id)
                if job.status == "completed":
                    return job
            time.sleep(0.2)
        raise AssertionError(f"job {job_id} did not complete in {timeout}s")

    def close(self) -> None:
        for worker in self.workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in self.workers:
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
        self.redis.delete(self.settings.queue, self.settings.groups_stream)
        self.redis.close()


@pytest.fixture
def stack():
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url)
        try:
            yield stack
        finally:
            stack.close()
            stack.sessions.kw["bind"].dispose()


def plans(tasks, seeds, policies, group_size=None) -> list[EpisodePlan]:
    out = [EpisodePlan(family="layout", task_id=t, item_key=str(s), seed=s, policy=p,
                       profile="default") for t in tasks for s in seeds for p in policies]
    if group_size:
        out = [EpisodePlan(**{**p.__dict__, "group": i // group_size}) for i, p in enumerate(out)]
    return out


def test_two_workers_run_a_job_exactly_as_the_embedded_path(stack):
    for name in ("w1", "w2"):
        stack.start_worker(name)
    job_id = stack.submit(plans(["gen-poster", "gen-slide"], [1_000_000, 1_000_001],
                                ["rule", "random"], group_size=2))
    stack.wait_for(job_id)
    with stack.sessions() as session:
        episodes = list_episodes(session, job_id)
        assert len(episodes) == 8 and all(e.status == "completed" for e in episodes)
        assert all(e.attempts == 1 and e.outcome == "ok" for e in episodes)
        for e in episodes:
            embedded = run_episode_spec(EpisodeSpec(family="layout", task_id=e.task_id,
                                                    policy=e.policy, seed=e.seed,
                                                    profile="default"))
            assert (e.final_score, e.instruction_score, e.total_reward, e.steps_count) == (
                embedded.final_score, embedded.instruction_score, embedded.total_reward,
                len(embedded.steps))
        assert len({e.worker.split(":")[1] for e in episodes}) >= 1
    entries = stack.redis.xrange(stack.settings.groups_stream)
    groups = [json.loads(fields[b"group"]) for _, fields in entries]
    assert len(groups) == 4 and all(len(g["samples"]) == 2 for g in groups)
    assert all(s["reward"] is not None and s["outcome"] == "ok"
               for g in groups for s in g["samples"])


def test_a_worker_killed_mid_episode_loses_nothing_and_duplicates_nothing(stack):
    stack.start_worker("victim")
    job_id = stack.submit(plans(["gen-poster", "gen-editorial"], [1_000_000, 1_000_001],
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
    assert len(stack.redis.xrange(stack.settings.groups_stream)) == 2
