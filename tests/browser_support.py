"""Browser test helpers shared by the render and webpage tests.

The repository has no async test plugin, so tests use the library's ``PoolRunner``
(an event loop in a daemon thread) and hand it coroutines; one pool serves a module.
"""

from __future__ import annotations

import os

import pytest

from designrl.render.chromium import ChromiumNotFound, find_chromium
from designrl.render.runner import PoolRunner

__all__ = ["PoolRunner", "require_chromium"]


def require_chromium() -> None:
    """Skip (with the reason) where no Chromium is installed; in CI that is a failure."""
    try:
        find_chromium()
        import playwright  # noqa: F401
    except (ChromiumNotFound, ImportError) as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"browser tests need Chromium and playwright (`make setup`): {exc}")
