"""The webpage reward: does a model-written page run, look designed, and respond when used?

Components (each in [0, 1], all named in ``WebpageScore.components``):

* execution: ``loads`` (the page rendered within the pool's caps), ``non_blank``
  (``space.is_blank``), ``no_page_errors`` (no uncaught error while loading),
  ``stable`` (no interaction hung the page: endless handler, dialog flood, DOM past
  the cap, crash); ``execution = loads * non_blank * (1 if no_page_errors and stable
  else ERROR_FACTOR)``;
* static aesthetics (``static.py``): ``axe``, ``contrast``, ``overlap``, ``text_fit``,
  ``alignment``, ``type_scale``, ``whitespace``, ``color_harmony``, and their
  weighted mean ``static``;
* instruction alignment (``alignment.py``, when the request is known): ``request_parts``
  (the parts the request names, found readable, usable and visible on the page as it
  loaded), ``request_terms`` (the request's content terms in the page's readable text)
  and their mix ``instruction`` (not the static ``alignment``, which is about edges);
* ``interaction`` (``interact.py``): passed / attempted interactions (0 with none, and 0
  for a page that responds to a click on plain text as much as to its controls);
* ``judge`` (optional): the OpenDesign rubric total / 100, when a judge answered.

Total::

    design = (1 - ALIGN_SHARE) * static + ALIGN_SHARE * instruction        (0.4: OpenDesign)
    base   = STATIC_WEIGHT * design + INTERACTION_WEIGHT * interaction     (0.5 / 0.5)
    base   = (1 - JUDGE_WEIGHT) * base + JUDGE_WEIGHT * judge              (with a judge, 0.3)
    gate   = clip((instruction - ALIGN_ZERO) / (ALIGN_FULL - ALIGN_ZERO), 0, 1)  (0.1, 0.75)
    total  = execution * gate * base

so a page that does not load or shows nothing scores 0, a page that throws while
loading or hangs when used keeps ``ERROR_FACTOR`` (0.3) of its credit (it shows
something, but broken code is a failure of the task), and the rest is earned
equally by looking designed and by responding when used, *for this request*: instruction
alignment carries 40% of the design score as in OpenDesign, and also gates the whole total, so a
well-made page for something else (another request's page, a generic counter) keeps
well under half the credit of a page for the request instead of 80% of it. Scored without
a request (``prompt=None``) there is nothing to align to: no instruction components, and
``design = static``, ``gate = 1``. A judge error is recorded in
``details["judge"]["error"]`` and the total is computed without it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from designrl.render.runner import PoolRunner
from designrl.render.types import RenderResult
from designrl.tasks.batch import RewardFunction, component_rewards
from designrl.tasks.family import FamilyScore, Outcome, Scored
from designrl.tasks.webpage.alignment import score_alignment
from designrl.tasks.webpage.content import (
    PageContent,
)
from designrl.tasks.webpage.extract import extract_page
from designrl.tasks.webpage.facts import (
    facts_from_render,
)
from designrl.tasks.webpage.interaction_records import Interactions
from designrl.tasks.webpage.judge import Judge, JudgeVerdict
from designrl.tasks.webpage.page_checks import PageChecks, PageRun, run_page
from designrl.tasks.webpage.requirements import read_requirements
from designrl.tasks.webpage.space import is_blank
from designrl.tasks.webpage.spec import WebpageItem
from designrl.tasks.webpage.static import static_components, static_score

STATIC_WEIGHT = 0.5
INTERACTION_WEIGHT = 0.5
JUDGE_WEIGHT = 0.3
ERROR_FACTOR = 0.3
ALIGN_SHARE = 0.4
ALIGN_ZERO = 0.1
ALIGN_FULL = 0.75
HUNG_REASONS = frozenset({"timeout", "too_many_dialogs", "resource_exceeded", "page_crashed"})


@dataclass
class WebpageScore(FamilyScore):
    """``error``: why the page earned nothing (``no_html_document``, ``timeout``,
    ``blank_page`` ...); ``details``: what the checks and the judge found."""
    details: dict[str, Any] = field(default_factory=dict)
    png: bytes | None = field(default=None, repr=False)  # the page as it first rendered

    @property
    def judge_error(self) -> str | None:
        return (self.details.get("judge") or {}).get("error")

    def scored(self) -> Scored:
        """This score in the shape every family's episode records."""
        outcome = webpage_outcome(self.error)
        return Scored(self.total, dict(self.components), outcome,
                      None if outcome == "ok" else self.error,
                      {"candidate": self.png} if self.png else {}, dict(self.details))


def webpage_outcome(error: str | None) -> Outcome:
    """The episode outcome a ``WebpageScore.error`` stands for (a blank page is a scored
    design, not a failure to render)."""
    if error is None or error == "blank_page":
        return "ok"
    if error == "no_html_document":
        return "invalid_output"
    return "timeout" if "timeout" in error or "timed_out" in error else "render_failed"


def execution_components(render: RenderResult, image: np.ndarray | None,
                         load_errors: Sequence[str], hung: str | None = None
                         ) -> tuple[dict[str, float], dict]:
    """``loads``, ``non_blank``, ``no_page_errors``, ``stable`` and the ``execution`` gate.

    ``hung`` is why the interactive checks had to stop (a handler that never returns,
    a dialog flood, a DOM past the cap, a crash): the page broke while being used.
    """
    loads = float(render.ok and image is not None)
    blank, blank_info = is_blank(image, render.text_blocks, render.elements) if loads else (
        True, {"reason": "did not load"})
    components = {"loads": loads, "non_blank": float(not blank),
                  "no_page_errors": float(not load_errors), "stable": float(hung is None)}
    clean = components["no_page_errors"] * components["stable"]
    components["execution"] = loads * components["non_blank"] * (
        1.0 if clean else ERROR_FACTOR)
    return components, blank_info


def instruction_gate(instruction: float) -> float:
    """The share of the total a page keeps for how well it follows the request."""
    return float(min(1.0, max(0.0, (instruction - ALIGN_ZERO) / (ALIGN_FULL - ALIGN_ZERO))))


def total_score(components: Mapping[str, float]) -> float:
    """The documented total from named components (``judge`` used when present; without
    ``instruction`` the page was scored with no request)."""
    design, gate = components.get("static", 0.0), 1.0
    if "instruction" in components:
        design = (1.0 - ALIGN_SHARE) * design + ALIGN_SHARE * components["instruction"]
        gate = instruction_gate(components["instruction"])
    base = STATIC_WEIGHT * design + INTERACTION_WEIGHT * components.get("interaction", 0.0)
    if "judge" in components:
        base = (1.0 - JUDGE_WEIGHT) * base + JUDGE_WEIGHT * components["judge"]
    return float(min(1.0, max(0.0, components.get("execution", 0.0) * gate * base)))


class WebpageReward:
    """Scores completions for webpage items with a started ``BrowserPool``.

    ``interaction_budget``: interactions tried per page; ``action_timeout_s``: the
    cap on one step of an interaction (an endless handler ends the checks there);
    ``interaction_time_s``: no new interaction starts after this long;
    ``settle_s``: how long a page may take to respond; ``page_timeout_s``: the cap
    on everything done with one page (then it is a scored ``page_timeout``), counted
    from when a pool page is free for it: concurrent calls beyond the pool's size
    wait their turn first.
    """

    def __init__(self, pool, judge: Judge | None = None, interaction_budget: int = 6, *,
                 action_timeout_s: float = 3.0, interaction_time_s: float = 10.0,
                 settle_s: float = 0.35, static_timeout_s: float = 8.0,
                 page_timeout_s: float = 45.0) -> None:
        self.pool = pool
        self.judge = judge
        self.interaction_budget = interaction_budget
        self.action_timeout_s = action_timeout_s
        self.interaction_time_s = interaction_time_s
        self.settle_s = settle_s
        self.static_timeout_s = static_timeout_s
        self.page_timeout_s = page_timeout_s
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    async def score(self, completion: str, prompt: str | None = None) -> WebpageScore:
        """The reward of one completion (any text) for one prompt; never raises for a bad page."""
        started = time.monotonic()
        html, well_formatted = extract_page(completion)
        if html is None:
            return WebpageScore(0.0, {"loads": 0.0, "execution": 0.0}, "no_html_document",
                                {"well_formatted": False})
        try:
            async with self._page_slots():  # the page's time cap starts once it has a page
                # A lease whose browser was lost under it runs again, with a time cap of its own.
                run = await self.pool.retrying(
                    lambda: asyncio.wait_for(run_page(self.pool, html, self._checks()),
                                             self.page_timeout_s))
        except TimeoutError:
            return WebpageScore(0.0, {"loads": 0.0, "execution": 0.0}, "page_timeout",
                                {"well_formatted": well_formatted,
                                 "seconds": {"total": round(time.monotonic() - started, 3)}})
        score = await asyncio.to_thread(self._score_run, run, well_formatted, prompt)
        score.png = run.render.png if run.render is not None else None
        if self.judge is not None and score.components.get("execution", 0.0) > 0:
            await self._add_judge(score, prompt, html, run)
        score.details["seconds"] = {**run.seconds,
                                    "total": round(time.monotonic() - started, 3)}
        return score

    async def score_item(self, item: WebpageItem, completion: str) -> Scored:
        """``score`` for the item's request, as an episode records it."""
        return (await self.score(completion, item.prompt)).scored()

    async def score_column(self, request: str, completion: str) -> Scored:
        """``score`` from a dataset row's ``request`` (TRL's reward functions)."""
        return (await self.score(completion, request)).scored()

    async def score_many(self, completions: Sequence[str],
                         prompts: Sequence[str | None] | None = None) -> list[WebpageScore]:
        """Score completions concurrently (bounded by the pool's pages)."""
        prompts = list(prompts) if prompts is not None else [None] * len(completions)
        if len(prompts) != len(completions):
            raise ValueError("one prompt per completion")
        return list(await asyncio.gather(*(self.score(c, p)
                                           for c, p in zip(completions, prompts, strict=True))))

    def _checks(self) -> PageChecks:
        return PageChecks(self.interaction_budget, self.action_timeout_s,
                          self.interaction_time_s, self.settle_s, self.static_timeout_s)

    def _page_slots(self) -> asyncio.Semaphore:
        """At most one scoring per pool page at a time (per event loop)."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(max(1, int(getattr(self.pool, "size", 4)))))
        return self._slots[1]

    # The pure part.

    def _score_run(self, run: PageRun, well_formatted: bool,
                   prompt: str | None = None) -> WebpageScore:
        render = run.render or RenderResult.failure("render_failed")
        details: dict[str, Any] = {
            "well_formatted": well_formatted,
            "page_errors": list(render.page_errors)[:10],
            "console_errors": len(render.console_errors),
            "blocked_requests": len(render.blocked_requests),
            "dialogs": render.dialogs,
        }
        if run.failure:
            details["failure"] = run.failure
        interactions = run.interactions or Interactions()
        hung = interactions.stopped if interactions.stopped in HUNG_REASONS else None
        components, blank_info = execution_components(render, run.image, run.load_errors, hung)
        details["blank"] = blank_info
        if not components["loads"]:
            error = render.error or ("timeout" if render.timed_out else "render_failed")
            return WebpageScore(0.0, components, error, details)
        assert run.image is not None
        facts = run.facts
        if facts is None:
            facts = facts_from_render(render, self.pool.viewport[0])
            details["facts_error"] = run.facts_error
        statics, static_details = static_components(render, run.image, facts, run.violations)
        if run.axe_error:
            static_details["axe"] = {"error": run.axe_error}
        components.update(statics)
        components["static"] = static_score(statics)
        components["interaction"] = interactions.score()
        details["static"] = static_details
        if prompt is not None:
            # Unread content (the check failed or hung) earns no alignment: no evidence.
            aligned, details["instruction"] = score_alignment(
                read_requirements(prompt), run.content or PageContent())
            if run.content_error:
                details["instruction"]["error"] = run.content_error
            components.update(aligned)
        details["interactions"] = interactions.as_details()
        error = None if components["non_blank"] else "blank_page"
        return WebpageScore(total_score(components), components, error, details)

    async def _add_judge(self, score: WebpageScore, prompt: str | None, html: str,
                         run: PageRun) -> None:
        assert self.judge is not None
        png = run.render.png if run.render is not None and getattr(
            self.judge, "multimodal", True) else None
        t0 = time.monotonic()
        try:
            verdict = await self.judge.judge(prompt, html, png)
        except Exception as exc:  # a judge that raises is still only a recorded error
            verdict = JudgeVerdict(error=f"judge_failed: {type(exc).__name__}: {exc}"[:300])
        score.details["judge"] = {"parts": verdict.parts, "error": verdict.error,
                                  "seconds": round(time.monotonic() - t0, 3)}
        if verdict.ok and verdict.score is not None:
            score.components["judge"] = verdict.score
            score.total = total_score(score.components)


def get_webpage_rewards(runner: PoolRunner | None = None, judge: Judge | None = None,
                        components: Sequence[str] | None = None, *,
                        pool_options: dict[str, Any] | None = None,
                        **options: Any) -> list[RewardFunction]:
    """TRL reward functions scoring each completion as a webpage for its row's ``request``
    (the user's request, shown to the judge): ``webpage_reward`` (the total), then
    ``webpage_<name>`` for each named component (default: all of the family's), all
    reading one scoring of a completion; rows whose ``request`` is None get None.
    Picklable (``designrl.tasks.batch``).

    ``runner``: the browser pool to render in (a ``PoolRunner``); None starts this
    process's own on the first call (with ``pool_options``). ``options``:
    ``WebpageReward`` settings (interaction budget, time caps). Scoring needs Chromium;
    building the functions does not:

    >>> [f.__name__ for f in get_webpage_rewards(components=["execution", "axe"])]
    ['webpage_reward', 'webpage_execution', 'webpage_axe']
    """
    from designrl.tasks.webpage import FAMILY

    names = FAMILY.components if components is None else components
    return component_rewards("webpage", "request",
                             partial(WebpageReward, judge=judge, **options), names,
                             FAMILY.components, runner=runner, pool_options=pool_options)


def get_webpage_reward(runner: PoolRunner | None = None, judge: Judge | None = None,
                       **options: Any) -> RewardFunction:
    """The total of ``get_webpage_rewards``: one TRL reward function, ``webpage_reward``."""
    return get_webpage_rewards(runner, judge, (), **options)[0]
