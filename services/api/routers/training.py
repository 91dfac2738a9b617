"""Learner runs for the Training page, read only (``designrl.learner.runs`` reads a run's
folder): the runs under ``training_runs_dir``, one run's curves, samples (a layout
sample's picture replayed when its episode is not stored), checkpoints and evaluations,
and the policy versions in the adapter store with the one the learner last
announced."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import Response
from redis.exceptions import RedisError

from designrl.learner.runs import adapter_versions, list_runs, read_run
from designrl.learner.sample_picture import can_replay, sample_svg
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
