"""The catalog (what can be run: families, their tasks and policies, registered datasets,
served models) and the web UI's Run page: one episode by task, item and policy. A finished
identical episode is returned at once; otherwise a one-episode benchmark job goes through
the same path as any job and the page streams it (``/v1/episodes/{id}/events``)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, HTTPException, Request, Response, status
from sqlalchemy.orm import Session

from designrl.policies import VLLM_PREFIX
from designrl.store.keys import readable_owner
from designrl.store.models import ApiKey, Episode
from designrl.store.reads import latest_finished_episode, only_episode
from designrl.tasks import FAMILIES, load_items
from designrl.tasks.family import Family, Task
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS
from services.api.deps import KeyDep, SessionDep
from services.api.job_requests import (
    SERVED_POLICY,
    RunRequest,
    server_policy_names,
)
from services.api.plans import PlanError, job_plans
from services.api.routers.jobs import SUBMIT_REFUSALS, store_and_enqueue
from services.api.schemas import (
    Catalog,
    FamilyOut,
    RunOut,
    TaskOut,
)
from services.api.served import served_models
from services.api.views import episode_out

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["runs"])


@router.get("/catalog", response_model=Catalog)
def get_catalog(request: Request, key: KeyDep) -> Catalog:
    """Families (their tasks, reward components and the policies each accepts), the
    registered datasets and the models the inference server serves."""
    served = served_models(request)
    families = [family_out(f, served) for f in FAMILIES.values()]
    return Catalog(
        families=families, tasks=[t for f in families for t in f.tasks],
        policies=[p for f in FAMILIES.values() if f.multi_turn for p in f.policies],
        profiles=["default", "designgym"], datasets=sorted(request.app.state.settings.datasets),
        served_models=served)


def family_out(family: Family, served: list[str]) -> FamilyOut:
    names = server_policy_names(family)
    models = [f"{VLLM_PREFIX}{m}" for m in served if SERVED_POLICY.fullmatch(VLLM_PREFIX + m)]
    policies = list(dict.fromkeys([*family.policies, *models, *names]))
    return FamilyOut(name=family.name, summary=family.summary, multi_turn=family.multi_turn,
                     components=list(family.components), oracles=list(family.oracles),
                     tasks=[task_out(t) for t in family.tasks], policies=policies,
                     runnable=family.multi_turn)


def task_out(task: Task) -> TaskOut:
    shipped = not task.seeded and not task.needs_path
    return TaskOut(id=task.id, family=task.family, source=task.source,
                   needs_path=task.needs_path, seeded=task.seeded,
                   designgym=task.id in DESIGNGYM_TASK_IDS,
                   items=[item.id for item in load_items(task.id)] if shipped else None)


@router.post("/runs", response_model=RunOut, status_code=status.HTTP_202_ACCEPTED,
             responses={200: {"model": RunOut, "description": "a finished episode (cached)"},
                        **SUBMIT_REFUSALS})
def start_run(body: RunRequest, request: Request, response: Response, session: SessionDep,
              key: KeyDep) -> RunOut:
    """The finished episode with these settings (200), or a new one-episode job (202)."""
    cached = finished_episode(session, body, key, request.app.state.settings.datasets)
    if cached is not None:
        response.status_code = status.HTTP_200_OK
        return RunOut(cached=True, job_id=cached.job_id, episode=episode_out(cached))
    if key.role == "reader":
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this key may read, not submit "
                            "(and no finished episode matches)")
    job = store_and_enqueue(session, request, body.as_job(), key)
    episode = only_episode(session, job.id)
    return RunOut(cached=False, job_id=job.id, episode=episode_out(episode))


def finished_episode(session: Session, body: RunRequest, key: ApiKey,
                     datasets: dict[str, str]) -> Episode | None:
    """The newest completed episode with the same settings in a job this key may see.
    Model-free policies and prediction sets are deterministic for an item, so it is the
    episode a new run gives."""
    try:
        plan, = job_plans(body.as_job(), datasets)
    except PlanError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return latest_finished_episode(session, task_id=plan.task_id, item_key=plan.item_key,
                                   policy=plan.policy, profile=plan.profile,
                                   source=plan.source, owner=readable_owner(key))
