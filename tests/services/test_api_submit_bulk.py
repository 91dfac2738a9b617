"""A big job through the REST API against the running Postgres and Redis: written once,
every episode enqueued once in Celery's own message; and the broker lost part way through
its batches (a real cut between the API and Redis), the reconciler sending the rest."""

from __future__ import annotations

import base64
import json
from urllib.parse import urlparse

import pytest
from db_support import REDIS_URL
from sqlalchemy import func, select
from tcp_proxy import TcpProxy

from designrl.rollout.enqueue import ENQUEUE_BATCH
from designrl.store.models import Episode, Group
from services.api.main import celery_enqueue, reconcile_once
from services.renderer.app import RUN_EPISODE

pytestmark = pytest.mark.integration

TASKS = ["gen-poster", "gen-editorial", "gen-flyer", "gen-slide", "gen-banner"]
BIG = {"kind": "rollout", "tasks": TASKS, "seeds": list(range(500)), "policy": "rule",
       "group_size": 2}  # 5,000 episodes (the user keys' limit), 2,500 groups
EPISODES = 5000


def queued_episodes(api) -> list[str]:
    """The episode id of every task message in the queue (oldest first), as a worker
    would read it."""
    ids = []
    for raw in reversed(api.redis.lrange(api.queue, 0, -1)):
        message = json.loads(raw)
        assert message["headers"]["task"] == RUN_EPISODE
        args, kwargs, _ = json.loads(base64.b64decode(message["body"]))
        assert kwargs == {} and message["headers"]["argsrepr"] == repr(args)
        ids.append(args[0])
    return ids


def stored(api, job_id: str) -> tuple[list[str], int, int]:
    """(episode ids in position order, how many are marked enqueued, the job's groups)."""
    with api.sessions() as session:
        ids = list(session.scalars(select(Episode.id).where(Episode.job_id == job_id)
                                   .order_by(Episode.position)))
        marked = session.scalar(select(func.count()).select_from(Episode).where(
            Episode.job_id == job_id, Episode.enqueued_at.is_not(None)))
        groups = session.scalar(select(func.count()).select_from(Group)
                                .where(Group.job_id == job_id))
    return ids, marked, groups


def test_a_big_job_is_written_once_and_every_episode_enqueued_once(api):
    reply = api.call("POST", "/v1/jobs", json=BIG)
    assert reply.status_code == 202
    job = reply.json()
    assert job["episodes_total"] == EPISODES and job["progress"]["queued"] == EPISODES
    ids, marked, groups = stored(api, job["id"])
    assert len(ids) == len(set(ids)) == EPISODES and marked == EPISODES
    assert groups == EPISODES // 2
    assert queued_episodes(api) == ids  # each once, in submission order
    task_ids = {json.loads(m)["headers"]["id"] for m in api.redis.lrange(api.queue, 0, -1)}
    assert len(task_ids) == EPISODES  # every message its own task
    assert reconcile_once(api.client.app).requeued == 0  # nothing left for the reconciler


def test_the_broker_lost_after_the_first_batch_leaves_the_rest_to_the_reconciler(api):
    redis = urlparse(REDIS_URL)
    proxy = TcpProxy((redis.hostname, redis.port or 6379))
    app = api.client.app
    through_proxy = celery_enqueue(app.state.settings.model_copy(update={
        "redis_url": f"redis://127.0.0.1:{proxy.port}{redis.path}"}))
    batches = []

    def enqueue_then_lose_the_broker(ids):
        through_proxy(ids)  # a real send; the broker goes away after the first batch
        batches.append(len(ids))
        proxy.cut()

    real, app.state.enqueue = app.state.enqueue, enqueue_then_lose_the_broker
    try:
        reply = api.call("POST", "/v1/jobs", json=BIG)
    finally:
        app.state.enqueue = real
        proxy.close()
    assert reply.status_code == 202  # committed before any send: accepted all the same
    assert batches == [ENQUEUE_BATCH]
    ids, marked, _ = stored(api, reply.json()["id"])
    assert marked == ENQUEUE_BATCH and queued_episodes(api) == ids[:ENQUEUE_BATCH]
    assert reconcile_once(app).requeued == EPISODES - ENQUEUE_BATCH
    assert sorted(queued_episodes(api)) == sorted(ids)  # every episode, none twice
    assert stored(api, reply.json()["id"])[1] == EPISODES
    assert reconcile_once(app).requeued == 0
