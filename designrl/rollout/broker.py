"""Telling that the broker lost what it held: a Redis restarted without its data.

Redis restarted with its append-only file (the stack's setting) keeps its queue, and the
workers reconnect and go on. One that comes back empty (no persistence, a lost volume, a
failover to an empty replica) has dropped every queued task and every unacknowledged one.
Running episodes still finish (their workers hold them), but queued ones would wait for
the reconciler's ``requeue_after_s`` (15 minutes by default) before anyone sent them
again. ``BrokerMark`` notices the loss within one reconciler pass: a key with a random
token and no expiry, set when missing; a token other than the one last seen means Redis
lost its data in between, and the reconciler then enqueues every queued episode at once.

A process that never saw the mark cannot tell an empty Redis from a new one, so a loss
while no API process is looking (the API restarted with Redis) falls back to
``requeue_after_s``. With several API processes, the first to notice a loss claims it
(a second key, per new token) and only it enqueues again: a second copy of every queued
task would make some episodes run twice at once (still written once, but a delivery and
an attempt wasted).
"""

from __future__ import annotations

import logging
import uuid

from redis import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

BROKER_MARK = "designrl:broker_mark"
CLAIM_TTL_S = 3600  # a claim outlives any re-enqueue; then the key goes


class BrokerMark:
    """``lost()``: has Redis lost its data since the last look (and is this process the
    one to enqueue again what it dropped)? True from the look that finds the mark reset
    until ``settle()`` (the caller enqueued again what was lost), so a failed re-enqueue is
    tried again on the next pass. False on the first look, for a loss another process
    claimed, and while Redis does not answer (a loss then shows on the first look after)."""

    def __init__(self, redis: Redis, key: str = BROKER_MARK) -> None:
        self.redis, self.key = redis, key
        self.seen: bytes | None = None
        self.pending = False

    def lost(self) -> bool:
        try:
            with self.redis.pipeline() as pipe:  # MULTI: set it if missing, then read it
                pipe.set(self.key, uuid.uuid4().hex, nx=True)
                pipe.get(self.key)
                _, token = pipe.execute()
            name = token.decode() if isinstance(token, bytes) else token
            if self.seen is not None and token != self.seen and self.redis.set(
                    f"{self.key}:claimed:{name}", "1", nx=True, ex=CLAIM_TTL_S):
                log.warning("the broker lost its data since the last look (Redis restarted "
                            "empty?): every queued episode is enqueued again")
                self.pending = True
        except RedisError as exc:
            log.warning("broker mark unreadable (%s); looked for again next pass", exc)
            return self.pending
        self.seen = token
        return self.pending

    def settle(self) -> None:
        """What the loss dropped is enqueued again."""
        self.pending = False
