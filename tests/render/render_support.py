"""Helpers for the render tests; the pool runner is ``browser_support``'s."""

from __future__ import annotations

import os
from pathlib import Path


def shared_dir() -> Path:
    shared = os.environ.get("DESIGNRL_SHARED")
    return Path(shared) if shared else Path(__file__).resolve().parents[3] / "shared"
