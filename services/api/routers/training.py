"""Learner runs for the Training page, read only: each subdirectory of the runs folder that
holds a ``curves.jsonl`` (one row per update, as the learner writes it), its checkpoints,
and the policy versions in the adapter store with the one the learner last announced."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request, status
from redis.exceptions import RedisError

from designrl.learner.checkpoint import STATE_FILE
from designrl.learner.grpo import CURVES_FILE
from designrl.learner.versions import current_version
from services.api.deps import KeyDep
from services.api.schemas import PolicyVersionOut, TrainingRunDetail, TrainingRunOut, VersionsOut

router = APIRouter(prefix="/v1/training", tags=["training"])
_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")
_VERSION = re.compile(r"^policy-v(\d+)$")  # not policy-vN.tmp: a version being written


@router.get("/runs", response_model=list[TrainingRunOut])
def get_runs(request: Request, key: KeyDep) -> list[TrainingRunOut]:
    """Runs, most recently updated first."""
    runs = [_run_out(folder, read_curves(folder)) for folder in _run_folders(request)]
    return sorted(runs, key=lambda r: r.updated_at, reverse=True)


@router.get("/runs/{name}", response_model=TrainingRunDetail)
def get_run(name: str, request: Request, key: KeyDep) -> TrainingRunDetail:
    # Only names listed in the runs folder: a path from the request is never opened.
    folder = next((f for f in _run_folders(request) if f.name == name), None)
    if folder is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no training run {name!r}")
    curves = read_curves(folder)
    checkpoints = sorted(int(m.group(1)) for child in folder.iterdir()
                         if (m := _CHECKPOINT.match(child.name))
                         and (child / STATE_FILE).is_file())
    summary = folder / "summary.json"
    return TrainingRunDetail(**_run_out(folder, curves).model_dump(), curves=curves,
                             checkpoints=checkpoints,
                             summary=json.loads(summary.read_text()) if summary.is_file()
                             else None)


@router.get("/versions", response_model=VersionsOut)
def get_versions(request: Request, key: KeyDep) -> VersionsOut:
    settings = request.app.state.settings
    store = Path(settings.adapter_store)
    versions = sorted((PolicyVersionOut(version=int(m.group(1)), name=child.name,
                                        created_at=_mtime(child))
                       for child in (store.iterdir() if store.is_dir() else ())
                       if (m := _VERSION.match(child.name)) and child.is_dir()),
                      key=lambda v: v.version)
    try:
        current = current_version(request.app.state.redis, settings.version_key)
    except RedisError:
        current = None  # the page still shows the versions on disk
    return VersionsOut(current=current, versions=versions)


def _run_folders(request: Request) -> list[Path]:
    root = Path(request.app.state.settings.training_runs_dir)
    if not root.is_dir():
        return []
    return [child for child in root.iterdir() if (child / CURVES_FILE).is_file()]


def read_curves(folder: Path) -> list[dict]:
    """The rows of ``curves.jsonl``; a last line the learner is still writing is left out."""
    text = (folder / CURVES_FILE).read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()
    return [json.loads(line) for line in lines if line.strip()]


def _run_out(folder: Path, curves: list[dict]) -> TrainingRunOut:
    return TrainingRunOut(name=folder.name, updates=len(curves),
                          last_version=curves[-1].get("version") if curves else None,
                          updated_at=_mtime(folder / CURVES_FILE))


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)
