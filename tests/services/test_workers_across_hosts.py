"""Workers on other hosts (issue 17, "across hosts"): renderer workers, each on a test host
of its own (a network namespace with a veth link, ``netns_support``), reach this machine's
Redis and Postgres over their links; the API and its reconciler run here.

* One host's link is cut (taken down: its packets are dropped, nothing is reset) while its
  worker runs an episode. The other host runs the whole job meanwhile; the link is healed
  only after the visibility timeout, when Celery too has given the cut worker's task back.
  Every episode is written exactly once (the cut worker's late finish writes nothing), none
  is lost, every group reaches the learner's stream, and the cut worker serves again.
* A host cut off for good while its worker holds its job's row lock does not stall the job.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from db_support import POSTGRES_URL, REDIS_URL, postgres_schema
from netns_support import TestHost, netns_unavailable
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from redis import Redis
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from stack_support import Stack

from designrl.rollout.workers import live_workers
from designrl.store import upgrade
from designrl.store.jobs import EpisodePlan, create_job, list_episodes, mark_enqueued
from designrl.store.models import Episode, Group, RewardComponent, Step
from services.renderer.app import RUN_EPISODE, make_celery
from services.renderer.settings import RendererSettings

pytestmark = pytest.mark.integration

# Longer than one of these episodes (seconds), as in production, and than the reconciler
# needs to see the cut worker gone. The heartbeat leaves room for a loaded CI machine: a
# live worker whose beats lapse has its episode taken back while it still runs it.
VISIBILITY_S = 10
IDLE_IN_TRANSACTION_S = 3
SETTINGS = {
    "DESIGNRL_IDLE_IN_TRANSACTION_S": str(IDLE_IN_TRANSACTION_S),
    # Far beyond the test: Celery's time limits never end the cut worker's task for it.
    "DESIGNRL_EPISODE_TIME_LIMIT_S": "600",
    "DESIGNRL_VISIBILITY_TIMEOUT_S": str(VISIBILITY_S), "DESIGNRL_RESTORE_INTERVAL_S": "1",
    "DESIGNRL_HEARTBEAT_S": "1", "DESIGNRL_HEARTBEAT_TTL_S": "5",
    "DESIGNRL_RECONCILE_EVERY_S": "1", "DESIGNRL_LOST_WORKER_AFTER_S": "5",
}


def poll(condition, timeout: float, what: str, every: float = 0.05):
    """``condition()``'s first truthy value, polled until ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g}s"
        time.sleep(every)
    return value


@pytest.fixture
def hosts():
    """Two test hosts whose forwarders reach this machine's Redis and Postgres."""
    if reason := netns_unavailable():
        pytest.skip(f"no test hosts: {reason}")
    redis, postgres = urlsplit(REDIS_URL), make_url(POSTGRES_URL)
    services = {"redis": (redis.hostname, redis.port or 6379),
                "postgres": (postgres.host, postgres.port or 5432)}
    made: list[TestHost] = []
    try:
        for name in ("host-a", "host-b"):
            made.append(TestHost(name, services))
        yield made
    finally:
        for host in made:
            host.close()


@pytest.fixture
def stack(hosts):
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, **SETTINGS)
        try:
            yield stack
        finally:
            stack.close()  # before the hosts go: their workers are stopped first


def start_worker(stack: Stack, host: TestHost, metrics: Path) -> str:
    """A worker on ``host``, with the database and Redis as that host reaches them and its
    counters in ``metrics`` (this machine reads them: the namespace shares its files)."""
    name = f"{host.name}-{uuid.uuid4().hex[:6]}"
    database = make_url(stack.database_url).set(host=host.address, port=host.ports["postgres"])
    metrics.mkdir()
    stack.start_worker(name, host.command([]), {
        "DATABASE_URL": database.render_as_string(hide_password=False),
        "REDIS_URL": f"redis://{host.address}:{host.ports['redis']}/0",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics)})
    return name


def wait_consuming(stack: Stack, workers: dict[str, TestHost]) -> None:
    """Until each worker answers a ping (it consumes the queue)."""
    celery = make_celery(RendererSettings(redis_url=stack.redis_url, queue=stack.queue))
    nodes = {f"{name}@{host.name}" for name, host in workers.items()}

    def answered() -> bool:
        assert all(stack.processes[name].poll() is None for name in workers), "a worker exited"
        replies = celery.control.ping(sorted(nodes), timeout=0.5)
        return {node for reply in replies for node in reply} >= nodes

    poll(answered, 90, "the workers to answer a ping", every=0.2)


def readable(stream, timeout: float) -> bool:
    """Whether ``stream`` has something to read within ``timeout`` seconds."""
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        return bool(selector.select(timeout))


def deliveries(metrics: Path) -> dict[str, float]:
    """A worker's task deliveries by what they did (``done``: the record was written now,
    ``duplicate``: it was written already, ``skipped``: finished before the claim)."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics))
    return {sample.labels["result"]: sample.value for metric in registry.collect()
            if metric.name == "designrl_episode_deliveries"
            for sample in metric.samples if sample.name.endswith("_total")}


def store(stack: Stack, plans: list[EpisodePlan]) -> str:
    with stack.sessions() as session:
        return create_job(session, kind="benchmark", spec={"test": True}, plans=plans).id


def enqueue(stack: Stack, job_id: str) -> None:
    """Send a stored job's episodes to the queue, as the API does."""
    celery = make_celery(RendererSettings(redis_url=stack.redis_url, queue=stack.queue))
    with stack.sessions() as session:
        ids = [e.id for e in list_episodes(session, job_id)]
        for episode_id in ids:
            celery.send_task(RUN_EPISODE, args=[episode_id], queue=stack.queue)
        mark_enqueued(session, ids)


def submit(stack: Stack, plans: list[EpisodePlan]) -> str:
    job_id = store(stack, plans)
    enqueue(stack, job_id)
    return job_id


def layout_plans(policy: str, seeds: list[int], group: int | None = None):
    return [EpisodePlan(family="layout", task_id=task, item_key=str(seed), seed=seed,
                        policy=policy, profile="default", group=group)
            for task in ("gen-poster", "gen-editorial") for seed in seeds]


def written(stack: Stack, job_id: str) -> dict[str, tuple]:
    """Each episode's record as stored, with its row counts: what "written once" compares."""
    with stack.sessions() as session:
        out = {}
        for e in list_episodes(session, job_id):
            steps = session.scalar(select(func.count()).select_from(Step)
                                   .where(Step.episode_id == e.id))
            rewards = session.scalar(select(func.count()).select_from(RewardComponent)
                                     .where(RewardComponent.episode_id == e.id))
            out[e.id] = (e.status, e.outcome, e.total_reward, e.final_score, e.steps_count,
                         steps, rewards, e.finished_at, e.attempts, e.worker)
        return out


def test_a_worker_cut_off_mid_episode_loses_and_duplicates_nothing(stack, hosts, tmp_path):
    host_a, host_b = hosts
    metrics_a, metrics_b = tmp_path / "a", tmp_path / "b"
    worker_a = start_worker(stack, host_a, metrics_a)
    worker_b = start_worker(stack, host_b, metrics_b)
    stack.start_api()  # the reconciler, on this machine (while the workers start)
    wait_consuming(stack, {worker_a: host_a, worker_b: host_b})
    redis = Redis.from_url(stack.redis_url)
    # Two expert episodes (seconds each: one is sure to be caught running on host a),
    # then two quick ones; a group of each.
    job_id = submit(stack, layout_plans("expert", [1_000_000], group=0)
                    + layout_plans("rule", [1_000_000], group=1))

    def running_on_a() -> Episode | None:
        with stack.sessions() as session:
            return session.scalar(select(Episode).where(
                Episode.job_id == job_id, Episode.status == "running",
                Episode.worker.startswith(f"{host_a.name}:")))

    cut_episode = poll(running_on_a, 60, "host-a to run an episode")
    host_a.cut()
    ran_a = deliveries(metrics_a)  # what host a did before the cut
    cut_at = time.monotonic()

    # Host b alone finishes the job, the cut episode included (the reconciler took it back
    # once host a's heartbeat expired), while host a can reach nothing.
    job = stack.wait_for(job_id, timeout=120)
    assert job.status == "completed" and job.error is None
    assert live_workers(redis, [cut_episode.worker]) == set()  # still cut off
    before = written(stack, job_id)
    assert before[cut_episode.id][-2] >= 2  # run again (host a cannot write now)

    # Heal after the visibility timeout (and a restore sweep): by then Celery has also
    # given host a's unacknowledged task back.
    time.sleep(max(0.0, cut_at + VISIBILITY_S + 2 - time.monotonic()))
    cut_for = time.monotonic() - cut_at
    assert cut_for > VISIBILITY_S
    host_a.heal()
    # TCP retransmits with exponential backoff: a connection's first packet after the heal
    # may wait about as long as the cut lasted (at most 120 s).
    back_within = min(cut_for, 120) + 30

    # Host a comes back: its pool child beats again and ends the cut episode's delivery
    # (a duplicate, as the episode is written; or, had Postgres ended its session, a retry
    # whose redelivery finds it written), then serves again, alone: host b goes away and
    # a new job runs in the very process that was cut off (it never hung).
    poll(lambda: live_workers(redis, [cut_episode.worker]), back_within, "host-a's heartbeat")
    stack.kill(worker_b)
    stack.processes[worker_b].wait(30)
    second = submit(stack, layout_plans("rule", [1_000_002]))
    assert stack.wait_for(second, timeout=back_within + 30).status == "completed"
    assert {w for *_, w in written(stack, second).values()} == {cut_episode.worker}
    assert deliveries(metrics_a).get("done", 0) == ran_a.get("done", 0) + 2

    # Written exactly once: by the workers' own count (six episodes written, in all; host
    # a wrote none of the first job's after the cut), and nothing host a did after the
    # heal changed a record.
    done_a, done_b = deliveries(metrics_a), deliveries(metrics_b)
    assert done_a.get("done", 0) + done_b.get("done", 0) == 6, (done_a, done_b)
    after = written(stack, job_id)
    assert after == before
    for episode_id, (status, outcome, _, _, steps_count, steps, rewards, *_) in after.items():
        assert (status, outcome) == ("completed", "ok"), episode_id
        assert steps == steps_count > 0 and rewards > 0, episode_id
    with stack.sessions() as session:
        groups = set(session.scalars(select(Group.id).where(Group.job_id == job_id)))
    # None lost: every group reached the learner's stream (a repeat is allowed and dropped
    # by consumers, ``designrl.rollout.groups``), each with its two samples as stored.
    published = [json.loads(fields[b"group"]) for _, fields in redis.xrange(stack.stream)]
    assert {g["group_id"] for g in published} == groups and len(groups) == 2
    for g in published:
        assert {s["episode_id"] for s in g["samples"]} <= set(after) and len(g["samples"]) == 2
        assert all(s["reward"] == after[s["episode_id"]][2] for s in g["samples"])
    assert stack.processes[worker_a].poll() is None
    redis.close()


# A worker frozen where finishing an episode begins: its job's row locked (``finish_episode``
# locks the job first), in a session from the workers' own factory, on host a.
LOCK_AS_FINISH_DOES = """
import sys, time
from designrl.store.models import Job
from services.renderer.tasks import _sessions
session = _sessions()()
session.get(Job, sys.argv[1], with_for_update=True)
print("locked", flush=True)
time.sleep(600)
"""


def test_a_worker_cut_off_inside_a_write_does_not_hold_its_job(stack, hosts, tmp_path):
    """Host a is cut off while its worker holds its job's row lock (the first thing a
    finish does), and stays cut off (a host that vanished sends no FIN or RST): Postgres
    ends that session after the workers' ``idle_in_transaction_s``, so host b still runs
    the job's episodes to the end instead of waiting on the lock for hours."""
    host_a, host_b = hosts
    worker_b = start_worker(stack, host_b, tmp_path / "b")
    job_id = store(stack, layout_plans("rule", [1_000_000]))
    database = make_url(stack.database_url).set(host=host_a.address,
                                                port=host_a.ports["postgres"])
    holder = subprocess.Popen(
        host_a.command([sys.executable, "-c", LOCK_AS_FINISH_DOES, job_id]),
        env={**stack.env,
             "DATABASE_URL": database.render_as_string(hide_password=False)},
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert readable(holder.stdout, 60), "host a's worker never took the lock"
        assert holder.stdout.readline().strip() == "locked"
        host_a.cut()
        wait_consuming(stack, {worker_b: host_b})
        enqueue(stack, job_id)
        job = stack.wait_for(job_id, timeout=IDLE_IN_TRANSACTION_S + 30)
        assert job.status == "completed"
    finally:
        host_a.heal()  # so its session's end reaches Postgres, whatever happened
        os.killpg(holder.pid, signal.SIGKILL)
        holder.wait(10)
