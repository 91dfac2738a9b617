"""The html reward: how close a candidate page's render is to the reference page's.

Both pages render at the reference's own viewport (``viewport.page_viewport``: its
viewport meta, or the fixed width it gives its body) and are captured twice on one
load, with and without their text (``capture``): the difference is the text's ink.
Text that draws no ink (coloured like its background, covered by a picture or a
rectangle, clipped or shrunk away) is not counted as text anywhere.

Components (each in [0, 1], all reported):

* ``format``: the completion is a bare HTML document or one fenced block of it;
* ``validity``: it rendered (no crash, cap or time-out) and is not blank;
* ``clean``: it raised no more JavaScript page errors than the reference did;
* block terms over the visible text blocks, matched as Design2Code does
  (``text_blocks``), every character of both pages counting, so text left unmatched
  scores 0: ``content`` (the share of the reference's text shown, similarity
  weighted), ``text`` (F1 of that and the candidate's share), ``position`` (where
  each block is, 0 from a quarter of the page width away), ``color`` (its colour,
  CIEDE2000), ``font`` (its size and weight);
* the screenshot terms (``appearance``): ``ssim``, ``palette``, ``histogram``,
  ``layout`` and their mean ``visual``, each weighted by what is there to see, so a
  nearly empty page scores near 0 on them;
* ``appearance``: ``APPEARANCE_WEIGHTS`` over position, color, font and visual;
* ``structure``: F1 of 1-height DOM subtrees (``structure``);
* ``block_match`` and ``design2code``: Design2Code's own score (its five terms,
  unweighted, on the visible blocks; its visual term on text-masked screenshots,
  SSIM or CLIP), reported for comparison with the literature, not in the total.

``total = validity · (0.9 + 0.1 · structure) · (0.95 + 0.05 · format)
· (0.95 + 0.05 · clean) · H(content, appearance)``, where ``H`` is the weighted
harmonic mean ``1 / (0.4 / content + 0.6 / appearance)``: the lower of the two rules
it. Along a page's styles alone (content fixed) the total follows appearance;
a page showing little of the reference's text (a screenshot as an image, coloured
rectangles, text hidden under either) scores near 0 however it looks, and a page
with all the text and none of the look scores little more than its appearance.
An invalid page scores 0 whatever it contains.

Text blocks come from the DOM (``blocks="dom"``, the default) or, with
``blocks="design2code"``, from Design2Code's colour injection (``colour_blocks``:
two more renders of each page, boxes drawn around the text pixels).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

import numpy as np
from PIL import Image

from designrl.render.runner import PoolRunner
from designrl.render.types import InfrastructureError, RenderResult
from designrl.tasks.batch import RewardFunction, component_rewards
from designrl.tasks.family import FamilyScore, Outcome, Scored
from designrl.tasks.html.appearance import (
    PageView,
    appearance_scores,
    decode_image,
    is_blank,
    page_view,
    visible_blocks,
)
from designrl.tasks.html.capture import PageCapture, capture_page
from designrl.tasks.html.colour_blocks import extract_colour_blocks
from designrl.tasks.html.extract import extract_html
from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.html.structure import structure_similarity
from designrl.tasks.html.text_blocks import block_scores, match_blocks, text_scores
from designrl.tasks.html.viewport import DEFAULT_VIEWPORT, page_viewport
from designrl.tasks.html.visual import mask_text, ssim_similarity

log = logging.getLogger(__name__)

MAX_COMPLETION_CHARS = 2_000_000  # longer completions are refused before any parsing
APPEARANCE_WEIGHTS = {"position": 0.2, "color": 0.05, "font": 0.05, "visual": 0.7}
CONTENT_SHARE = 0.4  # of the harmonic mean of content and appearance
D2C_WIDTH = 512  # the Design2Code visual term compares text-masked screenshots this wide

VisualSimilarity = Callable[[np.ndarray, np.ndarray], float]
BlockSource = Literal["dom", "design2code"]


@dataclass
class HtmlScore(FamilyScore):
    reference_png: bytes | None = field(default=None, repr=False)
    candidate_png: bytes | None = field(default=None, repr=False)

    def scored(self) -> Scored:
        """This score in the shape every family's episode records."""
        images = {name: png for name, png in (("reference", self.reference_png),
                                              ("candidate", self.candidate_png)) if png}
        return Scored(self.total, dict(self.components), html_outcome(self.error),
                      None if self.error == "blank_page" else self.error, images,
                      {"blank": self.error == "blank_page"})


def html_outcome(error: str | None) -> Outcome:
    """The episode outcome an ``HtmlScore.error`` stands for (a blank page is a scored
    design, not a failure to render)."""
    if error is None or error == "blank_page":
        return "ok"
    if error in ("no_html_document",) or error.startswith("completion_too_large"):
        return "invalid_output"
    return "timeout" if "timed_out" in error or error == "timeout" else "render_failed"


# A reference is a page of the dataset that rendered when the dataset was checked: when it
# times out or crashes now, the renderer is overloaded or lost, not the design.
REFERENCE_LOAD_PROBLEMS = frozenset({"timeout", "render_timed_out", "page_crashed"})


def render_problem(result) -> str | None:
    """Why a render cannot be scored as a page, or None."""
    if result.error:
        return result.error
    if result.timed_out:
        return "render_timed_out"
    return None


@dataclass
class PreparedPage:
    """One render read for scoring: its view (compacted), its visible text blocks, and
    its text-masked screenshot for the Design2Code term."""

    render: RenderResult
    view: PageView
    blocks: list
    masked: np.ndarray
    blank: bool
    width: float  # the viewport's width, CSS px


def prepare_page(render: RenderResult, textless_png: bytes | None = None,
                 css_width: float | None = None) -> PreparedPage | None:
    """Read a render for scoring; None when it has no screenshot to read."""
    image = decode_image(render.png)
    if image is None:
        return None
    width = float(css_width or render.width or image.width)
    view = page_view(image, decode_image(textless_png), width,
                     [b.bbox for b in render.text_blocks])
    blocks = visible_blocks(render.text_blocks, view)
    array = np.asarray(image)
    masked = mask_text(array, blocks, view.scale)
    if masked.shape[1] > D2C_WIDTH:
        height = max(1, round(masked.shape[0] * D2C_WIDTH / masked.shape[1]))
        masked = np.asarray(Image.fromarray(masked).resize((D2C_WIDTH, height),
                                                           Image.Resampling.BOX))
    return PreparedPage(render, view.compact(), blocks, masked, is_blank(image), width)


def harmonic(content: float, appearance: float, share: float = CONTENT_SHARE) -> float:
    """``1 / (share / content + (1 − share) / appearance)``; 0 when either is 0."""
    if content <= 0 or appearance <= 0:
        return 0.0
    return 1.0 / (share / content + (1 - share) / appearance)


def score_prepared(reference: PreparedPage, candidate: PreparedPage, *, format_ok: bool = True,
                   visual: VisualSimilarity = ssim_similarity) -> HtmlScore:
    """Score a prepared candidate against the prepared reference (both render fine)."""
    components = {"format": float(format_ok)}
    if candidate.blank:
        components.update(validity=0.0)
        return HtmlScore(0.0, components, "blank_page")
    ref, cand = reference.render, candidate.render
    pairs = match_blocks(reference.blocks, candidate.blocks)
    scores = text_scores(reference.blocks, candidate.blocks, reference.width, pairs=pairs)
    components.update(validity=1.0, content=scores.recall, **scores.as_dict())
    components.update(appearance_scores(reference.view, candidate.view))
    components["appearance"] = sum(w * components[k] for k, w in APPEARANCE_WEIGHTS.items())
    components["structure"] = structure_similarity(ref.elements, cand.elements)
    components["clean"] = float(len(cand.page_errors) <= len(ref.page_errors))
    d2c = block_scores(reference.blocks, candidate.blocks, (ref.width, ref.height),
                       (cand.width, cand.height), pairs=pairs)
    d2c_visual = visual(reference.masked, candidate.masked)
    components["block_match"] = d2c.block_match
    components["design2code"] = (float(np.mean([*d2c.as_dict().values(), d2c_visual]))
                                 if d2c.matches else 0.2 * d2c_visual)
    total = ((0.9 + 0.1 * components["structure"]) * (0.95 + 0.05 * components["format"])
             * (0.95 + 0.05 * components["clean"])
             * harmonic(components["content"], components["appearance"]))
    return HtmlScore(float(min(1.0, max(0.0, total))), components)


def score_renders(reference: RenderResult, candidate: RenderResult, *, format_ok: bool = True,
                  visual: VisualSimilarity = ssim_similarity,
                  reference_textless: bytes | None = None,
                  candidate_textless: bytes | None = None,
                  viewport_width: float | None = None) -> HtmlScore:
    """Score a candidate ``RenderResult`` against the reference's. Without the two
    text-free screenshots (``capture``), text ink is guessed from the DOM text boxes."""
    problem = render_problem(candidate)
    if problem is None and decode_image(candidate.png) is None:
        problem = "blank_page"
    if problem is not None:
        return HtmlScore(0.0, {"format": float(format_ok), "validity": 0.0}, problem)
    prepared_ref = prepare_page(reference, reference_textless, viewport_width)
    if prepared_ref is None:
        raise ValueError("the reference render has no screenshot")
    prepared = prepare_page(candidate, candidate_textless, viewport_width or prepared_ref.width)
    return score_prepared(prepared_ref, prepared, format_ok=format_ok, visual=visual)


@dataclass
class ReferencePage:
    """A reference as the reward keeps it: its render, the viewport it was rendered at,
    and (when it rendered) its prepared form."""

    render: RenderResult
    viewport: tuple[int, int]
    prepared: PreparedPage | None


class HtmlReward:
    """Scores completions against reference pages, rendering both in a ``BrowserPool``
    at the reference's viewport.

    References (their renders, prepared views and colour-injection blocks) are cached
    by page text, so a group of samples for one item renders its reference once.
    ``blocks``: where text blocks come from, ``"dom"`` or ``"design2code"`` (see above).
    ``visual``: the Design2Code component's visual term (SSIM, or ``ClipSimilarity``).
    """

    def __init__(self, pool, visual: VisualSimilarity = ssim_similarity, cache_size: int = 256,
                 blocks: BlockSource = "dom"):
        if blocks not in ("dom", "design2code"):
            raise ValueError(f"blocks must be 'dom' or 'design2code', not {blocks!r}")
        self.pool = pool
        self.visual = visual
        self.cache_size = cache_size
        self.blocks = blocks
        self._references: dict[str, asyncio.Future] = {}
        self._reference_blocks: dict[str, asyncio.Future] = {}

    def _cached(self, cache: dict[str, asyncio.Future], html: str, make: Callable[[], Awaitable]):
        """One shared job per page: concurrent callers await the same future."""
        future = cache.get(html)
        if future is None:
            if len(cache) >= self.cache_size:
                cache.pop(next(iter(cache)))
            future = cache[html] = asyncio.ensure_future(make())
        return asyncio.shield(future)

    async def _capture(self, html: str, viewport: tuple[int, int]) -> PageCapture:
        return await capture_page(self.pool, html, viewport)

    async def reference(self, html: str) -> ReferencePage:
        """The reference's render and prepared form, at its own viewport; concurrent
        callers for one page share one render."""
        async def make() -> ReferencePage:
            viewport = page_viewport(html)
            capture = await self._capture(html, viewport)
            render = capture.render
            if self.blocks == "design2code" and render_problem(render) is None:
                render = replace(render, text_blocks=await self.reference_blocks(html, render))
            prepared = None
            if render_problem(render) is None:
                prepared = await asyncio.to_thread(prepare_page, render, capture.textless_png,
                                                   viewport[0])
            return ReferencePage(render, viewport, prepared)
        return await self._cached(self._references, html, make)

    async def reference_blocks(self, html: str, render: RenderResult | None = None):
        """The reference's colour-injection text blocks, cached like its render."""
        async def extract():
            original = render if render is not None else (await self.reference(html)).render
            return await extract_colour_blocks(self.pool, html, original.text_blocks,
                                               page_viewport(html))
        return await self._cached(self._reference_blocks, html, extract)

    async def score(self, reference_html: str, completion: str) -> HtmlScore:
        """The reward of one completion (any text) for one reference page."""
        if len(completion) > MAX_COMPLETION_CHARS:
            return HtmlScore(0.0, {"format": 0.0, "validity": 0.0},
                             f"completion_too_large: {len(completion)} characters, "
                             f"limit {MAX_COMPLETION_CHARS}")
        html, format_ok = extract_html(completion)
        if html is None:
            return HtmlScore(0.0, {"format": 0.0, "validity": 0.0}, "no_html_document")
        reference = await self.reference(reference_html)
        problem = render_problem(reference.render)
        if problem is None and reference.prepared is None:
            problem = "no screenshot"
        if problem in REFERENCE_LOAD_PROBLEMS:
            self._references.pop(reference_html, None)  # the next try renders it again
            raise InfrastructureError(f"the reference page did not render: {problem}")
        if problem is not None:
            raise ValueError(f"the reference page does not render: {problem}")
        capture = await self._capture(html, reference.viewport)
        candidate = capture.render
        pngs = {"reference_png": reference.render.png, "candidate_png": candidate.png}
        problem = render_problem(candidate)
        if problem is None and self.blocks == "design2code":
            candidate = replace(candidate, text_blocks=await extract_colour_blocks(
                self.pool, html, candidate.text_blocks, reference.viewport))
        prepared = None
        if problem is None:
            prepared = await asyncio.to_thread(prepare_page, candidate, capture.textless_png,
                                               reference.viewport[0])
            if prepared is None:
                problem = "blank_page"
        if problem is not None:
            return HtmlScore(0.0, {"format": float(format_ok), "validity": 0.0}, problem, **pngs)
        score = await asyncio.to_thread(score_prepared, reference.prepared, prepared,
                                        format_ok=format_ok, visual=self.visual)
        return replace(score, **pngs)

    async def score_item(self, item: HtmlItem, completion: str) -> Scored:
        """``score`` against the item's reference, as an episode records it."""
        return (await self.score(item.html, completion)).scored()

    async def score_column(self, reference_html: str, completion: str) -> Scored | None:
        """``score`` from a dataset row's ``reference_html`` (TRL's reward functions); None
        (and a warning) when the reference itself does not render, or the renderer failed:
        no reward to give, never a score."""
        try:
            return (await self.score(reference_html, completion)).scored()
        except (ValueError, InfrastructureError) as exc:
            log.warning("html reward: %s", exc)
            return None


def get_html_rewards(runner: PoolRunner | None = None,
                     components: Sequence[str] | None = None, *,
                     visual: VisualSimilarity = ssim_similarity, blocks: BlockSource = "dom",
                     pool_options: dict[str, Any] | None = None) -> list[RewardFunction]:
    """TRL reward functions scoring each completion against its row's ``reference_html``:
    ``html_reward`` (the total), then ``html_<name>`` for each named component (default:
    all of the family's), all reading one scoring of a completion; a row whose reference
    does not render gets None (and a warning). Picklable (``designrl.tasks.batch``).

    ``runner``: the browser pool to render in (a ``PoolRunner``); None starts this
    process's own on the first call (with ``pool_options``). ``visual``, ``blocks``: as
    ``HtmlReward`` takes them. Scoring needs Chromium; building the functions does not:

    >>> [f.__name__ for f in get_html_rewards(components=["text", "visual"])]
    ['html_reward', 'html_text', 'html_visual']
    """
    from designrl.tasks.html import FAMILY

    names = FAMILY.components if components is None else components
    return component_rewards("html", "reference_html",
                             partial(HtmlReward, visual=visual, blocks=blocks), names,
                             FAMILY.components, runner=runner, pool_options=pool_options)


def get_html_reward(runner: PoolRunner | None = None,
                    visual: VisualSimilarity = ssim_similarity,
                    blocks: BlockSource = "dom") -> RewardFunction:
    """The total of ``get_html_rewards``: one TRL reward function, ``html_reward``."""
    return get_html_rewards(runner, (), visual=visual, blocks=blocks)[0]


__all__ = ["DEFAULT_VIEWPORT", "HtmlReward", "HtmlScore", "get_html_reward", "get_html_rewards",
           "score_renders"]
