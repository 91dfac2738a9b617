"""A pool of Chromium pages for rendering untrusted HTML: a few browsers, many reused pages.

    async with BrowserPool(browsers=2, pages_per_browser=4) as pool:
        result = await pool.render(html)            # RenderResult, never raises for a bad page
        session = pool.page(html)                    # live sandboxed page, for clicks and fills
        async with session:
            await session.click(40, 20)

Concurrency is bounded by the number of pages. Each page lives in its own
browser context, is reset between jobs and recycled after ``recycle_after``
jobs or any failure. A job that overruns ``timeout_s`` (an endless script) or
floods dialogs has its context closed, which ends the renderer running it; a
browser that stops answering is killed and relaunched. Every such event comes back as
a scored failure in the page's ``RenderResult`` (``error``/``timed_out``), so one hostile
page costs at most its time cap and the pool keeps serving.

A browser lost under a job (killed from outside or for a neighbour's hang, crashed, or
one that would not start) is not the job's failure: ``retrying`` runs the job again on a
fresh page, up to ``infra_retries`` times, then raises ``InfrastructureError``, which
is never a score.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, TypeVar

from designrl.render.assets import AssetStore
from designrl.render.browsers import LAUNCH_TIMEOUT_S, BrowserHandle, launch_browser
from designrl.render.capture import CaptureLimits, capture_page
from designrl.render.chromium import find_chromium, kill_browser, own_sandbox_possible
from designrl.render.dom import MAX_ELEMENTS
from designrl.render.events import error_text
from designrl.render.isolated import IsolatedWorld
from designrl.render.job_deadline import JobAborted
from designrl.render.lease import PageLease
from designrl.render.memory_cap import DEFAULT_MEMORY_CAP_MB, MemoryCap
from designrl.render.netns import NetworkIsolation
from designrl.render.preferences import ChromiumPreferences
from designrl.render.run_as import DEFAULT_USER, RunAs, sandbox_mode
from designrl.render.sandbox import Job, Router
from designrl.render.session import PageSession
from designrl.render.slot import RESET_TIMEOUT_S, Slot
from designrl.render.types import (
    BrowserLost,
    InfrastructureError,
    PoolStats,
    RenderResult,
    check_input,
    over_cap,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

    from playwright.async_api import Playwright

log = logging.getLogger(__name__)

PREPARE_TIMEOUT_S = 10.0  # opening a context (or launching a browser) that takes longer is hung
T = TypeVar("T")

__all__ = ["BrowserPool", "JobAborted", "PoolStats"]


class BrowserPool:
    """``browsers`` Chromium processes x ``pages_per_browser`` reusable sandboxed pages.

    Limits: ``timeout_s`` per job (load + DOM facts + screenshot), ``max_height``
    px of full-page screenshot, ``max_dom_nodes`` elements (every frame and shadow root), ``max_input_bytes`` of
    HTML, ``max_dialogs`` dialogs before the page's script is stopped, ``max_frames``
    frames (iframes, nested ones included) before the job ends, ``infra_retries``
    more tries for a job whose browser was lost under it. ``assets`` adds files the page
    may load by name (``rick.jpg`` is built in). ``memory_cap_mb`` caps each browser, all
    its processes together (``None``: no cap); a job over it ends ``resource_exceeded``.
    ``memory_cap.mode`` says how it is held (``cgroup2``, ``cgroup1`` or only the JS
    heap, ``v8-heap``: see ``memory_cap``). With ``network_namespace`` each browser runs
    in a network namespace of its own where the machine allows; ``network.mode`` says
    whether it does (``netns``) or only the router holds (``routing-only``; see ``netns``).
    """

    def __init__(
        self,
        browsers: int = 1,
        pages_per_browser: int = 4,
        viewport: tuple[int, int] = (1280, 800),
        max_height: int = 8000,
        timeout_s: float = 10.0,
        recycle_after: int = 200,
        *,
        max_dom_nodes: int = 50_000,
        max_elements: int = MAX_ELEMENTS,
        max_input_bytes: int = 2_000_000,
        max_dialogs: int = 20,
        max_frames: int = 100,
        infra_retries: int = 2,
        executable_path: str | None = None,
        assets: Mapping[str, bytes] | None = None,
        memory_cap_mb: int | None = DEFAULT_MEMORY_CAP_MB,
        network_namespace: bool = True,
        chromium_user: str | None = DEFAULT_USER,
    ) -> None:
        if browsers < 1 or pages_per_browser < 1:
            raise ValueError("browsers and pages_per_browser must be at least 1")
        if timeout_s <= 0 or max_height < 1 or recycle_after < 1:
            raise ValueError("timeout_s, max_height and recycle_after must be positive")
        self.browsers = browsers
        self.pages_per_browser = pages_per_browser
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.timeout_s = float(timeout_s)
        self.recycle_after = recycle_after
        self.max_input_bytes = max_input_bytes
        self.max_dialogs = max_dialogs
        self.max_frames = max_frames
        self.infra_retries = infra_retries
        self.limits = CaptureLimits(
            max_height=max_height, max_dom_nodes=max_dom_nodes, max_elements=max_elements,
            max_canvas_bytes=memory_cap_mb << 20 if memory_cap_mb else None,
        )
        self.executable_path = executable_path
        self.assets = AssetStore(assets)
        self.memory_cap_mb = memory_cap_mb
        self.memory_cap: MemoryCap | None = None  # detected at the first launch
        self.network_namespace = network_namespace
        self.network: NetworkIsolation | None = None  # detected at start
        self.preferences: ChromiumPreferences | None = None
        self.chromium_user = chromium_user  # who Chromium runs as when the pool is root
        self.run_as: RunAs | None = None
        self.chromium_sandbox = False  # Chromium's own sandbox, on where it can be (start)
        self._sandbox_started = False  # once it has, a failed relaunch never turns it off
        self.stats = PoolStats()
        self._pw: Playwright | None = None
        self._handles: list[BrowserHandle] = []
        self._slots: list[Slot] = []
        self._owner: dict[int, BrowserHandle] = {}
        self._idle: asyncio.Queue[Slot] | None = None

    @property
    def size(self) -> int:
        """How many jobs can run at once."""
        return self.browsers * self.pages_per_browser

    # Lifecycle

    async def __aenter__(self) -> BrowserPool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def start(self) -> None:
        from playwright.async_api import async_playwright

        self.executable_path = find_chromium(self.executable_path)
        self.network = NetworkIsolation(self.network_namespace)
        self.preferences = ChromiumPreferences()
        self.run_as = RunAs.for_root(self.chromium_user)
        self.chromium_sandbox = own_sandbox_possible() or self.run_as is not None
        log.info("browser network isolation: %s; Chromium's own sandbox: %s",
                 self.network.mode, sandbox_mode(self.chromium_user))
        self._pw = await async_playwright().start()
        try:
            self._handles = [BrowserHandle(i) for i in range(self.browsers)]
            await asyncio.gather(*(self._launch(h) for h in self._handles))
            self._idle = asyncio.Queue()
            for handle in self._handles:
                for _ in range(self.pages_per_browser):
                    slot = Slot(
                        len(self._slots),
                        Router(self.assets),
                        max_dialogs=self.max_dialogs,
                        max_frames=self.max_frames,
                        timeout_s=self.timeout_s,
                    )
                    self._slots.append(slot)
                    self._owner[slot.index] = handle
            await asyncio.gather(*(self._prepare(s) for s in self._slots))
            for slot in self._slots:
                self._idle.put_nowait(slot)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        for handle in self._handles:
            browser, handle.browser = handle.browser, None
            if browser is None:
                continue
            try:
                await asyncio.wait_for(browser.close(), 5.0)
            except Exception:
                kill_browser(handle.marker)
        self._handles, self._slots, self._owner, self._idle = [], [], {}, None
        if self.memory_cap is not None:
            cap, self.memory_cap = self.memory_cap, None
            cap.close()  # removes the groups, killing any process a close left behind
        if self.network is not None:
            self.network.close()
        if self.preferences is not None:
            self.preferences.close()
        if self.run_as is not None:
            self.run_as.close()
        if self._pw is not None:
            pw, self._pw = self._pw, None
            try:
                await pw.stop()
            except Exception as exc:
                log.debug("playwright stop failed: %s", exc)

    # Rendering

    async def render(
        self, html: str | bytes, viewport: tuple[int, int] | None = None, full_page: bool = True
    ) -> RenderResult:
        """Render one page: the page's failures (timeout, crash, caps) come back as a
        result; a browser lost on every try raises ``InfrastructureError``."""
        text, error = check_input(html, self.max_input_bytes)
        if error is not None:
            return RenderResult.failure(error)
        started = time.monotonic()
        result = await self.retrying(lambda: self._render_once(text, viewport, full_page))
        result.seconds = time.monotonic() - started
        return result

    async def retrying(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """``await attempt()``, again while it raises ``BrowserLost`` (up to
        ``infra_retries`` more times); then ``InfrastructureError``."""
        for tries in range(1, self.infra_retries + 2):
            try:
                return await attempt()
            except BrowserLost as exc:
                lost = exc
                log.warning("try %d lost its browser (%s)", tries, exc)
                if tries <= self.infra_retries:
                    self.stats.infra_retries += 1
        raise InfrastructureError(f"the browser was lost on each of {tries} tries; "
                                  f"last: {lost}") from lost

    def page(self, html: str | bytes, viewport: tuple[int, int] | None = None) -> PageSession:
        """A page session (``session.PageSession``): ``async with session:`` loads ``html``
        on a sandboxed page held for it; ``session.evaluate``, ``click``, ``type`` and the
        rest drive it under the job's deadline, ``session.events`` is what the sandbox saw
        (dialogs, blocked requests, errors) and ``snapshot()`` renders it as it is now.
        Loading failures raise ``RenderError``.
        """
        return PageSession(self, html, viewport)

    async def _render_once(
        self, html: str, viewport: tuple[int, int] | None, full_page: bool
    ) -> RenderResult:
        async with PageLease(self) as lease:
            return await self._render_on(lease, html, viewport, full_page)

    async def _render_on(self, lease: PageLease, html: str, viewport: tuple[int, int] | None,
                         full_page: bool) -> RenderResult:
        """One render on a held page: the page's failures come back as the result."""
        job = await lease.begin(html, viewport)
        try:
            result = await lease.run(self._load_and_capture(lease.slot, job, full_page))
        except Exception as exc:
            result = lease.failed(exc)
        lease.finish(result.ok)
        return result

    def raise_if_lost(self, slot: Slot, cause: BaseException | None) -> None:
        """Raise ``BrowserLost`` if the browser ``slot``'s page lives in is gone (its
        job failing with it is the browser's doing, not the page's)."""
        handle = self._owner[slot.index]
        if handle.alive and handle.generation == slot.generation:
            return
        slot.poisoned = True
        reason = error_text(cause) if cause is not None else "the browser was relaunched"
        raise BrowserLost(f"browser_crashed: {reason}") from cause

    async def _begin(self, slot: Slot, html: str, viewport: tuple[int, int] | None,
                     *, driven: bool = False) -> Job:
        """Begin a job on ``slot``: a live context, and the job's document navigated to.
        ``driven``: the caller will drive the page (see ``Slot.begin``).

        The navigation replaces the previous job's document, whose unload handlers run
        then: if that fails on a used page, the fault is the previous job's, so the
        context is replaced and the navigation tried once more on a fresh page, with the
        job's own time limit. Raises ``BrowserLost`` when there is no page to be had.
        """
        want = (int(viewport[0]), int(viewport[1])) if viewport else self.viewport
        for attempt in range(2):
            try:
                await self._prepare_or_relaunch(slot)
            except Exception as exc:
                raise BrowserLost(f"browser_unavailable: {error_text(exc)}") from exc
            used = slot.renders > 0
            job = slot.begin(html, driven=driven)
            if await slot.enter(job, want, RESET_TIMEOUT_S if used else self.timeout_s):
                return job
            if not used or attempt == 1:
                break
            await self._discard_context(slot)
        raise BrowserLost("browser_unavailable: a fresh page would not navigate")

    async def _load_and_capture(self, slot: Slot, job: Job, full_page: bool) -> RenderResult:
        assert slot.cdp is not None
        world = await IsolatedWorld.create(slot.cdp, slot.frame_id)  # capturing waits for load
        assert slot.page is not None and slot.cdp is not None
        return await capture_page(
            slot.page, slot.cdp, job.events, self.limits, full_page=full_page, world=world
        )

    def _check_input(self, html: str | bytes) -> tuple[str, str | None]:
        return check_input(html, self.max_input_bytes)

    def _failure(self, slot: Slot, job: Job, exc: BaseException) -> dict:
        """Why the job failed, as ``RenderResult`` fields; ``BrowserLost`` if it failed
        because the browser it began in was lost for another reason."""
        slot.poisoned = True
        handle = self._owner[slot.index]
        if ((job.events.crashed or not handle.alive) and self.memory_cap is not None
                and self.memory_cap.take_oom_kill(str(handle.index))):
            return over_cap("memory")  # the kernel killed it over the cap
        self.raise_if_lost(slot, exc)
        if isinstance(exc, JobAborted):
            return {"error": str(exc)}
        if isinstance(exc, TimeoutError) or type(exc).__name__ == "TimeoutError":
            return {"timed_out": True, "error": "timeout"}
        if job.events.crashed:
            return {"error": "page_crashed"}
        return {"error": f"render_failed: {error_text(exc)}"}

    # Slots and browsers. A lease (``lease.PageLease``) takes, begins, classifies and returns
    # pages through these; nothing else outside the pool does.

    async def _acquire(self) -> Slot:
        if self._idle is None:
            raise RuntimeError("BrowserPool is not started: use `async with BrowserPool() as pool`")
        return await self._idle.get()

    async def _release(self, slot: Slot) -> None:
        """Reset a healthy slot; close a failed one at once (frees a spinning renderer)."""
        try:
            if not await slot.reset():
                await self._discard_context(slot)
        finally:
            if self._idle is not None:
                self._idle.put_nowait(slot)

    async def _discard_context(self, slot: Slot) -> None:
        if slot.context is None:
            return
        self.stats.context_recycles += 1
        handle = self._owner[slot.index]
        live = handle.alive and slot.generation == handle.generation
        if not await slot.close() and live:
            await self._kill(handle)  # it did not answer: hung

    async def _prepare(self, slot: Slot) -> None:
        """Give the slot a live context in a live browser, recycling it when due."""
        handle = self._owner[slot.index]
        stale = slot.generation != handle.generation or not handle.alive
        if slot.context is not None and (
            stale or slot.poisoned or slot.renders >= self.recycle_after
        ):
            await self._discard_context(slot)
        if slot.context is None:
            async with handle.lock:
                if not handle.alive:
                    await self._launch(handle)
            assert handle.browser is not None
            await slot.open(handle.browser, handle.generation, self.viewport)

    async def _prepare_or_relaunch(self, slot: Slot) -> None:
        try:
            await asyncio.wait_for(self._prepare(slot), PREPARE_TIMEOUT_S)
        except Exception as exc:
            log.warning("slot %d could not open a page (%r); relaunching its browser", slot.index, exc)
            await self._kill(self._owner[slot.index])
            slot.context = slot.page = slot.cdp = None
            await asyncio.wait_for(self._prepare(slot), LAUNCH_TIMEOUT_S)

    async def _launch(self, handle: BrowserHandle) -> None:
        assert self._pw is not None
        if self.memory_cap is None and self.memory_cap_mb:
            self.memory_cap = MemoryCap.detect(self.memory_cap_mb << 20)
        wrappers = [w for w in (self.run_as, self.preferences, self.network) if w is not None]
        self.chromium_sandbox = await launch_browser(
            self._pw, handle, self.executable_path, wrappers, self.memory_cap,
            self.chromium_sandbox, fall_back=not self._sandbox_started)
        self._sandbox_started |= self.chromium_sandbox
        self.stats.browser_launches += 1

    async def _kill(self, handle: BrowserHandle) -> None:
        """A browser that does not answer: kill its processes; the next job relaunches it."""
        log.warning("killing unresponsive browser %d", handle.index)
        kill_browser(handle.marker)
        handle.browser = None
        self.stats.browser_kills += 1
