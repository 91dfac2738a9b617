"""``PageLease``: one pool page held for one job, the one way to hold a page.

    async with PageLease(pool) as lease:               # acquire; release on the way out
        job = await lease.begin(html, viewport)        # the job's document, sandboxed
        try:
            result = await lease.run(work)             # under the job's deadline
        except Exception as exc:
            result = lease.failed(exc)                 # the failure, as a RenderResult
        lease.finish(result.ok)

``BrowserPool.render`` and page sessions (``BrowserPool.page``) both run their jobs this
way, so acquiring, beginning, the deadline, telling the page's failures from the
browser's, releasing and counting happen once. A lease is the pool's own part: it is
the only code besides the pool that takes, begins and returns its pages.

``begin`` and ``failed`` raise ``BrowserLost`` when the browser went away for a reason not
the job's: run the whole job again (``pool.retrying``). The pool's stats count each job
that ran (``renders``) and each that failed the page's way (``failures``); a try lost with
its browser is neither.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

from designrl.render.capture import result_from_events
from designrl.render.job_deadline import run_job
from designrl.render.types import BrowserLost, RenderResult

if TYPE_CHECKING:
    from designrl.render.pool import BrowserPool
    from designrl.render.sandbox import Job
    from designrl.render.slot import Slot

T = TypeVar("T")


class PageLease:
    def __init__(self, pool: BrowserPool) -> None:
        self.pool = pool
        self.slot: Slot | None = None
        self.job: Job | None = None
        self._ok = True
        self._lost = False

    async def __aenter__(self) -> PageLease:
        return await self.acquire()

    async def __aexit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.finish(False)  # the page may be stuck in whatever failed
        await self.release()

    async def acquire(self) -> PageLease:
        """Wait for a free page of the pool."""
        self.slot = await self.pool._acquire()
        return self

    async def begin(self, html: str, viewport: tuple[int, int] | None = None, *,
                    driven: bool = False) -> Job:
        """Navigate the page to the job's document (``driven``: the caller will drive it
        with the mouse and keys). Raises ``BrowserLost`` when no page is to be had."""
        assert self.slot is not None, "acquire the lease first"
        try:
            self.job = await self.pool._begin(self.slot, html, viewport, driven=driven)
        except BrowserLost:
            self._lost = True
            raise
        return self.job

    async def run(self, work: Awaitable[T], timeout_s: float | None = None) -> T:
        """``await work`` under the job's deadline (``timeout_s``, by default the pool's):
        ``JobAborted`` when the page ends the job first (a dialog flood, a crash),
        ``TimeoutError`` when it does not finish in time."""
        assert self.job is not None, "begin a job first"
        return await run_job(self.job, work, self.pool.timeout_s if timeout_s is None
                             else timeout_s)

    def failure(self, exc: BaseException) -> dict:
        """Why the job failed, as ``RenderResult`` fields (the page is recycled after it);
        ``BrowserLost`` when it failed because its browser went away for another reason."""
        assert self.slot is not None and self.job is not None
        self._ok = False
        try:
            return self.pool._failure(self.slot, self.job, exc)
        except BrowserLost:
            self._lost = True
            raise

    def failed(self, exc: BaseException, **fields) -> RenderResult:
        """The failed job's result: what the sandbox saw, and why it failed."""
        return result_from_events(self.job.events, **{**self.failure(exc), **fields})

    def raise_if_lost(self, cause: BaseException | None = None) -> None:
        """``BrowserLost`` when the page's browser is gone: what the job saw was not the
        page's doing."""
        assert self.slot is not None
        try:
            self.pool.raise_if_lost(self.slot, cause)
        except BrowserLost:
            self._lost = True
            raise

    def finish(self, ok: bool) -> None:
        """Record how the job went; a failed one's page is recycled rather than reused."""
        if not ok:
            self._ok = False
            if self.slot is not None:
                self.slot.poisoned = True

    async def release(self) -> None:
        """Count the job, then reset the page (or recycle it) and hand it back."""
        slot, self.slot = self.slot, None
        if slot is None:
            return
        slot.renders += 1
        if self.job is not None and not self._lost:
            self.pool.stats.renders += 1
            self.pool.stats.failures += 0 if self._ok else 1
        await self.pool._release(slot)
