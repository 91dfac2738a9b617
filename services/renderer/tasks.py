"""The episode task: a thin shell around ``designrl.rollout.stored.run_stored_episode``.

Single-turn episodes (html, svg, webpage) render in the process's own browser pool and
may answer from stored prediction sets (``_context``). Each layout step is published live
for the web UI as it is taken (``designrl.rollout.live``).
Transient faults (the database or Redis unreachable, the inference server unreachable,
overloaded or failing with a 5xx, the browser pool's Chromium lost on every try) are
retried with backoff, bounded by the attempt cap;
an episode over its time limit is recorded as a ``timeout``; any other exception is
the episode's recorded ``error`` (the library's ``run_stored_episode``). Each process
beats a heartbeat while it lives, so the API's reconciler can tell a running episode
whose worker was killed and queue it again.
"""

from __future__ import annotations

import logging
import os
import socket
from functools import cache, partial

from celery.exceptions import SoftTimeLimitExceeded
from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy.exc import OperationalError

from designrl.learner.versions import current_version
from designrl.policies import InferenceServer
from designrl.render.types import InfrastructureError
from designrl.rollout.browser import process_runner
from designrl.rollout.groups import publish_group
from designrl.rollout.live import LiveSteps, live_client
from designrl.rollout.record import EpisodeRecord
from designrl.rollout.single_turn import EpisodeContext
from designrl.rollout.stored import Ran, finish_stored_episode, run_stored_episode
from designrl.rollout.workers import Heartbeat
from designrl.store import make_engine, make_sessionmaker
from designrl.store.predictions import prediction_lookup
from services.renderer import metrics
from services.renderer.app import RUN_EPISODE, app, settings

log = logging.getLogger(__name__)


def worker_name() -> str:
    """host:pid of the process running the task (the pool child, not the parent)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@cache
def _sessions():
    """Per process (created after the fork): an engine is never shared across processes."""
    return make_sessionmaker(make_engine(settings.database_url,
                                         idle_in_transaction_s=settings.idle_in_transaction_s))


@cache
def _redis() -> Redis:
    return Redis.from_url(settings.redis_url, socket_connect_timeout=settings.redis_timeout_s,
                          socket_timeout=settings.redis_timeout_s)


@cache
def _live_redis() -> Redis:
    return live_client(settings.redis_url)


@cache
def _heartbeat() -> Heartbeat:
    """Per process, from its first task on: the pool child that claims episodes beats."""
    return Heartbeat(_redis(), worker_name(), every_s=settings.heartbeat_s,
                     ttl_s=settings.heartbeat_ttl_s).start()


def _transient() -> tuple[type[BaseException], ...]:
    """The inference server's faults worth another try (the client retried them already)."""
    try:
        import openai
    except ImportError:
        return ()
    return (openai.APIConnectionError, openai.InternalServerError, openai.RateLimitError)


RETRIED = (OperationalError, RedisError, InfrastructureError, *_transient())


def _publish(group_id: str) -> None:
    publish_group(_sessions(), _redis(), group_id, settings.groups_stream)


def _latest_version() -> int | None:
    """The policy version the learner announced last at the configured key (``vllm:latest``
    samples it)."""
    return current_version(_redis(), settings.version_key)


INFERENCE = (InferenceServer(settings.inference_url, settings.inference_base_model,
                             settings.inference_api_key, settings.inference_prompt_style)
             if settings.inference_url else None)


@cache
def _context() -> EpisodeContext:
    """Per process: what single-turn episodes use. Its browser pool starts on the first
    render-scored episode, in the process that runs it (never before the fork); datasets
    are the registered names only (``paths_allowed=False``)."""
    return EpisodeContext(
        server=INFERENCE, predictions=prediction_lookup(_sessions()),
        browser=partial(process_runner, pages_per_browser=settings.browser_pages,
                        timeout_s=settings.render_timeout_s),
        datasets=settings.datasets, paths_allowed=False)


@app.task(name=RUN_EPISODE, bind=True, autoretry_for=RETRIED,
          retry_backoff=True, retry_backoff_max=60, max_retries=8)
def run_episode(self, episode_id: str) -> str:
    _heartbeat()
    try:
        with LiveSteps(_live_redis(), episode_id) as on_step:
            ran = run_stored_episode(_sessions(), episode_id, worker=worker_name(),
                                     publish=_publish, max_attempts=settings.max_attempts,
                                     server=INFERENCE, latest_version=_latest_version,
                                     on_step=on_step, context=_context(),
                                     passes=(SoftTimeLimitExceeded, *RETRIED))
    except SoftTimeLimitExceeded:
        log.warning("episode %s over its %gs limit", episode_id, settings.episode_time_limit_s)
        record = EpisodeRecord(outcome="timeout",
                               error=f"over the {settings.episode_time_limit_s:g}s limit")
        ran = Ran(finish_stored_episode(_sessions(), episode_id, record, _publish))
    metrics.observe(ran)
    return ran.outcome
