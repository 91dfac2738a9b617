"""One reusable page: its own browser context, page, CDP session and request router.

A slot serves one job at a time. After a failure, or every ``recycle_after``
jobs, its context is closed and a fresh one opened. Ending a job:

* always stops script on its document (its timers stop) and clears the storage of
  both page origins;
* if the document could run script (``may_run_script``: a script, a handler
  attribute, a frame; or the caller drove it in a page session, where a click can
  start script the HTML does not show), replaces it with about:blank while script is
  off, so its
  unload handlers never run and whatever it started ends with it; if it has a
  Worker or SharedWorker, closes the context instead (Chromium lets a busy worker
  run 2 s after its document goes; a closed context's renderer ends at once).
  A document with no script is left in place: blanking costs a document load.

The next job navigates to its own document, in the other origin of ``PAGE_URLS``.
Events (console, page errors, dialogs, popups, downloads, requests) count for a
job only once its document has committed (``Job.entered``): Playwright reports the
commit after whatever the replaced document did on the way out. Cookies are off
for documents (``document.cookie`` is disabled, and we never send ``Set-Cookie``),
so nothing is shared across the two origins; ``window.name`` is blanked at
document start.

A previous document that hangs or crashes while being replaced fails that
navigation: ``enter`` then reports False and the pool retries on a fresh
context, so the new job is not blamed. Events from a finished job are dropped
because the router's job is cleared first.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from designrl.render.document_start import DOCUMENT_START_JS
from designrl.render.isolated import main_frame_id
from designrl.render.sandbox import PAGE_URLS, Job, Router, may_run_script

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        CDPSession,
        Dialog,
        Download,
        Frame,
        Page,
    )

log = logging.getLogger(__name__)

BLANK_URL = "about:blank"
WORKER_TARGETS = [{"type": "worker"}, {"type": "shared_worker"}]
RESET_TIMEOUT_S = 3.0  # ending a job, or replacing the previous job's document
CLOSE_TIMEOUT_S = 3.0


async def _quietly(coro) -> None:
    try:
        await coro
    except Exception as exc:  # the page or context may already be gone
        log.debug("page event follow-up failed: %s", exc)


class Slot:
    def __init__(self, index: int, router: Router, *, max_dialogs: int, max_frames: int,
                 timeout_s: float) -> None:
        self.index = index
        self.router = router
        self.max_dialogs = max_dialogs
        self.max_frames = max_frames
        self.timeout_s = timeout_s
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self.cdp: CDPSession | None = None
        self.frame_id: str | None = None  # the main frame's, the same for every document
        self.viewport: tuple[int, int] | None = None
        self.generation = -1  # the browser generation this context lives in
        self.renders = 0  # jobs in this context
        self.jobs = 0  # jobs ever begun, whose parity picks the page origin
        self.poisoned = False
        self.scripted = False  # whether the current job's document may run script
        self.driven = False  # whether the current job's caller drove the page (mouse, keys)
        self.context_id: str | None = None  # Chromium's id of the browser context
        self._tasks: set[asyncio.Task] = set()

    async def open(self, browser: Browser, generation: int, viewport: tuple[int, int]) -> None:
        context = await browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            accept_downloads=False,
            service_workers="block",
        )
        context.set_default_timeout(self.timeout_s * 1000)
        context.set_default_navigation_timeout(self.timeout_s * 1000)
        await context.route("**/*", self.router.handle)
        await context.route_web_socket("**/*", self.router.handle_websocket)
        await context.add_init_script(DOCUMENT_START_JS)
        page = await context.new_page()
        page.on("dialog", self._on_dialog)
        page.on("console", self.router.on_console)
        page.on("pageerror", self._on_page_error)
        page.on("download", self._on_download)
        page.on("crash", self._on_crash)
        page.on("framenavigated", self._on_frame_navigated)
        context.on("page", self._on_new_page)
        self.cdp = await context.new_cdp_session(page)
        await self.cdp.send("Emulation.setDocumentCookieDisabled", {"disabled": True})
        self.cdp.on("Page.frameNavigated", self._on_document)
        self.cdp.on("Page.frameAttached", self._on_frame_attached)
        await self.cdp.send("Page.enable")  # for the commits of new documents only
        self.frame_id = await main_frame_id(self.cdp)
        info = await self.cdp.send("Target.getTargetInfo")
        self.context_id = info["targetInfo"].get("browserContextId")
        self.context, self.page = context, page
        self.viewport = viewport
        self.generation = generation
        self.renders = 0
        self.poisoned = False

    def begin(self, html: str, *, driven: bool = False) -> Job:
        """``driven``: the caller will drive the page (a ``pool.page()`` lease)."""
        assert self.page is not None
        self.jobs += 1
        job = Job(html=html, page=self.page, url=PAGE_URLS[self.jobs % 2])
        self.router.job = job
        self.scripted = driven or may_run_script(html)
        self.driven = driven
        return job

    async def enter(self, job: Job, viewport: tuple[int, int], limit_s: float) -> bool:
        """Navigate to the job's document until it commits; False if the page would not."""
        try:
            await asyncio.wait_for(self._enter(job, viewport), limit_s)
            return True
        except Exception as exc:
            log.debug("slot %d could not open its next document: %s", self.index, exc)
            self.poisoned = True
            return False

    async def _enter(self, job: Job, viewport: tuple[int, int]) -> None:
        assert self.page is not None and self.cdp is not None
        if viewport != self.viewport:
            await self.page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
            self.viewport = viewport
        await self.cdp.send("Emulation.setScriptExecutionDisabled", {"value": False})
        await self.page.goto(job.url, wait_until="commit")
        job.entered = True  # already set by the commit's event, which Playwright sends first

    async def reset(self) -> bool:
        """Stop the last job's page and forget its state; False if the page would not."""
        self.router.job = None
        scripted, self.scripted = self.scripted, False
        driven, self.driven = self.driven, False
        if self.poisoned or self.page is None or self.context is None:
            return False
        try:
            return await asyncio.wait_for(self._reset(scripted, driven), RESET_TIMEOUT_S)
        except Exception as exc:
            log.debug("slot %d reset failed: %s", self.index, exc)
            self.poisoned = True
            return False

    async def _reset(self, scripted: bool, driven: bool) -> bool:
        assert self.cdp is not None and self.page is not None
        await self.cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
        if driven:  # the mouse stays where the caller left it: the next page would be hovered
            await self.page.mouse.move(-1, -1)
        if not scripted:
            await self._clear_storage()
            return True
        if await self._has_workers():
            # Chromium gives a busy worker 2 s to stop after its document goes: closing the
            # context ends its renderer process, and the workers in it, at once.
            self.poisoned = True
            return False
        # Replaced with script off, the document runs none of its unload handlers, and its
        # timers and SharedWorkers (their last client gone) end with it. The reply comes
        # once about:blank has committed.
        await self.cdp.send("Page.navigate", {"url": BLANK_URL})
        await self._clear_storage()
        return True

    async def _has_workers(self) -> bool:
        """Whether any Worker or SharedWorker of this context is alive (script has stopped)."""
        assert self.cdp is not None
        reply = await self.cdp.send("Target.getTargets", {"filter": WORKER_TARGETS})
        return any(t.get("browserContextId") == self.context_id for t in reply["targetInfos"])

    async def _clear_storage(self) -> None:
        assert self.cdp is not None
        await asyncio.gather(*(
            self.cdp.send(
                "Storage.clearDataForOrigin", {"origin": url.rstrip("/"), "storageTypes": "all"}
            )
            for url in PAGE_URLS
        ))

    async def close(self) -> bool:
        """Close the context; False when the browser did not answer in time (it is hung)."""
        self.router.job = None
        context, self.context, self.page, self.cdp = self.context, None, None, None
        for task in list(self._tasks):
            task.cancel()
        if context is None:
            return True
        try:
            await asyncio.wait_for(context.close(), CLOSE_TIMEOUT_S)
            return True
        except Exception as exc:
            log.debug("slot %d context close failed: %s", self.index, exc)
            return False

    # Page events. Handlers are synchronous; async follow-ups are tracked tasks.

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(_quietly(coro))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_dialog(self, dialog: Dialog) -> None:
        # Every dialog is dismissed; past max_dialogs the job ends as a dialog flood (an
        # alert loop would otherwise run to the deadline: while a dialog is open, script
        # termination does not reach the page).
        job = self.router.live_job
        if job is not None and dialog.type != "beforeunload":  # the previous page's, if any
            job.events.dialogs += 1
            if job.events.dialogs > self.max_dialogs:
                self.poisoned = True
                job.abort("too_many_dialogs")
        # Leaving the page is the answer to "leave site?": a dismissed beforeunload would
        # cancel the next job's navigation.
        self._spawn(dialog.accept() if dialog.type == "beforeunload" else dialog.dismiss())

    def _on_page_error(self, error) -> None:
        if self.router.live_job is not None:
            self.router.live_job.events.page_error(str(error))

    def _on_download(self, download: Download) -> None:
        if self.router.live_job is not None:
            self.router.live_job.events.downloads += 1
        self._spawn(download.cancel())

    def _on_frame_navigated(self, frame: Frame) -> None:
        # The job's document has committed; what the replaced one did while it unloaded
        # (pagehide, unload, a last timer) was reported before this event, and dropped.
        job = self.router.job
        if job is not None and not job.entered and frame.parent_frame is None \
                and frame.url == job.url:
            job.entered = True

    def _on_document(self, params: dict) -> None:
        # A new document committed in a frame (same-document navigations are reported
        # apart). In the main frame, once the job's own document is in, another replaced
        # it past the router and the document guard, so the page measured would not be
        # the page served: the job ends. Commits before it (the last job's blank, reported
        # late) are not the job's.
        frame = params.get("frame") or {}
        job = self.router.job
        if job is None or frame.get("parentId"):
            return
        if job.documents == 0 and frame.get("url") != job.url:
            return
        job.documents += 1
        if job.documents > 1:
            job.events.navigation_refused(str(frame.get("url", "")))
            job.abort("navigated_away")

    def _on_frame_attached(self, params: dict) -> None:
        # Every frame costs the whole browser (its process and compositor build and
        # draw it): past max_frames the job ends at once, before 2,000 iframes stall the
        # pages beside it. Blink's own cap is 1,000 per page.
        job = self.router.live_job
        if job is not None:
            job.frames += 1
            if job.frames > self.max_frames:
                self.poisoned = True
                job.abort("too_many_frames")

    def _on_crash(self, page: Page) -> None:
        if self.router.job is not None:
            self.router.job.events.crashed = True
            self.router.job.abort("page_crashed")
        self.poisoned = True

    def _on_new_page(self, page: Page) -> None:
        if page is self.page:
            return
        if self.router.live_job is not None:
            self.router.live_job.events.popup(id(page))
        # Its refusals and caps are the job's, those that arrive before it is closed.
        page.on("console", self.router.on_console)
        self._spawn(page.close())
