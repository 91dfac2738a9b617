"""Live steps: a running episode's steps in a short Redis stream, for anyone watching it.

An episode's record is written once, when it ends. Until then ``LiveSteps`` (a worker's
``on_step``) adds its steps to the stream ``designrl:live:{episode_id}`` (fields
``index`` and ``step``: the ``StepRecord`` as JSON, with its ``index``), capped and
expiring, and ``read_live_steps`` gives them back. The first step goes at once and the
rest at most every ``PUBLISH_EVERY_S`` (a step that takes longer goes as taken); what is
left goes when the block ends:

    with LiveSteps(redis, episode_id) as on_step:
        run_episode_spec(spec, on_step=on_step)

A publish is a Redis round trip, dearer than a cheap episode's step: nobody watching
tells 0.1 s apart, so steps taken faster than that share one. Best effort by design: the
first failed publish turns the live view off for that episode and never touches it.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from designrl.rollout.record import StepRecord

log = logging.getLogger(__name__)

LIVE_PREFIX = "designrl:live:"
LIVE_TTL_S = 3600  # long after any episode ends: by then its record has the steps
LIVE_MAXLEN = 1000  # far above any step limit; only a guard
PUBLISH_EVERY_S = 0.1


def live_key(episode_id: str) -> str:
    return f"{LIVE_PREFIX}{episode_id}"


def live_client(url: str) -> Redis:
    """A client to publish with: one quick try a step, no retries (best effort)."""
    return Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1,
                          retry=Retry(NoBackoff(), 0))


class LiveSteps:
    """Publishes one attempt at an episode, step by step (an ``on_step`` callback)."""

    def __init__(self, redis: Redis, episode_id: str, ttl_s: int = LIVE_TTL_S,
                 every_s: float = PUBLISH_EVERY_S) -> None:
        self.redis, self.episode_id, self.ttl_s, self.every_s = redis, episode_id, ttl_s, every_s
        self.index = 0
        self.on = True
        self.pending: list[tuple[int, str]] = []
        self.published_at = 0.0

    def __enter__(self) -> LiveSteps:
        return self

    def __exit__(self, *exc_info) -> None:
        self.flush()

    def __call__(self, step: StepRecord) -> None:
        index, self.index = self.index, self.index + 1
        if not self.on:
            return
        self.pending.append((index, json.dumps({"index": index, **step.model_dump(mode="json")})))
        if index == 0 or time.monotonic() - self.published_at >= self.every_s:
            self.flush()

    def flush(self) -> None:
        """Publish the steps not yet published, in one round trip."""
        pending, self.pending = self.pending, []
        if not pending or not self.on:
            return
        key = live_key(self.episode_id)
        try:
            with self.redis.pipeline() as pipe:  # applied together
                if pending[0][0] == 0:
                    pipe.delete(key)  # a retried episode starts its live steps afresh
                for index, data in pending:
                    pipe.xadd(key, {"index": index, "step": data}, maxlen=LIVE_MAXLEN)
                pipe.expire(key, self.ttl_s)
                pipe.execute()
        except RedisError as exc:  # a live view is never worth an episode
            self.on = False
            log.warning("live steps of episode %s off after step %d: %s",
                        self.episode_id, pending[-1][0], exc)
        self.published_at = time.monotonic()


def read_live_steps(redis: Redis, episode_id: str, after: int = -1) -> list[dict[str, Any]]:
    """The published steps after index ``after``, in order (``StepRecord`` fields and
    ``index``); none when nothing was published or it expired."""
    steps = [json.loads(fields[b"step"]) for _, fields in redis.xrange(live_key(episode_id))]
    return sorted((s for s in steps if s["index"] > after), key=lambda s: s["index"])
