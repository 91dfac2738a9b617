"""The API application: ``create_app(settings)``; ``uvicorn services.api.main:app`` serves it.

Wiring only: settings, the database and Redis clients, the enqueue function, error
handlers (422 in plain words, ``errors.py``; 413 for oversized bodies, prediction sets having
a limit of their own, 503 when the database is down), the routers, the web UI (``/ui``),
``/metrics``, ``/docs`` and ``/redoc`` with no CDN (``services.docs_pages``), the
reconciler loop (queued episodes with no task, every queued episode when Redis lost its
data, running episodes whose worker is gone or whose time is up, unpublished groups),
the layout env's OpenEnv server mounted at ``/env`` behind the same API keys, and Eval
Protocol's remote rollouts under ``/ep``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from functools import partial
from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from redis import Redis
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from designrl.learner.sample_render import SamplePictures
from designrl.rollout.broker import BrokerMark
from designrl.rollout.browser import process_runner
from designrl.rollout.groups import publish_group
from designrl.rollout.reconcile import Lost, reconcile
from designrl.rollout.workers import live_workers
from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.models import utcnow
from designrl.tasks.layout.metrics import use_native
from services.api import metrics
from services.api.env_guard import RequireKey
from services.api.errors import validation_reply
from services.api.routers import ep, episodes, health, jobs, predictions, runs, training
from services.api.routers.ui import mount_ui
from services.api.settings import ApiSettings
from services.body_limit import BodyLimit
from services.docs_pages import add_docs

log = logging.getLogger(__name__)


def celery_enqueue(settings: ApiSettings) -> Callable[[Sequence[str]], None]:
    from services.renderer.app import make_celery
    from services.renderer.send import send_episodes
    from services.renderer.settings import RendererSettings

    celery = make_celery(RendererSettings(redis_url=settings.redis_url, queue=settings.queue))
    return partial(send_episodes, celery, settings.queue)


def create_app(settings: ApiSettings | None = None, *,
               enqueue: Callable[[Sequence[str]], None] | None = None) -> FastAPI:
    settings = settings or ApiSettings()
    if settings.pure_python:  # the layout scorer (OpenEnv endpoint, replays) without C
        use_native(False)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if settings.migrate_on_start:
            upgrade(settings.database_url)
        engine = make_engine(settings.database_url)
        app.state.sessions = make_sessionmaker(engine)
        app.state.redis = Redis.from_url(settings.redis_url, socket_timeout=3,
                                         socket_connect_timeout=3)
        app.state.enqueue = enqueue or celery_enqueue(settings)
        app.state.broker_mark = BrokerMark(app.state.redis)
        app.state.broker_mark.lost()  # the first look: a loss from now on shows
        loop = (asyncio.create_task(_reconcile_forever(app))
                if settings.reconcile_every_s > 0 else None)
        yield
        if loop is not None:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        app.state.redis.close()
        engine.dispose()

    app = FastAPI(title="designrl API", version="0.1.0", lifespan=lifespan,
                  description="Benchmark and rollout jobs for design-RL task families.",
                  docs_url=None, redoc_url=None)  # add_docs serves them offline
    app.state.settings = settings
    # the Training page's svg, html and webpage samples: this process's pool, on first use
    app.state.sample_pictures = SamplePictures(process_runner)
    _add_error_handlers(app)
    _add_middleware(app, settings)
    for router in (health.router, jobs.router, episodes.router, runs.router,
                   predictions.router, training.router, ep.router):
        app.include_router(router)
    mount_ui(app)
    add_docs(app)

    @app.get("/metrics", include_in_schema=False)
    def get_metrics() -> Response:
        body, content_type = metrics.render(app)
        return Response(body, media_type=content_type)

    from services.layout_env.app import create_app as create_env_app
    app.mount("/env", RequireKey(create_env_app(), lambda: app.state.sessions))
    return app


async def _reconcile_forever(app: FastAPI) -> None:
    settings: ApiSettings = app.state.settings
    while True:
        await asyncio.sleep(settings.reconcile_every_s)
        try:
            await asyncio.to_thread(reconcile_once, app)
        except Exception as exc:  # noqa: BLE001 - try again next round
            log.warning("reconcile failed: %s", exc)


# A running episode past the workers' time limit by this much was killed by Celery (its
# hard limit is 30 s later) and had time to record its time-out.
OVERDUE_GRACE_S = 90.0


def reconcile_once(app: FastAPI):
    state, settings = app.state, app.state.settings
    now = utcnow()
    lost = Lost(
        started_before=now - timedelta(seconds=settings.episode_time_limit_s + OVERDUE_GRACE_S),
        quiet_before=now - timedelta(seconds=settings.lost_worker_after_s),
        alive=lambda names: live_workers(state.redis, names),
        max_attempts=settings.max_attempts)
    return reconcile(
        state.sessions, enqueued_before=now - timedelta(seconds=settings.requeue_after_s),
        enqueue=state.enqueue, lost=lost, broker=state.broker_mark,
        publish=lambda group_id: publish_group(state.sessions, state.redis, group_id,
                                               settings.groups_stream))


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_").replace("-", "_")
        return JSONResponse(status_code=exc.status_code, headers=exc.headers, content={
            "error": code, "message": str(exc.detail), "detail": exc.detail})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content=validation_reply(request, exc))

    @app.exception_handler(DBAPIError)
    async def database_down(request: Request, exc: DBAPIError) -> JSONResponse:
        log.warning("database error on %s: %s", request.url.path, exc)
        return JSONResponse(status_code=503, headers={"Retry-After": "5"}, content={
            "error": "database_unavailable",
            "message": "the database is not answering; nothing was changed, try again"})


def _add_middleware(app: FastAPI, settings: ApiSettings) -> None:
    @app.middleware("http")
    async def count_requests(request: Request, call_next):
        started = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        path = getattr(route, "path", "unmatched")
        metrics.HTTP_REQUESTS.labels(request.method, path, str(response.status_code)).inc()
        metrics.HTTP_SECONDS.labels(request.method, path).observe(time.perf_counter() - started)
        return response

    # outside the counting: a refused body never reaches a route (as before, not counted)
    app.add_middleware(BodyLimit, limit_for=partial(_body_limit, settings), require_length=True)


def _body_limit(settings: ApiSettings, method: str, path: str) -> tuple[int, str]:
    """The body limit of a request (read per request: settings may change at run time)."""
    if method == "POST" and path == predictions.PATH:
        return settings.max_prediction_set_bytes, "prediction sets"
    return settings.max_body_bytes, "request bodies"


def __getattr__(name: str):
    """``uvicorn services.api.main:app``: the app is built on first access, from the env."""
    if name == "app":
        return create_app()
    raise AttributeError(name)
