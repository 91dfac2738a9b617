"""One browser pool per test module (1 browser x 4 pages), for the browser tests."""

from __future__ import annotations

import pytest
from browser_support import PoolRunner, require_chromium


@pytest.fixture(scope="module")
def runner(request):
    """Per-job limit ``POOL_TIMEOUT_S`` of the module (default 10 s)."""
    require_chromium()
    timeout_s = getattr(request.module, "POOL_TIMEOUT_S", 10.0)
    runner = PoolRunner(run_timeout=120.0, browsers=1, pages_per_browser=4, timeout_s=timeout_s)
    yield runner
    runner.close()
