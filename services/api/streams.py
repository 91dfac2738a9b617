"""An episode as Server-Sent Events, for the web UI's live runs.

Polls the database and sends ``episode`` when its status changes, ``step`` for each
step not sent yet, and ``end`` with the whole episode once it is finished; ``timeout``
when the stream has been open ``max_s`` (the page reconnects with ``after``). A comment
line every 15 s keeps proxies from closing an idle stream.

Workers store an episode's steps with its record, when it ends; while it runs they
publish each step to Redis (``designrl.rollout.live``), and the stream sends those.
Steps go out by index, each once, whichever of the two it came from; with Redis down a
running episode shows no steps until its record lands.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from fastapi import Request
from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy.orm import Session, sessionmaker

from designrl.rollout.live import read_live_steps
from designrl.store.models import FINISHED, Episode
from designrl.store.reads import steps_after
from services.api.schemas import EpisodeDetail, EpisodeOut, StepOut
from services.api.views import episode_detail, episode_out, step_out

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0


@dataclass
class Poll:
    episode: EpisodeOut
    steps: list[StepOut]
    detail: EpisodeDetail | None  # set once the episode is finished


def sse(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


def live_steps(redis: Redis, episode_id: str, after: int) -> list[StepOut]:
    """A running episode's published steps after ``after``; none if Redis fails."""
    try:
        return [StepOut.model_validate(s) for s in read_live_steps(redis, episode_id, after)]
    except RedisError as exc:
        log.warning("no live steps for episode %s: %s", episode_id, exc)
        return []


def poll_episode(sessions: sessionmaker[Session], redis: Redis, episode_id: str,
                 after: int) -> Poll:
    with sessions() as session:
        # The status first: a worker writes the steps and "completed" in one commit, so a
        # finished status read first means every step is there for the next query.
        episode = session.get(Episode, episode_id)
        step_outs = [step_out(s) for s in steps_after(session, episode_id, after)]
        finished = episode.status in FINISHED
        poll = Poll(episode_out(episode), step_outs,
                    episode_detail(episode) if finished else None)
    if not finished:  # its steps are in Redis until its record lands
        poll.steps += live_steps(redis, episode_id, step_outs[-1].index if step_outs else after)
    return poll


async def episode_events(request: Request, episode_id: str, after: int) -> AsyncIterator[str]:
    settings = request.app.state.settings
    sessions, redis = request.app.state.sessions, request.app.state.redis
    started = last_sent = time.monotonic()
    status = None
    while not await request.is_disconnected():
        poll = await asyncio.to_thread(poll_episode, sessions, redis, episode_id, after)
        if poll.episode.status != status:
            status = poll.episode.status
            yield sse("episode", poll.episode.model_dump_json())
            last_sent = time.monotonic()
        for step in poll.steps:
            if step.index <= after:  # a redelivered episode may publish an index twice
                continue
            yield sse("step", step.model_dump_json())
            after, last_sent = step.index, time.monotonic()
        if poll.detail is not None:
            yield sse("end", poll.detail.model_dump_json())
            return
        now = time.monotonic()
        if now - started > settings.stream_max_s:
            yield sse("timeout", json.dumps({"after": after}))
            return
        if now - last_sent > KEEPALIVE_S:
            yield ": keep-alive\n\n"
            last_sent = now
        await asyncio.sleep(settings.stream_poll_s)
