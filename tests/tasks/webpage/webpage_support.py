"""Helpers for the webpage tests: fixture ladders, and one browser pool per module.

The repository has no async test plugin, so ``PoolRunner`` owns an event loop in a
daemon thread and tests hand it coroutines (the render tests do the same).
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LADDER_PROMPTS = {
    "todo": "todo-app",
    "contact": "contact-form",
    "pricing": "pricing-table",
    "calculator": "calculator",
}
RUNGS = ("good", "contrast", "overlap", "dead", "jserror", "blank")
BLANK = "<!DOCTYPE html><html lang='en'><head><title>Blank</title></head><body></body></html>"


def dead_controls(html: str) -> str:
    """The same page with every script removed and in-page links pointing nowhere: it looks
    the same, and none of its buttons, forms or links does anything."""
    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I)
    return re.sub(r'href="#[^"]+"', 'href="#"', html)


def with_load_error(html: str) -> str:
    """The same page whose script throws on its first line (a call to an undefined function),
    so no handler is ever attached."""
    return html.replace(
        "<script>", "<script>\n  loadSavedState(); // not defined: throws before any handler\n", 1)


def ladder(name: str) -> list[tuple[str, str]]:
    """(rung, html) from best to worst for one of ``LADDER_PROMPTS``."""
    folder = FIXTURES / "ladder"
    good = (folder / f"{name}_good.html").read_text(encoding="utf-8")
    return [
        ("good", good),
        ("contrast", (folder / f"{name}_contrast.html").read_text(encoding="utf-8")),
        ("overlap", (folder / f"{name}_overlap.html").read_text(encoding="utf-8")),
        ("dead", dead_controls(good)),
        ("jserror", with_load_error(good)),
        ("blank", BLANK),
    ]


def require_chromium() -> None:
    """Skip (with the reason) where no Chromium is installed; in CI that is a failure."""
    from designrl.render.chromium import ChromiumNotFound, find_chromium

    try:
        find_chromium()
        import playwright  # noqa: F401
    except (ChromiumNotFound, ImportError) as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"webpage browser tests need Chromium and playwright: {exc}")


class PoolRunner:
    """A started ``BrowserPool`` on its own event loop thread."""

    def __init__(self, **pool_kwargs: Any) -> None:
        from designrl.render import BrowserPool

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.pool = BrowserPool(**pool_kwargs)
        self.run(self.pool.start())

    def run(self, coro: Coroutine, timeout: float = 120.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        try:
            self.run(self.pool.close(), 30.0)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
