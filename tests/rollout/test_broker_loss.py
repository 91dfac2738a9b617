"""A Redis that lost its data (restarted without persistence) drops every queued task: the
broker mark notices within one reconciler pass, and the reconciler enqueues every queued
episode again at once instead of after ``requeue_after_s``; running episodes are left to
their workers. Against the running Postgres and Redis (on a key of the test's own)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta

import pytest
from db_support import REDIS_URL
from redis import Redis

from designrl.rollout.broker import BrokerMark
from designrl.rollout.reconcile import reconcile
from designrl.store.jobs import (
    EpisodePlan,
    claim_episode,
    create_job,
    list_episodes,
    mark_enqueued,
)
from designrl.store.models import Episode, utcnow
from services.stack import free_port

pytestmark = pytest.mark.integration


@pytest.fixture
def mark():
    redis = Redis.from_url(REDIS_URL)
    mark = BrokerMark(redis, key=f"test-broker-mark-{uuid.uuid4().hex[:8]}")
    yield mark
    redis.delete(mark.key, *redis.keys(f"{mark.key}:claimed:*"))
    redis.close()


def test_the_mark_tells_a_redis_that_lost_its_data(mark):
    assert not mark.lost()  # the first look: nothing to compare with
    assert not mark.lost() and mark.seen == mark.redis.get(mark.key)
    mark.redis.delete(mark.key)  # what a restart without persistence leaves
    assert mark.lost()
    assert mark.lost()  # until what was lost is enqueued again
    mark.settle()
    assert not mark.lost()


def test_of_two_processes_watching_one_broker_one_enqueues_again(mark):
    other = BrokerMark(mark.redis, key=mark.key)
    assert not mark.lost() and not other.lost()
    mark.redis.delete(mark.key)
    assert other.lost() and not mark.lost()  # the first to look claims the loss
    assert mark.seen == other.seen  # and both look from the new mark on
    other.settle()
    mark.redis.delete(mark.key)
    assert mark.lost() and not other.lost()


def test_an_unreachable_redis_is_no_loss():
    mark = BrokerMark(Redis(port=free_port(), socket_connect_timeout=1))
    assert not mark.lost() and mark.seen is None


class Queue:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.down = False

    def __call__(self, ids: Sequence[str]) -> None:
        if self.down:
            raise ConnectionError("broker unreachable")
        self.sent += ids


def test_after_a_loss_every_queued_episode_is_enqueued_again_at_once(sessions, mark):
    plans = [EpisodePlan(family="layout", task_id="gen-poster", item_key=str(i), seed=i,
                         policy="random", profile="default") for i in range(3)]
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans)
        running, *queued = [e.id for e in list_episodes(session, job.id)]
        mark_enqueued(session, [running, *queued])  # sent a moment ago
        claim_episode(session, running, "w:1")
    queue, an_hour_ago = Queue(), utcnow() - timedelta(hours=1)
    mark.lost()
    done = reconcile(sessions, enqueued_before=an_hour_ago, enqueue=queue, broker=mark)
    assert (done.requeued, done.broker_lost, queue.sent) == (0, False, [])  # still queued
    mark.redis.delete(mark.key)  # Redis restarted empty: their tasks are gone
    queue.down = True  # and the first try to send them fails
    with pytest.raises(ConnectionError):
        reconcile(sessions, enqueued_before=an_hour_ago, enqueue=queue, broker=mark)
    queue.down = False
    done = reconcile(sessions, enqueued_before=an_hour_ago, enqueue=queue, broker=mark)
    assert (done.requeued, done.broker_lost, queue.sent) == (2, True, queued)
    done = reconcile(sessions, enqueued_before=an_hour_ago, enqueue=queue, broker=mark)
    assert (done.requeued, done.broker_lost) == (0, False)  # settled: sent once
    with sessions() as session:
        assert session.get(Episode, running).status == "running"  # its worker has it
