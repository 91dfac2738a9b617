"""``pool.page(html)``: a page session, a lease of one pool page loaded and sandboxed, for
interactive checks.

    session = pool.page(html)
    async with session:                    # loaded; load failures raise RenderError
        title = await session.evaluate("() => document.title")  # the measuring world
        await session.click(120, 40)                            # a real mouse click
        after = await session.snapshot()   # RenderResult of the page as it is now
    session.events.dialogs                 # what the sandbox saw meanwhile

Families drive the page through the session's calls only: ``evaluate`` (a function, in a
world of its own that sees the page's DOM but not the page's globals, so a page cannot
fake what is measured), ``add_script``, ``screenshot``, ``move``, ``click``, ``type``,
``press``, ``stop_scripts`` and ``snapshot``; ``run`` puts several under one deadline. Each
runs under the job's deadline (``timeout_s``, by default the pool's): ``JobAborted`` when
the page ends the job first (a dialog flood, a crash), ``TimeoutError`` when it does not
answer in time. ``async with session as page`` also yields the Playwright page itself
(``session.page``), for callers that drive it their own way (tests).

The page's own limits hold while the caller drives it: dialogs are dismissed and counted,
and requests are routed. Leaving the block resets the page (or recycles it if the block
raised). A session whose browser is lost (at load, or under the block) raises
``BrowserLost`` when it opens or ends: what the block saw was not the page's doing, so run
the whole block again with ``pool.retrying``.
"""

from __future__ import annotations

import asyncio
import base64
import time
from typing import TYPE_CHECKING, Any, TypeVar

from designrl.render.capture import (
    capture_page,
    count_nodes,
    renderer_nodes,
    result_from_events,
)
from designrl.render.dom import LOADED_JS, SETTLE_JS
from designrl.render.events import PageEvents
from designrl.render.isolated import IsolatedWorld
from designrl.render.lease import PageLease
from designrl.render.types import BrowserLost, RenderResult, check_input, over_cap

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from playwright.async_api import Page

    from designrl.render.pool import BrowserPool
    from designrl.render.slot import Slot

T = TypeVar("T")


class RenderError(RuntimeError):
    """Raised by ``pool.page()`` when the page cannot be loaded; ``result`` says why."""

    def __init__(self, result: RenderResult) -> None:
        super().__init__(result.error)
        self.result = result


class PageSession:
    """A page session; see ``BrowserPool.page``. Entering it yields the Playwright page."""

    def __init__(
        self, pool: BrowserPool, html: str | bytes, viewport: tuple[int, int] | None
    ) -> None:
        self._pool = pool
        self._html = html
        self._viewport = viewport
        self._lease: PageLease | None = None
        self._world: IsolatedWorld | None = None

    @property
    def _slot(self) -> Slot | None:
        return self._lease.slot if self._lease is not None else None

    @property
    def events(self) -> PageEvents:
        """What the sandbox has seen on this page so far."""
        job = self._lease.job if self._lease is not None else None
        return job.events if job is not None else PageEvents()

    @property
    def page(self) -> Page:
        """The Playwright page (for callers that drive it themselves)."""
        slot = self._slot
        if slot is None or slot.page is None:
            raise RuntimeError("the page session is not open")
        return slot.page

    async def __aenter__(self) -> Page:
        pool = self._pool
        text, error = check_input(self._html, pool.max_input_bytes)
        if error is not None:
            raise RenderError(RenderResult.failure(error))
        lease = self._lease = await PageLease(pool).acquire()
        try:
            await lease.begin(text, self._viewport, driven=True)
        except BrowserLost:  # no page to be had
            await lease.release()
            raise
        try:
            self._world, nodes = await lease.run(self._load(lease.slot))
        except Exception as exc:
            try:
                result = lease.failed(exc)
            finally:
                await lease.release()
            raise RenderError(result) from exc
        if nodes > pool.limits.max_dom_nodes:
            lease.finish(False)
            await lease.release()
            raise RenderError(result_from_events(lease.job.events,
                                                 **over_cap("dom_nodes", dom_nodes=nodes)))
        return lease.slot.page

    async def _load(self, slot: Slot) -> tuple[IsolatedWorld, int]:
        """Load, count nodes, and (under the cap) let fonts and two frames settle."""
        assert slot.cdp is not None
        cap = self._pool.limits.max_dom_nodes
        world = await loaded_world(slot)
        nodes = await count_nodes(world, cap)
        if nodes <= cap:
            nodes = await renderer_nodes(slot.cdp, cap) or nodes
        if nodes <= cap:
            await world.call(SETTLE_JS)
        return world, nodes

    async def __aexit__(self, exc_type, exc, tb) -> None:
        lease = self._lease
        if lease is None or lease.slot is None:
            return
        if exc_type is not None:
            lease.finish(False)  # the page may be stuck in whatever failed
        try:
            lease.raise_if_lost(exc)
        finally:
            await lease.release()

    # The page, driven: every call under the job's deadline.

    def _open(self) -> tuple[PageLease, Slot]:
        lease = self._lease
        if lease is None or lease.slot is None or lease.slot.page is None \
                or lease.slot.cdp is None:
            raise RuntimeError("the page session is not open")
        return lease, lease.slot

    async def _run(self, work: Awaitable, timeout_s: float | None) -> Any:
        lease, _ = self._open()
        return await lease.run(work, timeout_s)

    async def run(self, work: Awaitable[T], timeout_s: float | None = None) -> T:
        """``await work`` (several of this session's calls) under one deadline."""
        return await self._run(work, timeout_s)

    async def evaluate(self, function_js: str, arg: Any = None, *,
                       timeout_s: float | None = None) -> Any:
        """``(function_js)(arg)`` in the measuring world (the page's DOM, pristine globals),
        awaited if it returns a promise; its JSON value comes back (``ScriptFailed`` if it
        throws)."""
        self._open()
        assert self._world is not None
        return await self._run(self._world.call(function_js, arg), timeout_s)

    async def add_script(self, source: str, *, timeout_s: float | None = None) -> None:
        """Run a script (a library, e.g. axe-core) in the measuring world."""
        self._open()
        assert self._world is not None
        await self._run(self._world.run(source), timeout_s)

    async def screenshot(self, *, timeout_s: float | None = None) -> bytes:
        """A PNG of the viewport as it is now (fast; ``snapshot`` is the full render)."""
        _, slot = self._open()
        reply = await self._run(slot.cdp.send("Page.captureScreenshot", {
            "format": "png", "optimizeForSpeed": True}), timeout_s)
        return base64.b64decode(reply["data"])

    async def move(self, x: float, y: float, *, timeout_s: float | None = None) -> None:
        """Move the mouse to (x, y) in the viewport (hovering what is there)."""
        _, slot = self._open()
        await self._run(slot.page.mouse.move(x, y), timeout_s)

    async def click(self, x: float, y: float, *, timeout_s: float | None = None) -> None:
        """A real mouse click at (x, y) in the viewport."""
        _, slot = self._open()
        await self._run(slot.page.mouse.click(x, y), timeout_s)

    async def type(self, text: str, *, timeout_s: float | None = None) -> None:
        """Type ``text`` with real key presses into what has focus."""
        _, slot = self._open()
        await self._run(slot.page.keyboard.type(text), timeout_s)

    async def press(self, key: str, *, timeout_s: float | None = None) -> None:
        """Press one key (``Enter``, ``Tab``, ...)."""
        _, slot = self._open()
        await self._run(slot.page.keyboard.press(key), timeout_s)

    async def stop_scripts(self) -> None:
        """Stop whatever script is spinning in the page (a hung call's), so the next call,
        or closing the page, is prompt. Quiet when the page is gone or stuck in a dialog."""
        _, slot = self._open()
        try:
            await asyncio.wait_for(slot.cdp.send("Runtime.terminateExecution"), 1.0)
        except Exception:  # noqa: BLE001 - recycling the page handles what this cannot
            pass

    async def snapshot(self, full_page: bool = True) -> RenderResult:
        """Screenshot and DOM facts of the page as it is now (after clicks and fills)."""
        lease, slot = self._open()
        started = time.monotonic()
        work = capture_page(slot.page, slot.cdp, lease.job.events, self._pool.limits,
                            full_page=full_page)
        try:
            result = await lease.run(work)
        except Exception as exc:
            result = lease.failed(exc)
        result.seconds = time.monotonic() - started
        return result


async def loaded_world(slot: Slot) -> IsolatedWorld:
    """Wait until the job's document has loaded; returns a measuring world.

    "Loaded" is ``document.readyState == 'complete'`` rather than the load event,
    which never fires when the page starts a (blocked) navigation while loading.
    """
    assert slot.cdp is not None
    world = await IsolatedWorld.create(slot.cdp, slot.frame_id)
    await world.call(LOADED_JS)
    return world
