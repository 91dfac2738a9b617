"""``PoolRunner``: a started ``BrowserPool`` on its own event-loop thread, for sync callers.

TRL calls reward functions synchronously; scripts and tests are sync too. A
runner owns a loop in a daemon thread and hands it coroutines, so one pool
(browsers launched once) serves every call:

    runner = PoolRunner(browsers=1, pages_per_browser=4)
    result = runner.render("<p>hi</p>")
    scores = runner.run(reward.score_many(completions, requirements))
    runner.close()
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any

from designrl.render.pool import BrowserPool
from designrl.render.types import RenderResult


class PoolRunner:
    """A started ``BrowserPool`` (``pool_kwargs`` are its arguments) on a loop thread."""

    def __init__(self, run_timeout: float = 600.0, **pool_kwargs: Any) -> None:
        self.run_timeout = run_timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                       name="designrl-browser-pool")
        self.thread.start()
        self.pool = BrowserPool(**pool_kwargs)
        try:
            self.run(self.pool.start())
        except BaseException:
            self._stop_loop()
            raise

    def run(self, coro: Coroutine, timeout: float | None = None):
        """Run ``coro`` on the pool's loop and wait for its result (or its exception)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(
            timeout or self.run_timeout)

    def render(self, html: str | bytes, timeout: float = 60.0, **kwargs: Any) -> RenderResult:
        return self.run(self.pool.render(html, **kwargs), timeout)

    def close(self) -> None:
        try:
            self.run(self.pool.close(), 30.0)
        finally:
            self._stop_loop()

    def __enter__(self) -> PoolRunner:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _stop_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
