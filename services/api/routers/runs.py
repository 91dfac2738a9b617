"""The web UI's Run page: what can be run (the catalog), and one episode by task, seed and
policy. A finished identical episode is returned at once; otherwise a one-episode benchmark
job goes through the same path as any job and the page streams it
(``/v1/episodes/{id}/events``)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response, status
from sqlalchemy import select
from sqlalchemy.orm import Session

from designrl.policies import LAYOUT_POLICIES
from designrl.store.models import ApiKey, Episode, Job
from designrl.tasks import FAMILIES, TASKS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS
from services.api.deps import KeyDep, SessionDep
from services.api.routers.jobs import store_and_enqueue
from services.api.schemas import (
    RUNNABLE_FAMILIES,
    Catalog,
    FamilyOut,
    RunOut,
    RunRequest,
    TaskOut,
)
from services.api.views import episode_out

router = APIRouter(prefix="/v1", tags=["runs"])


@router.get("/catalog", response_model=Catalog)
def get_catalog(key: KeyDep) -> Catalog:
    """Families, tasks, policies and profiles, for the UI's forms."""
    return Catalog(
        families=[FamilyOut(name=f, runnable=f in RUNNABLE_FAMILIES) for f in FAMILIES],
        tasks=[TaskOut(id=t.id, family=t.family, source=t.source,
                       designgym=t.id in DESIGNGYM_TASK_IDS) for t in TASKS.values()],
        policies=list(LAYOUT_POLICIES), profiles=["default", "designgym"])


@router.post("/runs", response_model=RunOut, status_code=status.HTTP_202_ACCEPTED,
             responses={200: {"model": RunOut, "description": "a finished episode (cached)"}})
def start_run(body: RunRequest, request: Request, response: Response, session: SessionDep,
              key: KeyDep) -> RunOut:
    """The finished episode with these settings (200), or a new one-episode job (202)."""
    cached = finished_episode(session, body, key)
    if cached is not None:
        response.status_code = status.HTTP_200_OK
        return RunOut(cached=True, job_id=cached.job_id, episode=episode_out(cached))
    if key.role == "reader":
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this key may read, not submit "
                            "(and no finished episode matches)")
    job = store_and_enqueue(session, request, body.as_job(), key)
    episode = session.scalars(select(Episode).where(Episode.job_id == job.id)).one()
    return RunOut(cached=False, job_id=job.id, episode=episode_out(episode))


def finished_episode(session: Session, body: RunRequest, key: ApiKey) -> Episode | None:
    """The newest completed episode with the same settings in a job this key may see.
    Heuristic policies are deterministic for a seed, so it is the episode a new run gives."""
    query = (select(Episode).join(Job, Job.id == Episode.job_id)
             .where(Episode.task_id == body.task, Episode.seed == body.seed,
                    Episode.policy == body.policy, Episode.profile == body.profile,
                    Episode.policy_version.is_(None), Episode.status == "completed",
                    Episode.outcome == "ok")
             .order_by(Episode.finished_at.desc()).limit(1))
    if key.role != "admin":
        query = query.where(Job.owner == key.name)
    return session.scalars(query).first()
