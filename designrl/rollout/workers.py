"""Worker heartbeats: how the reconciler tells a worker that is gone from one that is busy.

A worker process runs ``Heartbeat`` (a daemon thread) while it lives: every ``every_s``
it sets ``designrl:worker:{name}`` with a time to live of ``ttl_s``. A process that is
killed stops beating and its key expires; ``live_workers`` says which of some names
still have theirs. An episode records its worker's name when it is claimed, so a
running episode whose worker has no key is lost.

Best effort on the worker's side (a failed beat is logged and tried again next time);
the reader raises ``RedisError``, and the reconciler then assumes every worker alive:
a Redis outage must never look like every worker dying.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from redis import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

WORKER_PREFIX = "designrl:worker:"


def worker_key(name: str) -> str:
    return f"{WORKER_PREFIX}{name}"


class Heartbeat:
    """Beats for ``name`` from a daemon thread until ``stop`` (or the process ends)."""

    def __init__(self, redis: Redis, name: str, *, every_s: float = 10.0,
                 ttl_s: float = 30.0) -> None:
        if ttl_s <= every_s:
            raise ValueError("ttl_s must be longer than every_s, or a live worker blinks out")
        self.redis, self.name, self.every_s, self.ttl_s = redis, name, every_s, ttl_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def start(self) -> Heartbeat:
        self.beat()  # at once: the worker is live before it claims anything
        self._thread.start()
        return self

    def beat(self) -> None:
        try:
            self.redis.set(worker_key(self.name), "1", px=int(self.ttl_s * 1000))
        except RedisError as exc:
            log.warning("heartbeat of %s failed: %s", self.name, exc)

    def stop(self) -> None:
        self._stop.set()
        try:
            self.redis.delete(worker_key(self.name))
        except RedisError:
            pass  # it expires on its own

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.beat()


def live_workers(redis: Redis, names: Sequence[str]) -> set[str]:
    """The workers among ``names`` whose heartbeat has not expired."""
    names = list(dict.fromkeys(names))
    if not names:
        return set()
    found = redis.mget([worker_key(n) for n in names])
    return {name for name, value in zip(names, found, strict=True) if value is not None}
