"""Guards on calls into an untrusted page: a call the page does not answer in time, or one
it ends with a dialog flood or a crash, raises ``PageHung`` (the caller leaves the page,
and the pool recycles it). The page session's calls enforce the limits (each runs under
the job's deadline); this names the outcome the way the webpage reward records it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

from designrl.render.job_deadline import JobAborted

if TYPE_CHECKING:
    from designrl.tasks.webpage.interaction_records import Interactions

POLL_S = 0.05  # how often a wait for the page's response looks again
T = TypeVar("T")


class PageHung(Exception):
    """The page stopped answering (or turned hostile) during the checks; ``reason`` says how."""

    def __init__(self, reason: str, interactions: Interactions | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.interactions = interactions


async def guarded(call: Awaitable[T]) -> T:
    """Await a page session's call; ``PageHung`` names why the page did not answer:
    ``timeout``, or what ended its job (``too_many_dialogs``, ``page_crashed``)."""
    try:
        return await call
    except JobAborted as exc:
        raise PageHung(str(exc)) from exc
    except TimeoutError as exc:
        raise PageHung("timeout") from exc
