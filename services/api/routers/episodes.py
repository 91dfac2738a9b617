"""One episode: its trajectory, reward components, a live event stream, its stored renders
(PNG, single-turn families) and, for layouts, images before, after and at every step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response, status
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session

from designrl.rollout.replay import NoImage, episode_svg
from designrl.store.artifacts import artifact_names, read_artifact
from designrl.store.models import FINISHED, ApiKey, Episode
from services.api.deps import KeyDep, SessionDep, visible_job
from services.api.quotas import hold_stream, holding
from services.api.schemas import EpisodeDetail
from services.api.streams import episode_events, live_steps
from services.api.views import episode_detail

router = APIRouter(prefix="/v1", tags=["episodes"])
SVG = {200: {"content": {"image/svg+xml": {}}}}
PNG = {200: {"content": {"image/png": {}}}}
ImageName = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


def visible_episode(session: Session, key: ApiKey, episode_id: str) -> Episode:
    episode = session.get(Episode, episode_id)
    if episode is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no episode {episode_id}")
    visible_job(session, key, episode.job_id)
    return episode


@router.get("/episodes/{episode_id}", response_model=EpisodeDetail)
def get_episode(episode_id: str, session: SessionDep, key: KeyDep) -> EpisodeDetail:
    return episode_detail(visible_episode(session, key, episode_id))


@router.get("/episodes/{episode_id}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}}},
                       429: {"description": "the key holds as many event streams as it may; "
                                            "Retry-After says when to look again"}})
def stream_episode(episode_id: str, request: Request, session: SessionDep, key: KeyDep,
                   after: Annotated[int, Query(ge=-1)] = -1) -> StreamingResponse:
    """Server-Sent Events: ``episode`` (status changes), ``step`` (each step after
    ``after``), then ``end`` (the whole episode) once it is finished. A key holds at most
    ``key_event_streams`` open at once (429 with Retry-After past that)."""
    visible_episode(session, key, episode_id)
    held = hold_stream(request, key)
    session.close()  # give its connection back: the stream polls with sessions of its own
    return StreamingResponse(holding(episode_events(request, episode_id, after), request,
                                     held),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/episodes/{episode_id}/images/{which}.svg", response_class=Response,
            responses=SVG)
def get_episode_image(episode_id: str, which: Literal["before", "after"], session: SessionDep,
                      key: KeyDep) -> Response:
    """The layout before the first step or after the last, drawn as SVG."""
    return _svg(visible_episode(session, key, episode_id), which)


@router.get("/episodes/{episode_id}/images/{name}.png", response_class=Response,
            responses=PNG)
def get_episode_png(episode_id: str, name: ImageName, session: SessionDep,
                    key: KeyDep) -> Response:
    """A render the episode stored (``images`` in the episode lists them: ``candidate``, the
    completion's page or drawing; ``reference``, the page it was asked to reproduce)."""
    visible_episode(session, key, episode_id)
    artifact = read_artifact(session, episode_id, name)
    if artifact is None:
        names = ", ".join(artifact_names(session, episode_id)) or "none"
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"episode {episode_id} has no image {name!r}; its images: {names}")
    return Response(artifact.data, media_type=artifact.content_type,
                    headers={"Cache-Control": "private, max-age=3600",
                             "X-Content-Type-Options": "nosniff"})


@router.get("/episodes/{episode_id}/steps/{index}.svg", response_class=Response,
            responses=SVG)
def get_step_image(episode_id: str, index: int, request: Request, session: SessionDep,
                   key: KeyDep) -> Response:
    """The layout after step ``index`` (from 0), drawn as SVG; while the episode runs,
    after a step it has taken so far."""
    episode = visible_episode(session, key, episode_id)
    live = ([] if episode.status in FINISHED else  # its actions are not stored yet
            [s.action for s in live_steps(request.app.state.redis, episode_id, -1)])
    return _svg(episode, index, live)


def _svg(episode: Episode, which: Literal["before", "after"] | int,
         live: Sequence[dict | None] = ()) -> Response:
    try:
        svg = episode_svg(episode, which, live)
    except NoImage as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"}
                    if episode.status == "completed" else {})
