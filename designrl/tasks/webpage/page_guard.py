"""Guards on calls into an untrusted page: a time cap, a dialog flood or a crash ends the
call with ``PageHung`` (the caller leaves the page, and the pool recycles it), and
``terminate_scripts`` stops a script spinning in it."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from designrl.render.events import PageEvents
    from designrl.tasks.webpage.interaction_records import Interactions

POLL_S = 0.05


class PageHung(Exception):
    """The page stopped answering (or turned hostile) during the checks; ``reason`` says how."""

    def __init__(self, reason: str, interactions: Interactions | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.interactions = interactions


async def guarded(coro, timeout_s: float, events: PageEvents, max_dialogs: int = 20):
    """Await ``coro`` within ``timeout_s``, ending early when the page floods dialogs or
    crashes; ``PageHung`` says which. The coroutine is cancelled when it does not finish."""
    task = asyncio.ensure_future(coro)
    deadline = time.monotonic() + timeout_s
    try:
        while not task.done():
            if events.dialogs > max_dialogs:
                raise PageHung("too_many_dialogs")
            if events.crashed:
                raise PageHung("page_crashed")
            left = deadline - time.monotonic()
            if left <= 0:
                raise PageHung("timeout")
            await asyncio.wait({task}, timeout=min(POLL_S, left))
        return task.result()
    finally:
        if not task.done():
            task.cancel()


async def terminate_scripts(cdp) -> None:
    """Stop whatever script is spinning in the page, so it can be closed promptly."""
    try:
        await asyncio.wait_for(cdp.send("Runtime.terminateExecution"), 1.0)
    except Exception:  # the page may be gone or stuck in a dialog: closing handles it
        pass
