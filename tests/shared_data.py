"""Where the tests find ``shared/`` (the project's dev data): ``DESIGNRL_SHARED``, else
the folder beside the repository, as on CI (".ci/run: a fresh clone, shared/ beside it")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_path(relative: str) -> Path:
    base = os.environ.get("DESIGNRL_SHARED")
    return (Path(base) if base else REPO.parent / "shared") / relative


def require_shared(relative: str) -> Path:
    """The path, or a skip with the reason; under CI a missing file is a failure."""
    path = shared_path(relative)
    if not path.exists():
        message = f"shared data not found at {path} (set DESIGNRL_SHARED)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
