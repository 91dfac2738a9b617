"""Per-key quotas: episodes in one job, jobs a minute, event streams open at once.

Over a quota the answer is 429 with ``Retry-After`` (seconds). The counts live in Redis,
so every API process shares them: jobs in a fixed calendar-minute window
(``designrl:quota:jobs:{key}:{minute}``, the key named by the start of its hash), open streams in a sorted set whose members
expire when a stream must have ended (``stream_max_s`` after it opened), so a stream
whose process died frees its slot on its own. With Redis down the rate quotas are not
enforced (logged): refusing every caller would be worse than letting a few through.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import AsyncIterator

from fastapi import HTTPException, Request, status
from redis.exceptions import RedisError

from designrl.store.models import ApiKey

log = logging.getLogger(__name__)

PREFIX = "designrl:quota:"
STREAM_RETRY_S = 10  # a stream may end any moment: look again soon


def _who(key: ApiKey) -> str:
    return key.key_hash[:16]


def too_many(message: str, retry_after: float) -> HTTPException:
    return HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, message,
                         headers={"Retry-After": str(max(1, int(retry_after + 0.999)))})


def check_job_size(request: Request, key: ApiKey, episodes: int) -> None:
    limit = request.app.state.settings.key_episodes_per_job
    if episodes > limit:
        raise too_many(f"the job has {episodes} episodes; key {key.name!r} may submit at most "
                       f"{limit} in one job: split it into smaller jobs", 60)


def count_job(request: Request, key: ApiKey) -> None:
    """Count a job against the key's jobs-per-minute quota, or refuse it (429)."""
    limit = request.app.state.settings.key_jobs_per_minute
    now = time.time()
    window = f"{PREFIX}jobs:{_who(key)}:{int(now // 60)}"
    try:
        with request.app.state.redis.pipeline() as pipe:
            count, _ = pipe.incr(window).expire(window, 120).execute()
    except RedisError as exc:
        log.warning("jobs-per-minute quota not checked (Redis: %s)", exc)
        return
    if count > limit:
        raise too_many(f"key {key.name!r} may submit {limit} jobs a minute; try again in the "
                       "next minute", 60 - now % 60)


def hold_stream(request: Request, key: ApiKey) -> tuple[str, str] | None:
    """Take one of the key's event-stream slots (429 if none is free): where it is held,
    for ``release_stream``, or None when Redis could not count it."""
    settings = request.app.state.settings
    redis, where = request.app.state.redis, f"{PREFIX}streams:{_who(key)}"
    slot, now = uuid.uuid4().hex, time.time()
    try:
        with redis.pipeline() as pipe:
            pipe.zremrangebyscore(where, "-inf", now)
            pipe.zadd(where, {slot: now + settings.stream_max_s + 60})
            pipe.expire(where, int(settings.stream_max_s) + 120)
            pipe.zcard(where)
            held = pipe.execute()[-1]
        if held > settings.key_event_streams:
            redis.zrem(where, slot)
    except RedisError as exc:
        log.warning("event-stream quota not checked (Redis: %s)", exc)
        return None
    if held > settings.key_event_streams:
        raise too_many(f"key {key.name!r} may hold {settings.key_event_streams} event streams "
                       "open at once; close one", STREAM_RETRY_S)
    return where, slot


def release_stream(request: Request, held: tuple[str, str] | None) -> None:
    if held is None:
        return
    try:
        request.app.state.redis.zrem(*held)
    except RedisError as exc:  # it expires on its own
        log.warning("event-stream slot not released (Redis: %s)", exc)


async def holding(events: AsyncIterator[str], request: Request,
                  held: tuple[str, str] | None) -> AsyncIterator[str]:
    """``events``, giving the stream's slot back when it ends, however it ends."""
    try:
        async for event in events:
            yield event
    finally:
        release_stream(request, held)
