"""Fixtures for the render tests: one pool per module, on its own event loop thread."""

from __future__ import annotations

import pytest
from browser_support import PoolRunner, require_chromium


@pytest.fixture(scope="module")
def runner(request):
    """One browser x 4 pages; per-job limit: the module's ``POOL_TIMEOUT_S`` (default 3 s)."""
    require_chromium()
    timeout_s = getattr(request.module, "POOL_TIMEOUT_S", 3.0)
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=4, timeout_s=timeout_s)
    yield runner
    runner.close()
