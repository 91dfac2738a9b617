"""The request router: the page's document and our assets are answered, everything else aborted.

The page is loaded from one of two origins (``http://a.designrl.page/`` and
``http://b.designrl.page/``, alternating per job, see ``Slot``) whose document we
fulfil ourselves, so relative references such as ``<img src="rick.jpg">``
resolve to our host and reach the asset store. No request is ever continued
to the network; only ``data:`` and ``blob:`` (local by definition) pass through.
A Worker's first script is ours too (``worker_script``): it caps the worker's console
before the page's script runs. What no route sees (SharedWorkers, a worker's WebSocket)
is refused in the page and reported on the console, and recorded here as blocked.
Chromium itself refuses ``file:`` subresources from an http page and says so on
the console; those messages are recorded as blocked requests too.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import unquote, urlsplit

from designrl.render.assets import AssetStore, content_type
from designrl.render.document_start import (
    CAP_EXCEEDED,
    NAVIGATION_REFUSED,
    REQUEST_REFUSED,
    worker_script,
)
from designrl.render.events import PageEvents
from designrl.render.types import RESOURCE_EXCEEDED

if TYPE_CHECKING:
    from playwright.async_api import Page, Route, WebSocketRoute

log = logging.getLogger(__name__)

PAGE_HOST = "designrl.page"
ASSET_HOST = "designrl.assets"
# Consecutive jobs on a page alternate between these documents: whatever the replaced
# document writes while it unloads lands in the other origin, which the next job cannot read.
PAGE_URLS = (f"http://a.{PAGE_HOST}/", f"http://b.{PAGE_HOST}/")
LOCAL_SCHEMES = ("data:", "blob:")
FILE_REFUSED = "Not allowed to load local resource: "
DATA_NAVIGATION_REFUSED = "Not allowed to navigate top frame to data URL: "

Action = Literal["document", "asset", "local", "block"]


def asset_url(name: str) -> str:
    """Where a page can load a packaged asset from, e.g. ``http://designrl.assets/rick.jpg``."""
    return f"http://{ASSET_HOST}/{name}"


def is_our_host(hostname: str | None) -> bool:
    return hostname is not None and (
        hostname in (PAGE_HOST, ASSET_HOST) or hostname.endswith("." + PAGE_HOST)
    )


def classify(url: str, *, navigation: bool, main_frame: bool, document_url: str | None) -> Action:
    """What the router does with one request. Pure, so the policy is testable without a browser.

    * the first main-frame navigation to the job's ``document_url`` gets the page's HTML
      (``document_url`` is None once it has been served);
    * any other main-frame navigation (meta refresh, ``location=``, reload, a ``blob:``
      document of the page's making) is blocked, so the page can never be replaced;
    * requests to our two hosts are answered from the asset store (404 when unknown);
    * ``data:``/``blob:`` subresources and frames pass; everything else (other hosts,
      ``file:``, ``ws:``) is blocked.
    """
    if navigation and main_frame:
        return "document" if url == document_url else "block"
    if url.startswith(LOCAL_SCHEMES):
        return "local"
    parts = urlsplit(url)
    ours = parts.scheme in ("http", "https") and is_our_host(parts.hostname)
    return "asset" if ours else "block"


# Anything that lets a document run script without being clicked: a script element, an
# event handler attribute, a frame or plugin (a data: or srcdoc document may hold script in
# a form no pattern sees), a refresh. Over-matching costs a blank navigation, nothing more.
_MAY_RUN_SCRIPT = re.compile(
    r"<\s*script|<\s*(?:iframe|frame|object|embed|portal|fencedframe)\b"
    r"|[\s/\"'`]on[a-z]+\s*=|http-equiv\s*=\s*[\"']?\s*refresh",
    re.IGNORECASE,
)


def may_run_script(html: str) -> bool:
    """Whether a document could still act after its job (timers, unload handlers, workers).

    Conservative: a False means it has nothing that runs on its own, so ending its job
    needs no more than stopping script; a True means the page is blanked after the job.
    """
    return _MAY_RUN_SCRIPT.search(html) is not None


@dataclass
class Job:
    """The page one slot is serving now; the router answers for it until it is cleared."""

    html: str
    page: Page
    url: str
    events: PageEvents = field(default_factory=PageEvents)
    document_served: bool = False
    entered: bool = False
    """The job's document has committed: from here on, events on the page are the job's.
    Before that they come from the document it replaces (its timers and unload handlers)."""
    documents: int = 0  # main-frame documents committed since the job's own (included)
    frames: int = 0  # frames attached under the job's document, nested ones included
    abort_reason: str | None = None
    aborted: asyncio.Event = field(default_factory=asyncio.Event)

    def abort(self, reason: str) -> None:
        """End the job early (dialog flood, crash) instead of waiting out its deadline."""
        if self.abort_reason is None:
            self.abort_reason = reason
            self.aborted.set()


class Router:
    """Routes for one browser context. ``job`` is swapped per render; with no job, all is blocked.

    Requests are recorded only once the job's document has committed (``Job.entered``):
    before that, anything but the document itself is the replaced document's doing.
    """

    def __init__(self, assets: AssetStore) -> None:
        self.assets = assets
        self.job: Job | None = None

    @property
    def live_job(self) -> Job | None:
        """The job whose document is on the page now, if any: the one events belong to."""
        job = self.job
        return job if job is not None and job.entered else None

    async def handle(self, route: Route) -> None:
        request = route.request
        job = self.job
        url = request.url
        navigation = request.is_navigation_request()
        main_frame = new_window = False
        if job is not None and navigation:
            try:
                main_frame = request.frame == job.page.main_frame
            except Exception:
                # No frame yet: a new window's first navigation (window.open). Playwright
                # creates the popup's page (and counts it) only if this is answered.
                new_window = True
        action = classify(
            url,
            navigation=navigation,
            main_frame=main_frame,
            document_url=None if job is None or job.document_served else job.url,
        )
        try:
            if action == "document" and job is not None:
                job.document_served = True
                job.events.served(url)
                await route.fulfill(
                    status=200, body=job.html, content_type="text/html; charset=utf-8"
                )
            elif action == "asset":
                script = worker_script(url)
                body = self.assets.get(unquote(urlsplit(url).path)) if script is None else None
                if job is not None and job.entered:
                    job.events.served(url)
                if script is not None:  # a worker's first script: its guards, then the page's
                    await route.fulfill(status=200, body=script, content_type="text/javascript")
                elif body is None:
                    await route.fulfill(status=404, body="", content_type="text/plain")
                else:
                    await route.fulfill(status=200, body=body, content_type=content_type(url))
            elif action == "local":
                await route.continue_()
            else:
                if job is not None and job.entered:
                    job.events.blocked(url)
                    if main_frame:
                        job.events.navigation_refused(url)
                    if new_window:
                        job.events.popup(id(request))
                # "aborted" cancels a navigation without committing an error page in its place.
                await route.abort("aborted" if navigation else "blockedbyclient")
        except Exception as exc:  # the page may be closing under us; nothing left to answer
            log.debug("route for %s not answered: %s", url[:200], exc)

    async def handle_websocket(self, ws: WebSocketRoute) -> None:
        """WebSockets never connect: record and close without reaching any server."""
        if self.live_job is not None:
            self.live_job.events.blocked(ws.url)
        try:
            await ws.close(code=1008, reason="blocked by sandbox")
        except Exception as exc:
            log.debug("websocket close failed: %s", exc)

    def on_console(self, message) -> None:
        job = self.live_job
        if job is None or message.type not in ("error", "debug"):
            return
        text = message.text
        if message.type == "debug":
            if text.startswith(NAVIGATION_REFUSED):
                job.events.navigation_refused(text[len(NAVIGATION_REFUSED):])
            elif text.startswith(REQUEST_REFUSED):  # a SharedWorker, a worker's WebSocket
                job.events.blocked(text[len(REQUEST_REFUSED):])
            elif text.startswith(CAP_EXCEEDED):
                job.events.exceed(text[len(CAP_EXCEEDED):])
                job.abort(RESOURCE_EXCEEDED)
            return
        job.events.console_error(text)
        if text.startswith(DATA_NAVIGATION_REFUSED):  # Chromium's own refusal
            job.events.navigation_refused(text[len(DATA_NAVIGATION_REFUSED):].strip())
        if text.startswith(FILE_REFUSED):
            job.events.blocked(text[len(FILE_REFUSED) :].strip())
