"""What a render returns: the screenshot, the page's text and boxes, and what the sandbox saw.

These are the types every browser-scored family (html, svg, webpage) reads, so the
names and fields are a contract: add fields, never rename them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BBox = tuple[float, float, float, float]
"""(x, y, width, height) in CSS pixels, page coordinates (scroll offset added)."""

RGB = tuple[int, int, int]

RESOURCE_EXCEEDED = "resource_exceeded"


def over_cap(resource: str, **fields) -> dict:
    """``RenderResult`` fields for a page that went over the cap on ``resource``."""
    return {"error": RESOURCE_EXCEEDED, "exceeded": resource, **fields}


@dataclass(frozen=True)
class TextBlock:
    """The visible text directly inside one element, with how it is drawn.

    ``background`` is the colour behind the text: the nearest opaque ancestor
    background (translucent layers in between blended over it), or white.
    """

    text: str
    bbox: BBox
    color: RGB
    background: RGB
    font_size: float
    font_weight: int


@dataclass(frozen=True)
class ElementBox:
    """A visible element's box; ``parent`` indexes the nearest listed ancestor, or -1."""

    tag: str
    bbox: BBox
    depth: int
    parent: int


class InfrastructureError(RuntimeError):
    """The pool could not render for a reason outside the page, on every try: its browser
    was killed, crashed or would not start. Not an outcome of the design, so never a
    score: an episode that meets it ends ``infra_error``, with no reward."""


class BrowserLost(InfrastructureError):
    """One try lost its browser (killed from outside, or for a neighbour's fault, or it
    would not start or navigate); ``BrowserPool.retrying`` runs the work again."""


@dataclass
class RenderResult:
    """One render of one page: a scored outcome, never an exception.

    ``error`` names why the page failed (``timeout``, ``resource_exceeded``,
    ``input_too_large``, ``input_not_text``, ``too_many_dialogs``, ``too_many_frames``,
    ``navigated_away``, ``page_crashed``, ``render_failed: ...``); ``png`` is then empty.
    ``resource_exceeded``: the page went over one of the caps, named by ``exceeded``.
    ``page_crashed`` is any other crash (in the ``v8-heap`` cap mode, a JS heap over its
    bound too). A browser lost under the page (killed from
    outside, crashed, would not start) is not the page's failure: the pool renders it
    again on a fresh page and, if that keeps failing, raises ``InfrastructureError``
    instead of returning a result.
    Sandbox events (blocked requests, dialogs, popups, downloads) are recorded
    whether the page succeeded or not. ``blocked_requests`` also lists what was refused
    before any request (a SharedWorker's script, a Worker's WebSocket, a Worker started
    in a Worker, WebTransport), by the URL it would have used. ``dom_nodes`` counts elements across the
    document, its frames and open shadow roots; for a DOM cap found by the renderer's own
    counter (closed shadow roots, ``data:`` frames) it is that count.
    """

    png: bytes = b""
    width: int = 0
    height: int = 0
    text_blocks: list[TextBlock] = field(default_factory=list)
    elements: list[ElementBox] = field(default_factory=list)
    dom_nodes: int = 0
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    blocked_requests: list[str] = field(default_factory=list)
    dialogs: int = 0
    timed_out: bool = False
    error: str | None = None
    seconds: float = 0.0
    # Added beyond the shared contract.
    served_requests: list[str] = field(default_factory=list)
    """Every URL the sandbox answered itself (the page document and packaged assets)."""
    refused_navigations: list[str] = field(default_factory=list)
    """Top-frame navigations the page started and the sandbox refused (the page stayed):
    ``location=``, reload, refresh, a ``blob:`` document. Also in ``blocked_requests``.
    One that cannot be refused (``about:blank``, a ``javascript:`` document) ends the
    job as ``navigated_away``."""
    popups: int = 0
    downloads: int = 0
    page_height: int = 0
    """Full document height in CSS px before the ``max_height`` clip."""
    exceeded: str | None = None
    """The cap a ``resource_exceeded`` page went over: ``memory`` (the browser's, for all
    its processes; the kernel ended the renderer), ``dom_nodes`` (elements across frames
    and shadow roots), ``canvas_memory`` (pixels canvases ask for) or ``console_payload``
    (one console argument or uncaught error over ``PAYLOAD_EXCEEDED`` characters, in the
    page or in one of its Workers)."""

    @property
    def ok(self) -> bool:
        return self.error is None and not self.timed_out

    @classmethod
    def failure(cls, error: str, *, seconds: float = 0.0, timed_out: bool = False) -> RenderResult:
        return cls(error=error, seconds=seconds, timed_out=timed_out)


@dataclass
class PoolStats:
    renders: int = 0
    failures: int = 0
    context_recycles: int = 0
    browser_launches: int = 0
    browser_kills: int = 0
    infra_retries: int = 0  # jobs run again because their browser was lost under them


def check_input(html: str | bytes, max_input_bytes: int) -> tuple[str, str | None]:
    """``(text, None)`` for a page the pool may render, else ``("", error)``:
    ``input_too_large`` over ``max_input_bytes`` of UTF-8, ``input_not_text``."""
    if isinstance(html, bytes):
        if len(html) > max_input_bytes:
            return "", "input_too_large"
        html = html.decode("utf-8", errors="replace")
    if not isinstance(html, str):
        return "", "input_not_text"
    # Characters are at most 4 bytes: only encode when the length alone is not decisive.
    if len(html) > max_input_bytes or (
        4 * len(html) > max_input_bytes
        and len(html.encode("utf-8", errors="surrogatepass")) > max_input_bytes
    ):
        return "", "input_too_large"
    return html, None
