"""Browser test helpers shared by the render and webpage tests.

The repository has no async test plugin, so a ``PoolRunner`` owns an event loop in
a daemon thread and tests hand it coroutines; one pool serves a whole module.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from typing import Any

import pytest

from designrl.render import BrowserPool, RenderResult
from designrl.render.chromium import ChromiumNotFound, find_chromium


def require_chromium() -> None:
    """Skip (with the reason) where no Chromium is installed; in CI that is a failure."""
    try:
        find_chromium()
        import playwright  # noqa: F401
    except (ChromiumNotFound, ImportError) as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"browser tests need Chromium and playwright (`make setup`): {exc}")


class PoolRunner:
    """A started ``BrowserPool`` on its own event loop thread."""

    def __init__(self, run_timeout: float = 60.0, **pool_kwargs: Any) -> None:
        self.run_timeout = run_timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.pool = BrowserPool(**pool_kwargs)
        self.run(self.pool.start())

    def run(self, coro: Coroutine, timeout: float | None = None):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(
            timeout or self.run_timeout)

    def render(self, html: str | bytes, timeout: float = 60.0, **kwargs: Any) -> RenderResult:
        return self.run(self.pool.render(html, **kwargs), timeout)

    def close(self) -> None:
        try:
            self.run(self.pool.close(), 30.0)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
