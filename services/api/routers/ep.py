"""Eval Protocol remote rollouts: ``/ep`` is both the ``remote_base_url`` and the
``model_base_url`` of eval-protocol's ``RemoteRolloutProcessor``.

``POST /ep/init`` starts a row's episode as a one-episode benchmark job through the normal
job path and returns at once; ``GET /ep/v1/status`` (``/ep/status``), ``/ep/logs``
(``/ep/v1/logs``) and ``/ep/v1/traces/pointwise`` report it from Postgres, so any API
process answers. How a row becomes an episode: ``designrl.evalprotocol.rows``; what is
reported: ``designrl.evalprotocol.results``.

Keys: ``X-API-Key``, ``Authorization: Bearer`` (the client sends ``Bearer None`` when it
has no key: read as none) or, for ``/init``, the body's ``api_key``. A 4xx fails the row
at once; a 5xx the client retries (an init sent again with its rollout id returns the
rollout it stored, 200).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response, status
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import ValidationError
from sqlalchemy.orm import Session

from designrl.evalprotocol.results import log_entry, status_of, status_reply, trace
from designrl.evalprotocol.rows import RowError, item_messages, row_target
from designrl.evalprotocol.wire import PLAIN, TAG_KEYS, InitRequest, Tag, rollout_id_of
from designrl.store.keys import may_read
from designrl.store.models import ApiKey
from designrl.store.rollouts import (
    RolloutExists,
    RolloutIds,
    StoredRollout,
    create_rollout_job,
    find_rollout,
)
from services.api.deps import BearerKey, HeaderKey, SessionDep, key_of
from services.api.job_requests import BenchmarkJobRequest
from services.api.plans import PlanError, registered_path
from services.api.routers.jobs import SUBMIT_REFUSALS, store_and_enqueue

router = APIRouter(prefix="/ep", tags=["eval-protocol"])
NO_KEY = ("an API key is required: Eval Protocol sends FIREWORKS_API_KEY as a bearer token "
          "(and EP_REMOTE_API_KEY or FIREWORKS_API_KEY as /init's api_key); set it to a "
          "designrl API key")
Tags = Annotated[list[Tag], Query(max_length=20, description="`rollout_id:<id>` (and others)")]


def presented(header: str | None, bearer: HTTPAuthorizationCredentials | None) -> str | None:
    token = bearer.credentials if bearer else None
    return header or (token if token not in (None, "", "None") else None)


def caller(session: SessionDep, header: HeaderKey, bearer: BearerKey) -> ApiKey:
    return key_of(session, presented(header, bearer), NO_KEY)


CallerDep = Annotated[ApiKey, Depends(caller)]


@router.post("/init", status_code=status.HTTP_202_ACCEPTED, responses={
    200: {"description": "the rollout was started already (a retried init)"},
    409: {"description": "another key started a rollout with this id"}, **SUBMIT_REFUSALS})
def init(body: InitRequest, request: Request, response: Response, session: SessionDep,
         header: HeaderKey, bearer: BearerKey) -> dict:
    """Start the row's episode (its item and policy: ``designrl.evalprotocol.rows``)."""
    key = key_of(session, presented(header, bearer) or body.api_key, NO_KEY)
    if key.role == "reader":
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this key may read, not submit")
    stored = find_rollout(session, body.metadata.rollout_id)
    if stored is None:
        job_body, messages = _row_job(body, request)
        ids = RolloutIds(**{k: getattr(body.metadata, k) for k in TAG_KEYS})
        try:
            store_and_enqueue(session, request, job_body, key,
                              create=partial(create_rollout_job, ids=ids, messages=messages))
            return _started(find_rollout(session, ids.rollout_id))
        except RolloutExists as exc:
            stored = exc.stored
    if stored.rollout.owner != key.name:
        raise HTTPException(status.HTTP_409_CONFLICT, f"rollout {body.metadata.rollout_id!r} "
                            "was started by another key: use a new rollout id")
    response.status_code = status.HTTP_200_OK
    return _started(stored)


def _row_job(body: InitRequest, request: Request) -> tuple[BenchmarkJobRequest, list[dict]]:
    """The one-episode job a row asks for and the prompt its policy sees; 422 saying what
    to change."""
    try:
        target = row_target(body)
        seeded = target.seed is not None
        job = BenchmarkJobRequest(
            kind="benchmark", tasks=[target.task_id], policies=[target.policy],
            seeds=[target.seed] if seeded else None, items=None if seeded else [target.key],
            dataset=target.dataset)
        path = registered_path(job.dataset, request.app.state.settings.datasets)
        return job, item_messages(target, path, body.messages)
    except (RowError, PlanError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    except ValidationError as exc:
        message = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, message) from None


def _started(stored: StoredRollout) -> dict:
    return {"rollout_id": stored.rollout.rollout_id, "episode_id": stored.episode.id,
            "job_id": stored.episode.job_id, "status": status_of(stored.episode)}


def _visible(session: Session, key: ApiKey, rollout_id: str | None) -> StoredRollout | None:
    stored = find_rollout(session, rollout_id) if rollout_id else None
    return stored if stored is not None and may_read(key, stored.rollout.owner) else None


@router.get("/v1/status")
@router.get("/status", include_in_schema=False)
def get_status(rollout_id: Annotated[str, Query(max_length=200, pattern=PLAIN)],
               session: SessionDep,
               key: CallerDep) -> dict:
    """``{"rollout_id", "status": {"code", "message", "details"}}``: 101 running, 100
    scored, 13 no result, 1 cancelled; 404 for a rollout this key did not start."""
    stored = _visible(session, key, rollout_id)
    if stored is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no rollout {rollout_id!r}")
    return status_reply(stored)


@router.get("/logs")
@router.get("/v1/logs", include_in_schema=False)
def get_logs(tags: Tags, session: SessionDep, key: CallerDep) -> dict:
    """The rollout's log entry: its status and, in ``extras``, our reward, its components
    and the episode."""
    stored = _visible(session, key, rollout_id_of(tags))
    return {"entries": [] if stored is None else [log_entry(stored)]}


@router.get("/v1/traces/pointwise")
def get_traces(tags: Tags, session: SessionDep, key: CallerDep) -> dict:
    """The rollout's trace: the five tags, the prompt (``input.messages``) and the answer
    (``output``)."""
    stored = _visible(session, key, rollout_id_of(tags))
    return {"traces": [] if stored is None else [trace(stored)]}
