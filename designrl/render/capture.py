"""Reading a loaded page into a RenderResult: node count, DOM facts, clipped screenshot."""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from designrl.render.dom import CAPTURE_JS, COUNT_NODES_JS, MAX_TEXT_BLOCKS, parse_dom_facts
from designrl.render.events import PageEvents
from designrl.render.isolated import IsolatedWorld
from designrl.render.types import RESOURCE_EXCEEDED, RenderResult, over_cap

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page


@dataclass(frozen=True)
class CaptureLimits:
    max_height: int
    max_dom_nodes: int
    max_elements: int
    # Canvases asking for more pixel memory end ``resource_exceeded``, even past the area
    # Chromium backs at all (2^28 px; such a canvas gets no pixels and would render blank).
    max_canvas_bytes: int | None = None


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return (0, 0)
    width, height = struct.unpack(">II", png[16:24])
    return (int(width), int(height))


def result_from_events(events: PageEvents, **fields) -> RenderResult:
    """The job's result: ``fields`` with what the sandbox saw. A cap the page reported
    going over (its job aborted, or finishing as the report came) is the outcome."""
    if events.exceeded is not None and fields.get("error") in (None, RESOURCE_EXCEEDED):
        fields = {"dom_nodes": fields.get("dom_nodes", 0),
                  **over_cap(fields.get("exceeded") or events.exceeded)}
    return RenderResult(
        console_errors=list(events.console_errors),
        page_errors=list(events.page_errors),
        blocked_requests=list(events.blocked_requests),
        served_requests=list(events.served_requests),
        refused_navigations=list(events.refused_navigations),
        dialogs=events.dialogs,
        popups=events.popups,
        downloads=events.downloads,
        **fields,
    )


# The renderer's counter holds nodes of every kind (text, comments, documents) and
# detached ones a script keeps: a page at the element cap holds about twice as many.
RENDERER_NODES_PER_ELEMENT = 4


async def count_nodes(world: IsolatedWorld, cap: int) -> int:
    """Elements across the document, its frames and open shadow roots (stops past ``cap``)."""
    return int(await world.call(COUNT_NODES_JS, cap))


async def renderer_nodes(cdp: CDPSession, cap: int) -> int | None:
    """The renderer's live DOM nodes if they exceed ``RENDERER_NODES_PER_ELEMENT * cap``.

    Counts what ``count_nodes`` cannot reach: closed shadow roots, opaque (``data:``)
    frames, nodes a script holds detached. A context has a renderer of its own, so the
    count is this page's; garbage of earlier documents is collected before it is believed.
    """
    limit = RENDERER_NODES_PER_ELEMENT * cap
    counters = await cdp.send("Memory.getDOMCounters")
    if int(counters.get("nodes", 0)) <= limit:
        return None
    await cdp.send("HeapProfiler.collectGarbage")
    nodes = int((await cdp.send("Memory.getDOMCounters")).get("nodes", 0))
    return nodes if nodes > limit else None


async def capture_page(
    page: Page,
    cdp: CDPSession,
    events: PageEvents,
    limits: CaptureLimits,
    *,
    full_page: bool = True,
    world: IsolatedWorld | None = None,
) -> RenderResult:
    """Count nodes (over the cap: ``resource_exceeded``), settle, read DOM facts, screenshot.

    Elements are counted in every frame and open shadow root before anything needs
    layout, so a huge DOM fails fast; the renderer's node counter backs that count up
    (``renderer_nodes``), and ``dom_nodes`` is then the renderer's count. The
    full-page screenshot is clipped to the viewport width and ``max_height``.
    ``world`` is the isolated world the page was loaded with, if it is still the
    current document's (saves making another). The reading is one evaluate and the
    screenshot one CDP call: per-job round trips are most of a reused page's cost.
    """
    arg = {
        "maxNodes": limits.max_dom_nodes,
        "maxElements": limits.max_elements,
        "maxTextBlocks": MAX_TEXT_BLOCKS,
        "maxCanvasBytes": limits.max_canvas_bytes or 0,
    }
    if world is None:
        raw = await (await IsolatedWorld.create(cdp)).call(CAPTURE_JS, arg)
    else:
        try:
            raw = await world.call(CAPTURE_JS, arg)
        except Exception:  # its execution context went with the document: make a new one
            raw = await (await IsolatedWorld.create(cdp)).call(CAPTURE_JS, arg)
    nodes = int(raw.get("nodes") or 0)
    if "canvas_bytes" in raw:
        return result_from_events(events, **over_cap("canvas_memory", dom_nodes=nodes))
    if "facts" not in raw:
        return result_from_events(events, **over_cap("dom_nodes", dom_nodes=nodes))
    hidden = await renderer_nodes(cdp, limits.max_dom_nodes)
    if hidden is not None:
        return result_from_events(events, **over_cap("dom_nodes", dom_nodes=hidden))
    facts = parse_dom_facts(raw["facts"])
    viewport = page.viewport_size or {"width": 1280, "height": 800}
    page_height = int((raw.get("size") or {}).get("height") or 0)
    params: dict = {"format": "png", "optimizeForSpeed": True}
    if full_page:
        height = max(1, min(max(page_height, viewport["height"]), limits.max_height))
        # Beyond the viewport only when the page is taller (or scrolled): it resizes
        # the page's surface for the capture (a relayout and a new compositor frame).
        if height > viewport["height"] or raw.get("scrolled"):
            params["captureBeyondViewport"] = True
        params["clip"] = {"x": 0, "y": 0, "width": viewport["width"], "height": height,
                          "scale": 1}
    # Straight to CDP: faster PNG encoding (optimizeForSpeed) than page.screenshot.
    reply = await cdp.send("Page.captureScreenshot", params)
    png = base64.b64decode(reply["data"])
    width, height = png_size(png)
    return result_from_events(
        events,
        png=png,
        width=width,
        height=height,
        text_blocks=facts.text_blocks,
        elements=facts.elements,
        dom_nodes=facts.dom_nodes,
        page_height=page_height,
    )
