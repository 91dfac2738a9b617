"""One browser pool per process, started on first use, for render-scored episodes.

Workers fork: a pool started in the parent would be shared by children that
cannot use it, so the pool belongs to the process that started it and a forked
child starts its own. Layout episodes never start one. ``close_process_runner``
closes it cleanly: a worker process must call it on shutdown (Celery's prefork
children leave with ``os._exit``, which skips ``atexit``); ordinary interpreters
run it at exit by themselves.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from designrl.render.runner import PoolRunner

# A render episode's pool: one browser, two pages (an episode renders a reference and a
# candidate at once), and a page time cap well inside an episode's time limit.
DEFAULT_POOL = {"browsers": 1, "pages_per_browser": 2, "timeout_s": 15.0}

_lock = threading.Lock()
_runner: PoolRunner | None = None
_owner: int | None = None  # the pid that started it


def process_runner(**pool_kwargs: Any) -> PoolRunner:
    """This process's started ``PoolRunner`` (``pool_kwargs`` apply when it starts)."""
    global _runner, _owner
    with _lock:
        if _runner is None or _owner != os.getpid():
            from designrl.render.runner import PoolRunner

            _runner = PoolRunner(**{**DEFAULT_POOL, **pool_kwargs})
            _owner = os.getpid()
        return _runner


def close_process_runner() -> None:
    """Close this process's pool, if it started one (a fork's inherited one is left alone)."""
    global _runner, _owner
    with _lock:
        runner, mine = _runner, _owner == os.getpid()
        _runner = _owner = None
    if runner is not None and mine:
        runner.close()


atexit.register(close_process_runner)
