"""The browser part of the webpage reward: one lease of a pool page for the render, the
static facts (layout facts, axe, readable content) and the interactions, gathered into a
``PageRun`` that ``reward`` scores without a browser."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import numpy as np

from designrl.render.png import decode_png
from designrl.render.session import PageSession, RenderError
from designrl.render.types import InfrastructureError, RenderResult
from designrl.tasks.webpage.axe import AxeViolation, run_axe
from designrl.tasks.webpage.content import (
    PAGE_CONTENT_JS,
    PageContent,
    content_args,
    parse_page_content,
)
from designrl.tasks.webpage.facts import (
    LAYOUT_FACTS_JS,
    MAX_RECTS_PER_NODE,
    MAX_UNITS,
    LayoutFacts,
    parse_layout_facts,
)
from designrl.tasks.webpage.interact import Interactor
from designrl.tasks.webpage.interaction_records import Interactions
from designrl.tasks.webpage.page_guard import PageHung, guarded


@dataclass(frozen=True)
class PageChecks:
    """How a page is examined (``WebpageReward``'s settings): interactions tried, the cap
    on one step of one, the time after which none starts, how long a page may take to
    respond, and the cap on each static probe."""

    interaction_budget: int
    action_timeout_s: float
    interaction_time_s: float
    settle_s: float
    static_timeout_s: float


@dataclass
class PageRun:
    """What examining one page gathered (what failed, and how long each part took)."""

    render: RenderResult | None = None
    image: np.ndarray | None = None
    facts: LayoutFacts | None = None
    facts_error: str | None = None
    violations: list[AxeViolation] | None = None
    axe_error: str | None = None
    content: PageContent | None = None
    content_error: str | None = None
    load_errors: list[str] = field(default_factory=list)
    interactions: Interactions | None = None
    failure: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)


async def run_page(pool, html: str, checks: PageChecks) -> PageRun:
    """Lease a pool page for ``html`` and examine it: the render, then (if it rendered) the
    static facts, axe, the readable content and the interactions. A page that hangs is
    left by raising, so the pool recycles it; a lost browser raises ``InfrastructureError``."""
    run = PageRun()
    began = time.monotonic()
    session = pool.page(html)
    try:
        async with session:
            await _inspect(pool, session, run, checks)
    except RenderError as exc:
        run.render = exc.result
    except PageHung as exc:
        if run.interactions is None:
            run.interactions = exc.interactions or Interactions(stopped=exc.reason)
    except InfrastructureError:
        raise  # not the page's doing: never a score
    except Exception as exc:  # a Playwright or CDP failure mid-way: score what we have
        run.failure = f"{type(exc).__name__}: {str(exc)[:200]}"
    run.seconds["page"] = round(time.monotonic() - began, 3)
    return run


async def _inspect(pool, session: PageSession, run: PageRun, checks: PageChecks) -> None:
    t0 = time.monotonic()
    render = run.render = await session.snapshot()
    run.seconds["render"] = round(time.monotonic() - t0, 3)
    if not render.ok or not render.png:
        return
    run.load_errors = list(render.page_errors)
    run.image = await asyncio.to_thread(decode_png, render.png)
    t0 = time.monotonic()
    limit = checks.static_timeout_s

    async def probe(call, parse=lambda raw: raw):
        """One static probe under the page's guards: (result, None) or (None, why); a page
        that hung has its scripts stopped so the next probe can run."""
        try:
            return parse(await guarded(call)), None
        except Exception as exc:
            if isinstance(exc, PageHung):
                await session.stop_scripts()
            return None, f"{type(exc).__name__}: {str(exc)[:200]}"

    run.facts, run.facts_error = await probe(session.evaluate(LAYOUT_FACTS_JS, {
        "maxUnits": MAX_UNITS, "maxRects": MAX_RECTS_PER_NODE}, timeout_s=limit),
        parse_layout_facts)
    run.violations, run.axe_error = await probe(session.run(run_axe(session), limit))
    run.content, run.content_error = await probe(
        session.evaluate(PAGE_CONTENT_JS, content_args(), timeout_s=limit), parse_page_content)
    run.seconds["static"] = round(time.monotonic() - t0, 3)
    t0 = time.monotonic()
    interactor = Interactor(
        session, budget=checks.interaction_budget, action_timeout_s=checks.action_timeout_s,
        time_budget_s=checks.interaction_time_s, settle_s=checks.settle_s,
        max_dom_nodes=pool.limits.max_dom_nodes)
    try:
        run.interactions = await interactor.run()
    finally:
        run.seconds["interactions"] = round(time.monotonic() - t0, 3)
