"""``pool.page(html)``: a lease of one pool page, loaded and sandboxed, for interactive checks.

    session = pool.page(html)
    async with session as page:        # a Playwright Page; load failures raise RenderError
        await page.click("button")
        after = await session.snapshot()  # RenderResult of the page as it is now
    session.events.dialogs              # what the sandbox saw meanwhile

The page's own limits still hold while the caller drives it: Playwright calls
time out after the pool's ``timeout_s``, dialogs are dismissed and counted, and
requests are routed. Leaving the block resets the page (or recycles it if the
block raised). A session whose browser is lost (at load, or under the block) raises
``BrowserLost`` when it opens or ends: what the block saw was not the page's doing, so
run the whole block again with ``pool.retrying``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from designrl.render.capture import (
    capture_page,
    count_nodes,
    renderer_nodes,
    result_from_events,
)
from designrl.render.dom import LOADED_JS, SETTLE_JS
from designrl.render.events import PageEvents
from designrl.render.isolated import IsolatedWorld
from designrl.render.job_deadline import run_job
from designrl.render.types import BrowserLost, RenderResult, check_input, over_cap

if TYPE_CHECKING:
    from playwright.async_api import Page

    from designrl.render.pool import BrowserPool
    from designrl.render.sandbox import Job
    from designrl.render.slot import Slot


class RenderError(RuntimeError):
    """Raised by ``pool.page()`` when the page cannot be loaded; ``result`` says why."""

    def __init__(self, result: RenderResult) -> None:
        super().__init__(result.error)
        self.result = result


class PageSession:
    """Lease of one pool page for interactive checks; see ``BrowserPool.page``."""

    def __init__(
        self, pool: BrowserPool, html: str | bytes, viewport: tuple[int, int] | None
    ) -> None:
        self._pool = pool
        self._html = html
        self._viewport = viewport
        self._slot: Slot | None = None
        self._job: Job | None = None

    @property
    def events(self) -> PageEvents:
        """What the sandbox has seen on this page so far."""
        return self._job.events if self._job is not None else PageEvents()

    @property
    def page(self) -> Page:
        if self._slot is None or self._slot.page is None:
            raise RuntimeError("the page session is not open")
        return self._slot.page

    async def __aenter__(self) -> Page:
        pool = self._pool
        text, error = check_input(self._html, pool.max_input_bytes)
        if error is not None:
            raise RenderError(RenderResult.failure(error))
        slot = await pool._acquire()
        self._slot = slot
        try:
            job = self._job = await pool._begin(slot, text, self._viewport, driven=True)
        except BrowserLost:  # no page to be had
            await self._end()
            raise
        try:
            nodes = await run_job(job, self._load(slot, job), pool.timeout_s)
        except Exception as exc:
            try:
                result = result_from_events(job.events, **pool._failure(slot, job, exc))
            finally:
                await self._end()
            raise RenderError(result) from exc
        if nodes > pool.limits.max_dom_nodes:
            slot.poisoned = True
            await self._end()
            raise RenderError(result_from_events(job.events, **over_cap("dom_nodes", dom_nodes=nodes)))
        return slot.page

    async def _load(self, slot: Slot, job: Job) -> int:
        """Load, count nodes, and (under the cap) let fonts and two frames settle."""
        assert slot.cdp is not None
        cap = self._pool.limits.max_dom_nodes
        world = await loaded_world(slot)
        nodes = await count_nodes(world, cap)
        if nodes <= cap:
            nodes = await renderer_nodes(slot.cdp, cap) or nodes
        if nodes <= cap:
            await world.call(SETTLE_JS)
        return nodes

    async def __aexit__(self, exc_type, exc, tb) -> None:
        slot = self._slot
        if exc_type is not None and slot is not None:
            slot.poisoned = True  # the page may be stuck in whatever failed
        try:
            if slot is not None:
                self._pool.raise_if_lost(slot, exc)
        finally:
            await self._end()

    async def snapshot(self, full_page: bool = True) -> RenderResult:
        """Screenshot and DOM facts of the page as it is now (after clicks and fills)."""
        slot, job = self._slot, self._job
        if slot is None or job is None or slot.page is None or slot.cdp is None:
            raise RuntimeError("the page session is not open")
        started = time.monotonic()
        work = capture_page(slot.page, slot.cdp, job.events, self._pool.limits,
                            full_page=full_page)
        try:
            result = await run_job(job, work, self._pool.timeout_s)
        except Exception as exc:
            result = result_from_events(job.events, **self._pool._failure(slot, job, exc))
        result.seconds = time.monotonic() - started
        return result

    async def _end(self) -> None:
        slot, self._slot = self._slot, None
        if slot is None:
            return
        slot.renders += 1
        await self._pool._release(slot)


async def loaded_world(slot: Slot) -> IsolatedWorld:
    """Wait until the job's document has loaded; returns a measuring world.

    "Loaded" is ``document.readyState == 'complete'`` rather than the load event,
    which never fires when the page starts a (blocked) navigation while loading.
    """
    assert slot.cdp is not None
    world = await IsolatedWorld.create(slot.cdp, slot.frame_id)
    await world.call(LOADED_JS)
    return world
