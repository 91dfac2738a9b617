"""Browser test helpers shared by the render and webpage tests.

The repository has no async test plugin, so tests use the library's ``PoolRunner``
(an event loop in a daemon thread) and hand it coroutines; one pool serves a module.
"""

from __future__ import annotations

import os

import pytest

from designrl.render.chromium import ChromiumNotFound, find_chromium
from designrl.render.runner import PoolRunner

__all__ = ["PoolRunner", "driver_peak_mb", "require_chromium"]


def require_chromium() -> None:
    """Skip (with the reason) where no Chromium is installed; in CI that is a failure."""
    try:
        find_chromium()
        import playwright  # noqa: F401
    except (ChromiumNotFound, ImportError) as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"browser tests need Chromium and playwright (`make setup`): {exc}")


def driver_peak_mb() -> int:
    """Peak resident memory of this process's Playwright driver (its node child)."""
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                is_driver = b"playwright/driver/node" in cmdline.read()
            if parent == me and is_driver:
                with open(f"/proc/{entry}/status") as status:
                    peak = next(line for line in status if line.startswith("VmHWM:"))
                return int(peak.split()[1]) // 1024
        except (OSError, StopIteration):
            continue
    raise AssertionError("no Playwright driver among this process's children")
