"""Reading a loaded page into a RenderResult: node count, DOM facts, clipped screenshot."""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from designrl.render.dom import (
    COUNT_NODES_JS,
    DOM_FACTS_JS,
    MAX_TEXT_BLOCKS,
    PAGE_SIZE_JS,
    SETTLE_JS,
    parse_dom_facts,
)
from designrl.render.events import PageEvents
from designrl.render.isolated import IsolatedWorld
from designrl.render.types import RenderResult

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page


@dataclass(frozen=True)
class CaptureLimits:
    max_height: int
    max_dom_nodes: int
    max_elements: int


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return (0, 0)
    width, height = struct.unpack(">II", png[16:24])
    return (int(width), int(height))


def result_from_events(events: PageEvents, **fields) -> RenderResult:
    return RenderResult(
        console_errors=list(events.console_errors),
        page_errors=list(events.page_errors),
        blocked_requests=list(events.blocked_requests),
        served_requests=list(events.served_requests),
        dialogs=events.dialogs,
        popups=events.popups,
        downloads=events.downloads,
        **fields,
    )


async def count_nodes(world: IsolatedWorld) -> int:
    return int(await world.call(COUNT_NODES_JS))


async def capture_page(
    page: Page,
    cdp: CDPSession,
    events: PageEvents,
    limits: CaptureLimits,
    *,
    full_page: bool = True,
) -> RenderResult:
    """Count nodes (over the cap: ``dom_too_large``), settle, read DOM facts, screenshot.

    Nodes are counted before anything needs layout, so a huge DOM fails fast. The
    full-page screenshot is clipped to the viewport width and ``max_height``.
    """
    world = await IsolatedWorld.create(cdp)
    nodes = await count_nodes(world)
    if nodes > limits.max_dom_nodes:
        return result_from_events(events, dom_nodes=nodes, error="dom_too_large")
    await world.call(SETTLE_JS)
    raw = await world.call(
        DOM_FACTS_JS, {"maxElements": limits.max_elements, "maxTextBlocks": MAX_TEXT_BLOCKS}
    )
    facts = parse_dom_facts(raw)
    size = await world.call(PAGE_SIZE_JS)
    viewport = page.viewport_size or {"width": 1280, "height": 800}
    page_height = int(size.get("height") or 0)
    params: dict = {"format": "png", "optimizeForSpeed": True}
    if full_page:
        height = max(1, min(max(page_height, viewport["height"]), limits.max_height))
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
