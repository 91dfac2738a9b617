"""Shared fixtures for the layout tests."""

from __future__ import annotations

import pytest

from designrl.tasks.layout import metrics


@pytest.fixture(params=["native", "python"])
def metrics_path(request):
    """Run a test once on each path of ``metrics.evaluate``: the C extension and pure Python."""
    if request.param == "native" and not metrics.native_available():
        pytest.skip("C extension designrl.tasks.layout._cmetrics is not built "
                    f"({metrics.NATIVE_IMPORT_ERROR}); only the pure-Python path runs")
    before = metrics.native_active()
    metrics.use_native(request.param == "native")
    yield request.param
    metrics.use_native(before)
