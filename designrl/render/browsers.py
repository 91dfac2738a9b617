"""The pool's Chromium processes: a handle per browser, and launching one inside its
wrappers (memory group, network namespace, preferences), with Chromium's own sandbox
where it starts and without it where it does not."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from designrl.render.chromium import IGNORED_PLAYWRIGHT_ARGS, kill_browser, launch_args, new_marker
from designrl.render.events import error_text

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

    from designrl.render.memory_cap import MemoryCap

log = logging.getLogger(__name__)

LAUNCH_TIMEOUT_S = 30.0


class ExecutableWrapper(Protocol):
    """Something that runs Chromium inside itself: ``executable(chromium)`` is the program
    to start instead of ``chromium`` (``ChromiumPreferences``, ``NetworkIsolation``)."""

    def executable(self, chromium: str) -> str: ...


@dataclass
class BrowserHandle:
    """One browser of the pool: its process (``None`` until launched or once killed), the
    marker its processes carry (to kill them), and the generation (launches so far)."""

    index: int
    browser: Browser | None = None
    marker: str = ""
    generation: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def alive(self) -> bool:
        return self.browser is not None and self.browser.is_connected()


async def launch_browser(pw: Playwright, handle: BrowserHandle, executable: str | None,
                         wrappers: Sequence[ExecutableWrapper], cap: MemoryCap | None,
                         sandbox: bool, fall_back: bool = True) -> bool:
    """Launch ``handle``'s browser (killing what a crashed or hung predecessor left) and
    count a generation; returns whether Chromium's own sandbox is (still) on.

    Where the sandbox has not started yet, a launch that fails with it falls back to
    none (this machine cannot give it). Once it has (``fall_back`` False), a failure is
    taken for a passing one (a relaunch under load) and tried again with the sandbox:
    a busy moment never leaves the pool without it for good.

    Each wrapper execs the next: the memory group outermost, then ``wrappers`` (the
    first wraps Chromium itself: preferences, then the network namespace), then Chromium."""
    if handle.marker:
        kill_browser(handle.marker)  # leftovers of a crashed or hung predecessor
    handle.marker = new_marker()
    for wrapper in wrappers:
        executable = wrapper.executable(executable)
    options = {
        "executable_path": cap.executable(str(handle.index), executable) if cap else executable,
        "args": launch_args(handle.marker) + (cap.chromium_args() if cap else []),
        "headless": True,
        "timeout": LAUNCH_TIMEOUT_S * 1000,
        "handle_sigint": False,
        "handle_sigterm": False,
        "handle_sighup": False,
        "ignore_default_args": IGNORED_PLAYWRIGHT_ARGS,
    }
    try:
        handle.browser = await pw.chromium.launch(chromium_sandbox=sandbox, **options)
    except Exception as exc:
        if not sandbox:
            raise
        if fall_back:
            log.warning("Chromium would not start with its own sandbox (%s); going on "
                        "without it", error_text(exc)[:300])
            sandbox = False
        else:
            log.warning("Chromium did not relaunch (%s); trying again with its own "
                        "sandbox", error_text(exc)[:300])
            kill_browser(handle.marker)
        handle.browser = await pw.chromium.launch(chromium_sandbox=sandbox, **options)
    handle.generation += 1
    return sandbox
