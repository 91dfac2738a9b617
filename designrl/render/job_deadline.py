"""A render job's deadline: its work runs until done, until the job's time is up, or
until the page aborts the job (a dialog flood, a crash), whichever comes first."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from designrl.render.sandbox import Job

T = TypeVar("T")


class JobAborted(Exception):
    """The page did something that ends its job at once (dialog flood, crash)."""


async def run_job(job: Job, work: Awaitable[T], timeout_s: float) -> T:
    """``await work`` under the job deadline; ``JobAborted`` when the page aborts the job
    first, ``TimeoutError`` when the time runs out (``work`` is cancelled either way)."""
    task = asyncio.ensure_future(work)
    stop = asyncio.ensure_future(job.aborted.wait())
    try:
        done, _ = await asyncio.wait(
            {task, stop}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        stop.cancel()
        if not task.done():
            task.cancel()
    if task in done:
        return task.result()
    try:
        await task
    except BaseException:  # cancelled, or failed on the way out: the job is over either way
        pass
    if job.abort_reason is not None:
        raise JobAborted(job.abort_reason)
    raise TimeoutError(f"page did not render within {timeout_s:g}s")
