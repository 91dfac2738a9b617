"""One episode: its trajectory, reward components and, for layouts, before/after images."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Response, status
from sqlalchemy.orm import Session

from designrl.store.models import ApiKey, Episode
from services.api.deps import KeyDep, SessionDep, visible_job
from services.api.routers.jobs import episode_out
from services.api.schemas import EpisodeDetail, StepOut

router = APIRouter(prefix="/v1", tags=["episodes"])


def visible_episode(session: Session, key: ApiKey, episode_id: str) -> Episode:
    episode = session.get(Episode, episode_id)
    if episode is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no episode {episode_id}")
    visible_job(session, key, episode.job_id)
    return episode


@router.get("/episodes/{episode_id}", response_model=EpisodeDetail)
def get_episode(episode_id: str, session: SessionDep, key: KeyDep) -> EpisodeDetail:
    episode = visible_episode(session, key, episode_id)
    return EpisodeDetail(
        **episode_out(episode).model_dump(),
        steps=[StepOut(index=s.index, action=s.action, valid=s.valid, reward=s.reward,
                       score=s.score, error=s.error) for s in episode.steps],
        rewards={r.name: r.value for r in episode.rewards}, summary=episode.summary)


@router.get("/episodes/{episode_id}/images/{which}.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_episode_image(episode_id: str, which: Literal["before", "after"], session: SessionDep,
                      key: KeyDep) -> Response:
    """The layout before the first step or after the last, drawn as SVG."""
    from designrl.tasks.layout.env import load_task
    from designrl.tasks.layout.render import layout_to_svg
    from designrl.tasks.layout.spec import Layout

    episode = visible_episode(session, key, episode_id)
    layout = (episode.summary or {}).get(which)
    if episode.family != "layout" or layout is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"episode {episode_id} has no {which} "
                            "layout (not a finished layout episode)")
    task = load_task(episode.task_id, episode.seed or 0)
    return Response(layout_to_svg(task, Layout.from_json(layout)), media_type="image/svg+xml")
