"""Request dependencies: a database session, the caller's API key, a job it may see
(``designrl.store.keys.may_read``: an admin every job, a user its own, a reader the jobs
of the key it reads)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from designrl.store.keys import find_api_key, may_read
from designrl.store.models import ApiKey, Job

_header = APIKeyHeader(name="X-API-Key", auto_error=False,
                       description="An API key (`designrl api-key create NAME`).")
_bearer = HTTPBearer(auto_error=False, description="The same key as a bearer token.")


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request. Async: opening one does no I/O, so it costs no trip to
    the threadpool; closing it (returning its connection) does, and goes there."""
    session = request.app.state.sessions()
    try:
        yield session
    finally:
        await run_in_threadpool(session.close)


SessionDep = Annotated[Session, Depends(get_session)]
HeaderKey = Annotated[str | None, Depends(_header)]  # the X-API-Key header, if sent
BearerKey = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def current_key(session: SessionDep, header: HeaderKey, bearer: BearerKey) -> ApiKey:
    return key_of(session, header or (bearer.credentials if bearer else None))


def key_of(session: Session, presented: str | None,
           missing: str = "an API key is required (X-API-Key header or Authorization: "
                          "Bearer)") -> ApiKey:
    """The live key ``presented`` is; 401 saying ``missing`` when none was, or that the key
    is unknown or revoked."""
    if not presented:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, missing,
                            headers={"WWW-Authenticate": "Bearer"})
    key = find_api_key(session, presented)
    if key is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "unknown or revoked API key",
                            headers={"WWW-Authenticate": "Bearer"})
    return key


KeyDep = Annotated[ApiKey, Depends(current_key)]


async def submitter(key: KeyDep) -> ApiKey:  # async: no I/O, so no trip to the threadpool
    if key.role == "reader":
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this key may read, not submit")
    return key


def visible_job(session: Session, key: ApiKey, job_id: str) -> Job:
    job = session.get(Job, job_id)
    if job is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no job {job_id}")
    if not may_read(key, job.owner):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this job belongs to another key")
    return job
