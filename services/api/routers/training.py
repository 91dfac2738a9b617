"""Learner runs for the Training page, read only (``designrl.learner.runs`` reads a run's
folder): the runs under ``training_runs_dir``, one run's curves, samples (when its episode
is not stored: a layout sample's picture replayed, another family's drawn from its text by
the API's render pool, ``designrl.learner.sample_render``), checkpoints and evaluations,
and the policy versions in the adapter store with the one the learner last
announced."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import Response
from redis.exceptions import RedisError

from designrl.learner.runs import adapter_versions, list_runs, read_run
from designrl.learner.sample_picture import can_replay, sample_svg
from designrl.learner.sample_render import can_draw, placeholder_svg
from designrl.learner.versions import current_version
from designrl.store.artifacts import episode_images
from designrl.store.reads import completed_families
from services.api.deps import KeyDep, SessionDep
from services.api.schemas import (
    TrainingRunDetail,
    TrainingRunOut,
    TrainingSourcesOut,
    VersionsOut,
)
from services.api.views import sample_pictures

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/training", tags=["training"])


@router.get("/runs", response_model=list[TrainingRunOut])
def get_runs(request: Request, key: KeyDep) -> list[TrainingRunOut]:
    """Runs, most recently updated first."""
    return [TrainingRunOut(**run) for run in list_runs(_runs_dir(request))]


@router.get("/runs/{name}", response_model=TrainingRunDetail)
def get_run(name: str, request: Request, session: SessionDep, key: KeyDep) -> TrainingRunDetail:
    run = read_run(_runs_dir(request), name)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no training run {name!r}")
    families = completed_families(session, [s["episode_id"] for s in run["samples"]])
    images = episode_images(session, list(families))
    return TrainingRunDetail(**run | {"samples": sample_pictures(run["samples"], families,
                                                                  images, name)})


@router.get("/runs/{name}/samples/{index}.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_sample_picture(name: str, index: int, request: Request, key: KeyDep) -> Response:
    """A layout sample's final layout, replayed from the completions ``samples.jsonl``
    keeps (its episode is not stored: ``designrl train`` stores none)."""
    run = read_run(_runs_dir(request), name)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no training run {name!r}")
    samples = run["samples"]
    if not 0 <= index < len(samples) or not can_replay(samples[index]):
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"run {name!r} has no layout sample {index} to replay (it keeps "
                            f"{len(samples)} samples; a picture needs a layout task's "
                            "completions)")
    return Response(sample_svg(samples[index]), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


@router.get("/runs/{name}/samples/{index}/picture", response_class=Response,
            responses={200: {"content": {"image/png": {}, "image/svg+xml": {}}}})
def get_sample_drawing(name: str, index: int, request: Request, key: KeyDep) -> Response:
    """An svg, html or webpage sample's text drawn by the render pool (its episode is not
    stored here): a PNG, or, where it cannot be drawn, a placeholder SVG saying why, the
    reason also in the ``X-Picture-Problem`` header (URL-encoded)."""
    run = read_run(_runs_dir(request), name)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no training run {name!r}")
    samples = run["samples"]
    if not 0 <= index < len(samples) or not can_draw(samples[index]):
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"run {name!r} has no svg, html or webpage sample {index} to draw "
                            f"(it keeps {len(samples)} samples)")
    picture = request.app.state.sample_pictures.draw(samples[index])
    if picture.png is not None:
        return Response(picture.png, media_type="image/png",
                        headers={"Cache-Control": "private, max-age=3600"})
    log.info("training run %s sample %d has no picture: %s", name, index, picture.problem)
    return Response(placeholder_svg(picture.problem), media_type="image/svg+xml", headers={
        "X-Picture-Problem": quote(picture.problem),
        "Cache-Control": "private, max-age=3600" if picture.cached else "no-store"})


@router.get("/sources", response_model=TrainingSourcesOut)
def get_sources(request: Request, key: KeyDep) -> TrainingSourcesOut:
    """Where the runs and versions shown come from (this API's settings)."""
    settings = request.app.state.settings
    return TrainingSourcesOut(runs_dir=str(_runs_dir(request)),
                              adapter_store=str(Path(settings.adapter_store).resolve()))


@router.get("/versions", response_model=VersionsOut)
def get_versions(request: Request, key: KeyDep) -> VersionsOut:
    settings = request.app.state.settings
    try:
        current = current_version(request.app.state.redis, settings.version_key)
    except RedisError:
        current = None  # the page still shows the versions on disk
    return VersionsOut(current=current, versions=adapter_versions(Path(settings.adapter_store)))


def _runs_dir(request: Request) -> Path:
    return Path(request.app.state.settings.training_runs_dir).resolve()
