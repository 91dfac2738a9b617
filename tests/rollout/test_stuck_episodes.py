"""No episode is ever stuck, against the running Postgres and Redis: whatever a policy
raises is the episode's recorded outcome (or propagates for the caller's bounded retry);
the reconciler takes back running episodes whose worker stopped beating or whose time is
up, and fails them after the attempt cap; a job whose episodes failed says so."""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import timedelta

import openai
import pytest
from db_support import REDIS_URL
from inference_support import ModelServer
from redis import Redis

from designrl.policies import InferenceServer
from designrl.rollout.reconcile import Lost, reconcile
from designrl.rollout.stored import run_stored_episode
from designrl.rollout.workers import Heartbeat, live_workers
from designrl.store.jobs import EpisodePlan, claim_episode, create_job, job_progress, list_episodes
from designrl.store.models import Episode, Job, utcnow

pytestmark = pytest.mark.integration


@pytest.fixture
def redis():
    client = Redis.from_url(REDIS_URL)
    yield client
    client.close()


def layout_job(sessions, *policies: str, n: int = 1, group: bool = False) -> list[str]:
    """A job of ``n`` layout episodes per policy (seeds 0..n-1), one group if ``group``."""
    plans = [EpisodePlan(family="layout", task_id="gen-poster", item_key=str(i), seed=i,
                         policy=policy, profile="default", group=0 if group else None)
             for policy in policies for i in range(n)]
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans)
        return [e.id for e in list_episodes(session, job.id)]


def stored(sessions, episode_id: str) -> tuple[Episode, Job]:
    with sessions() as session:
        episode = session.get(Episode, episode_id)
        return episode, session.get(Job, episode.job_id)


def test_a_policy_raising_any_exception_ends_the_episode_with_a_recorded_outcome(sessions):
    """``vllm:nosuchmodel`` on a real OpenAI-compatible server: the client raises
    ``openai.NotFoundError`` (not a ValueError); the episode is recorded, not left running,
    and its job, whose only episode failed, ends ``failed``."""
    with ModelServer(["policy"]) as server:
        episode_id, = layout_job(sessions, "vllm:nosuchmodel")
        ran = run_stored_episode(sessions, episode_id, worker="w:1",
                                 server=InferenceServer(server.url))
    assert ran.outcome == "done" and ran.record.outcome == "error"
    episode, job = stored(sessions, episode_id)
    assert (episode.status, episode.outcome) == ("completed", "error")
    assert episode.error.startswith("NotFoundError:") and "nosuchmodel" in episode.error
    assert job.status == "failed" and "every episode failed (1)" in job.error
    with sessions() as session:
        assert job_progress(session, job.id)["failed"] == 1


def test_an_unreachable_server_is_recorded_or_passed_to_the_caller_to_retry(sessions):
    with ModelServer([]) as server:
        url = server.url  # closed: nothing listens there any more
    first, second = layout_job(sessions, "vllm:policy", n=2)
    dead = InferenceServer(url)
    with pytest.raises(openai.APIConnectionError):  # the worker retries these, bounded
        run_stored_episode(sessions, first, worker="w:1", server=dead,
                           passes=(openai.APIConnectionError,))
    assert stored(sessions, first)[0].status == "running"  # claimed, for the retry
    run_stored_episode(sessions, second, worker="w:1", server=dead)
    episode, _ = stored(sessions, second)
    assert (episode.status, episode.outcome) == ("completed", "error")
    assert episode.error.startswith("APIConnectionError:")


def test_a_job_with_some_failed_episodes_says_how_many(sessions):
    bad, good = layout_job(sessions, "vllm:nosuchmodel", "random")
    with ModelServer(["policy"]) as server:
        run_stored_episode(sessions, bad, worker="w:1", server=InferenceServer(server.url))
    run_stored_episode(sessions, good, worker="w:1")
    _, job = stored(sessions, good)
    assert job.status == "completed"
    assert job.error.startswith("1 of 2 episodes failed; first: NotFoundError")
    with sessions() as session:
        progress = job_progress(session, job.id)
    assert (progress["completed"], progress["failed"]) == (1, 1)


def lost_rules(alive, *, started_before_s: float = 600, quiet_before_s: float = 0,
               max_attempts: int = 3) -> Lost:
    now = utcnow()
    return Lost(started_before=now - timedelta(seconds=started_before_s),
                quiet_before=now + timedelta(seconds=1) - timedelta(seconds=quiet_before_s),
                alive=alive, max_attempts=max_attempts)


class Queue:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, ids: Sequence[str]) -> None:
        self.sent += ids


def test_a_running_episode_whose_worker_stopped_beating_is_queued_again(sessions, redis):
    tag = uuid.uuid4().hex[:8]
    alive_name, dead_name = f"alive-{tag}:1", f"dead-{tag}:2"
    beat = Heartbeat(redis, alive_name, every_s=0.2, ttl_s=1.0).start()
    dying = Heartbeat(redis, dead_name, every_s=0.2, ttl_s=0.6).start()
    try:
        busy, orphan, waiting = layout_job(sessions, "random", n=3)
        with sessions() as session:
            claim_episode(session, busy, alive_name)
            claim_episode(session, orphan, dead_name)
        assert live_workers(redis, [alive_name, dead_name]) == {alive_name, dead_name}
        dying._stop.set()  # the worker is SIGKILLed: no more beats, no goodbye
        time.sleep(1.0)
        assert live_workers(redis, [alive_name, dead_name]) == {alive_name}
        queue = Queue()
        done = reconcile(sessions, enqueued_before=utcnow() - timedelta(hours=1), enqueue=queue,
                         lost=lost_rules(lambda names: live_workers(redis, names)))
    finally:
        beat.stop()
        dying.stop()
    assert (done.taken_back, done.failed) == (1, 0)
    assert queue.sent == [orphan, waiting]  # waiting was never enqueued at all
    episode, _ = stored(sessions, orphan)
    assert (episode.status, episode.worker, episode.attempts) == ("queued", None, 1)
    assert episode.enqueued_at is not None
    assert stored(sessions, busy)[0].status == "running"  # its worker is alive and in time
    run_stored_episode(sessions, orphan, worker="rescuer:3")  # another worker runs it
    episode, _ = stored(sessions, orphan)
    assert (episode.status, episode.outcome, episode.attempts) == ("completed", "ok", 2)


def test_an_overdue_episode_is_taken_back_even_with_a_live_worker(sessions, redis):
    name = f"slow-{uuid.uuid4().hex[:8]}:1"
    episode_id, = layout_job(sessions, "random")
    with sessions() as session:
        claim_episode(session, episode_id, name)
    beat = Heartbeat(redis, name, every_s=0.2, ttl_s=1.0).start()
    try:
        alive = lambda names: live_workers(redis, names)  # noqa: E731
        queue = Queue()
        reconcile(sessions, enqueued_before=utcnow(), enqueue=queue, lost=lost_rules(alive))
        assert queue.sent == []  # in time: left alone
        time.sleep(0.1)
        done = reconcile(sessions, enqueued_before=utcnow() - timedelta(hours=1),
                         enqueue=queue, lost=lost_rules(alive, started_before_s=0))
    finally:
        beat.stop()
    assert done.taken_back == 1 and queue.sent == [episode_id]
    assert stored(sessions, episode_id)[0].status == "queued"


def test_a_lost_episode_past_the_attempt_cap_is_failed_and_its_group_published(sessions):
    first, second = layout_job(sessions, "random", n=2, group=True)
    run_stored_episode(sessions, second, worker="w:1")
    with sessions() as session:
        for _ in range(3):  # started three times, each worker lost
            claim_episode(session, first, "gone:1")
    published, queue = [], Queue()
    done = reconcile(sessions, enqueued_before=utcnow() - timedelta(hours=1), enqueue=queue,
                     publish=published.append, lost=lost_rules(lambda names: set()))
    assert (done.taken_back, done.failed) == (1, 1) and queue.sent == []
    episode, job = stored(sessions, first)
    assert episode.status == "failed" and "stopped answering" in episode.error
    assert "started 3 times" in episode.error
    assert job.status == "completed" and job.error.startswith("1 of 2 episodes failed")
    assert len(published) == 1  # the group it completed, once


def test_unreadable_heartbeats_never_look_like_dead_workers(sessions):
    episode_id, = layout_job(sessions, "random")
    with sessions() as session:
        claim_episode(session, episode_id, "w:1")

    def broken(names):
        raise ConnectionError("redis is down")

    queue = Queue()
    done = reconcile(sessions, enqueued_before=utcnow() - timedelta(hours=1), enqueue=queue,
                     lost=lost_rules(broken))
    assert done.taken_back == 0 and queue.sent == []
    assert stored(sessions, episode_id)[0].status == "running"
