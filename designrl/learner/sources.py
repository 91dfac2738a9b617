"""Where the learner's scored groups come from: a Redis stream, or a queue in this process.

Both deliver ``Delivery`` values and take acknowledgements by ``entry_id``. An entry
is acknowledged only when the learner is done with it: trained on and saved in a
checkpoint, or dropped on purpose. Until then it stays pending, so a learner that
dies loses nothing: its successor reads its pending entries first.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from pydantic import ValidationError

from designrl.rollout.groups import GROUPS_STREAM, ScoredGroup

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Delivery:
    entry_id: str
    group: ScoredGroup | None  # None when the entry could not be read
    error: str | None = None


class GroupSource(Protocol):
    def read(self, max_count: int, timeout_s: float) -> list[Delivery]:
        """Up to ``max_count`` deliveries; waits up to ``timeout_s`` for the first."""

    def ack(self, entry_ids: list[str]) -> None: ...


class LocalGroupSource:
    """Groups handed over in process (embedded training). ``outstanding`` counts the
    groups put but not yet acknowledged, which is what admission control bounds."""

    def __init__(self) -> None:
        self._queue: queue.Queue[ScoredGroup] = queue.Queue()
        self._lock = threading.Lock()
        self._outstanding = 0

    def put(self, group: ScoredGroup) -> None:
        with self._lock:
            self._outstanding += 1
        self._queue.put(group)

    @property
    def outstanding(self) -> int:
        with self._lock:
            return self._outstanding

    def read(self, max_count: int, timeout_s: float) -> list[Delivery]:
        try:
            first = self._queue.get(timeout=timeout_s)
        except queue.Empty:
            return []
        out = [first]
        while len(out) < max_count:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return [Delivery(g.group_id, g) for g in out]

    def ack(self, entry_ids: list[str]) -> None:
        with self._lock:
            self._outstanding -= len(entry_ids)


class RedisGroupSource:
    """A consumer in a Redis consumer group on the scored-groups stream.

    The first reads return this consumer's own pending entries (left by a learner of
    the same name that died), then entries another consumer has held longer than
    ``claim_idle_s`` (XAUTOCLAIM), then new ones.
    """

    def __init__(self, redis, *, stream: str = GROUPS_STREAM, group: str = "learner",
                 consumer: str = "learner-0", claim_idle_s: float = 300.0) -> None:
        self.redis = redis
        self.stream = stream
        self.group = group
        self.consumer = consumer
        self.claim_idle_ms = int(claim_idle_s * 1000)
        self._own_pending_done = False
        self._last_claim = 0.0
        self.ensure_group()

    def ensure_group(self) -> None:
        from redis.exceptions import ResponseError

        try:
            self.redis.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def read(self, max_count: int, timeout_s: float) -> list[Delivery]:
        from redis.exceptions import ConnectionError, TimeoutError

        try:
            return self._next(max_count, timeout_s)
        except (ConnectionError, TimeoutError) as exc:  # Redis restarting: wait, then go on
            log.warning("reading scored groups failed (%s); retrying", exc)
            time.sleep(min(timeout_s, 1.0))
            return []

    def _next(self, max_count: int, timeout_s: float) -> list[Delivery]:
        if not self._own_pending_done:
            entries = self._read("0", max_count, block_ms=None)
            if entries:
                return entries
            self._own_pending_done = True
        if time.monotonic() - self._last_claim > self.claim_idle_ms / 1000 / 2:
            self._last_claim = time.monotonic()
            _, claimed, *_ = self.redis.xautoclaim(self.stream, self.group, self.consumer,
                                                   self.claim_idle_ms, "0-0", count=max_count)
            if claimed:
                return [self._delivery(entry_id, fields) for entry_id, fields in claimed
                        if fields]
        return self._read(">", max_count, block_ms=max(1, int(timeout_s * 1000)))

    def _read(self, start: str, count: int, block_ms: int | None) -> list[Delivery]:
        reply = self.redis.xreadgroup(self.group, self.consumer, {self.stream: start},
                                      count=count, block=block_ms)
        out = []
        for _, entries in reply or []:
            out += [self._delivery(entry_id, fields) for entry_id, fields in entries if fields]
        return out

    @staticmethod
    def _delivery(entry_id, fields) -> Delivery:
        entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
        raw = fields.get(b"group", fields.get("group"))
        try:
            return Delivery(entry_id, ScoredGroup.model_validate_json(raw or b""))
        except ValidationError as exc:
            return Delivery(entry_id, None, f"unreadable group: {exc.errors()[0]['msg']}")

    def ack(self, entry_ids: list[str]) -> None:
        """Acknowledge; if Redis is away the entries stay pending and come back later,
        where the learner recognises them as trained (or dropped) and acknowledges again."""
        from redis.exceptions import ConnectionError, TimeoutError

        if not entry_ids:
            return
        try:
            self.redis.xack(self.stream, self.group, *entry_ids)
        except (ConnectionError, TimeoutError) as exc:
            log.warning("acknowledging %d groups failed (%s)", len(entry_ids), exc)
