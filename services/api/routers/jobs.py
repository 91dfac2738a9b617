"""Jobs: submit (rows committed, then enqueued), list, read with progress, episodes, cancel."""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from sqlalchemy.orm import Session

from designrl.rollout.enqueue import enqueue_job
from designrl.store.artifacts import episode_images
from designrl.store.jobs import (
    cancel_job,
    create_job,
    job_progress,
    job_status,
    list_episodes,
    list_jobs,
)
from designrl.store.keys import readable_owner
from designrl.store.models import ApiKey, Job
from services.api import metrics
from services.api.deps import KeyDep, SessionDep, submitter, visible_job
from services.api.job_requests import (
    BenchmarkJobRequest,
    JobRequest,
    RolloutJobRequest,
)
from services.api.plans import PlanError, check_prediction_sets, job_plans
from services.api.quotas import check_job_size, count_job
from services.api.schemas import (
    EpisodePage,
    JobOut,
    JobPage,
    JobSummary,
    Progress,
)
from services.api.served import check_served_policies
from services.api.summaries import job_summary
from services.api.views import episode_out

router = APIRouter(prefix="/v1", tags=["jobs"])


def job_out(session: Session, job: Job, progress: dict[str, int] | None = None) -> JobOut:
    """``job`` as the API shows it; ``progress`` when known (a job just stored), else
    counted."""
    progress = progress if progress is not None else job_progress(session, job.id)
    return JobOut(id=job.id, kind=job.kind, status=job_status(job, progress), owner=job.owner,
                  spec=job.spec, episodes_total=job.episodes_total,
                  episodes_ran=progress["completed"] + progress["failed"],
                  progress=Progress(**progress),
                  created_at=job.created_at, started_at=job.started_at,
                  finished_at=job.finished_at, error=job.error)


SUBMIT_REFUSALS = {
    429: {"description": "over a per-key quota (episodes in one job, jobs a minute); "
                         "Retry-After says in how many seconds"},
    503: {"description": "the database, or the inference server a vllm: policy needs, "
                         "did not answer; nothing was stored (Retry-After)"},
}


@router.post("/jobs", status_code=status.HTTP_202_ACCEPTED, response_model=JobOut,
             responses=SUBMIT_REFUSALS)
def submit_job(body: JobRequest, request: Request, session: SessionDep,
               key: Annotated[ApiKey, Depends(submitter)]) -> JobOut:
    """Store the job and its episodes, then enqueue them. If the broker is down the job is
    still accepted: the reconciler enqueues its episodes when it is back."""
    job = store_and_enqueue(session, request, body, key)
    # as stored: every episode queued (no need to count what was just written)
    return job_out(session, job, {"queued": job.episodes_total, "running": 0, "completed": 0,
                                  "failed": 0, "cancelled": 0})


def store_and_enqueue(session: Session, request: Request,
                      body: BenchmarkJobRequest | RolloutJobRequest, key: ApiKey, *,
                      create: Callable[..., Job] = create_job) -> Job:
    """Commit the job and its episodes, then enqueue them (the web UI's runs and Eval
    Protocol's rollouts come here too; ``create`` stores the job, and what it raises
    propagates with nothing enqueued). A valid job still waits for the key's quotas (429)
    and for the inference server to serve its ``vllm:`` models (422, or 503 if it does not
    answer)."""
    settings = request.app.state.settings
    policies = body.policies if isinstance(body, BenchmarkJobRequest) else [body.policy]
    try:
        check_prediction_sets(session, key, policies)
        plans = job_plans(body, settings.datasets)
    except PlanError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    limit = settings.max_episodes_per_job
    if len(plans) > limit:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                            f"the job has {len(plans)} episodes; the limit is {limit}")
    check_job_size(request, key, len(plans))
    check_served_policies(request, policies)
    count_job(request, key)
    job = create(session, kind=body.kind, spec=body.model_dump(mode="json"), plans=plans,
                 owner=key.name)
    enqueue_job(session, request.app.state.enqueue, job.id)
    metrics.JOBS_SUBMITTED.labels(kind=job.kind).inc()
    return job


def _cursor(job: Job) -> str:
    return base64.urlsafe_b64encode(f"{job.created_at.isoformat()}|{job.id}".encode()).decode()


def _parse_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        created, job_id = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        return datetime.fromisoformat(created), job_id
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "invalid cursor") from None


@router.get("/jobs", response_model=JobPage)
def get_jobs(session: SessionDep, key: KeyDep, limit: Annotated[int, Query(ge=1, le=200)] = 50,
             cursor: Annotated[str | None, Query(max_length=200)] = None) -> JobPage:
    """Jobs newest first: an admin key sees every job, a user its own, a reader those of
    the key it reads."""
    jobs = list_jobs(session, owner=readable_owner(key), limit=limit,
                     before=_parse_cursor(cursor) if cursor else None)
    return JobPage(items=[job_out(session, j) for j in jobs],
                   next_cursor=_cursor(jobs[-1]) if len(jobs) == limit else None)


@router.get("/jobs/{job_id}", response_model=JobOut)
def get_job(job_id: str, session: SessionDep, key: KeyDep) -> JobOut:
    return job_out(session, visible_job(session, key, job_id))


@router.get("/jobs/{job_id}/episodes", response_model=EpisodePage)
def get_job_episodes(job_id: str, session: SessionDep, key: KeyDep,
                     limit: Annotated[int, Query(ge=1, le=500)] = 100,
                     after: Annotated[int, Query(ge=-1)] = -1) -> EpisodePage:
    """A job's episodes in submission order; pass ``next_after`` back as ``after``."""
    visible_job(session, key, job_id)
    episodes = list_episodes(session, job_id, limit=limit, after=after)
    images = episode_images(session, [e.id for e in episodes])
    return EpisodePage(items=[episode_out(e, images[e.id]) for e in episodes],
                       next_after=episodes[-1].position if len(episodes) == limit else None)


@router.get("/jobs/{job_id}/summary", response_model=JobSummary)
def get_job_summary(job_id: str, session: SessionDep, key: KeyDep) -> JobSummary:
    """Means over the completed episodes per policy (all tasks, and each task) and the mean
    score against step: the Benchmark page's tables and charts."""
    visible_job(session, key, job_id)
    return job_summary(session, job_id)


@router.post("/jobs/{job_id}/cancel", response_model=JobOut)
def post_cancel(job_id: str, session: SessionDep,
                key: Annotated[ApiKey, Depends(submitter)]) -> JobOut:
    """Cancel: queued and running episodes end ``cancelled`` (a worker still on one writes
    nothing); finished ones are kept."""
    visible_job(session, key, job_id)
    return job_out(session, cancel_job(session, job_id))
