"""The html reward: how close a candidate page's render is to the reference page's.

Components (each in [0, 1], all reported):

* ``format``: the completion is a bare HTML document or one fenced block of it;
* ``validity``: it rendered (no crash, cap or time-out) and is not blank;
* ``clean``: it raised no more JavaScript page errors than the reference did
  (real pages have errors of their own, so a faithful copy may too);
* Design2Code's five: ``block_match``, ``text``, ``position``, ``color``
  (``text_blocks``) and ``visual`` (SSIM on text-masked screenshots, or CLIP
  when configured), averaged into ``design2code``; with no matched block
  ``design2code`` is ``0.2 · visual``, as in Design2Code;
* ``structure``: F1 of 1-height DOM subtrees (``structure``).

Text blocks come from the DOM (``blocks="dom"``, the default) or, with
``blocks="design2code"``, from Design2Code's colour injection (``colour_blocks``:
two more renders of each page, boxes drawn around the text pixels); the block
scores and the text mask of ``visual`` then use those blocks.

``total = validity · (0.75 · design2code + 0.15 · structure + 0.05 · format
+ 0.05 · clean)``:
an invalid page scores 0 whatever it contains.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from designrl.render.runner import PoolRunner
from designrl.tasks.batch import batch_reward
from designrl.tasks.family import Outcome, Scored
from designrl.tasks.html.colour_blocks import extract_colour_blocks
from designrl.tasks.html.extract import extract_html
from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.html.structure import structure_similarity
from designrl.tasks.html.text_blocks import block_scores
from designrl.tasks.html.visual import decode_png, mask_text, ssim_similarity

log = logging.getLogger(__name__)

MAX_COMPLETION_CHARS = 2_000_000  # longer completions are refused before any parsing
WEIGHTS = {"design2code": 0.75, "structure": 0.15, "format": 0.05, "clean": 0.05}
BLANK_STD = 2.0  # a screenshot whose pixels vary less than this (0–255) is blank

VisualSimilarity = Callable[[np.ndarray, np.ndarray], float]
BlockSource = Literal["dom", "design2code"]


@dataclass
class HtmlScore:
    total: float
    components: dict[str, float] = field(default_factory=dict)
    error: str | None = None
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


def is_blank(image: np.ndarray) -> bool:
    return image.size == 0 or float(image.std()) < BLANK_STD


def render_problem(result) -> str | None:
    """Why a render cannot be scored as a page, or None."""
    if result.error:
        return result.error
    if result.timed_out:
        return "render_timed_out"
    return None


def score_renders(reference, candidate, *, format_ok: bool = True,
                  visual: VisualSimilarity = ssim_similarity) -> HtmlScore:
    """Score a candidate ``RenderResult`` against the reference's."""
    components = {"format": float(format_ok)}
    problem = render_problem(candidate)
    cand_image = decode_png(candidate.png) if problem is None else None
    if problem is None and is_blank(cand_image):
        problem = "blank_page"
    if problem is not None:
        components.update(validity=0.0)
        return HtmlScore(0.0, components, problem)
    ref_image = decode_png(reference.png)
    blocks = block_scores(reference.text_blocks, candidate.text_blocks,
                          (reference.width, reference.height), (candidate.width, candidate.height))
    vis = visual(mask_text(ref_image, reference.text_blocks, _scale(ref_image, reference)),
                 mask_text(cand_image, candidate.text_blocks, _scale(cand_image, candidate)))
    components.update(validity=1.0, **blocks.as_dict(), visual=vis,
                      clean=float(len(candidate.page_errors) <= len(reference.page_errors)))
    if blocks.matches:
        components["design2code"] = float(np.mean([*blocks.as_dict().values(), vis]))
    else:
        components["design2code"] = 0.2 * vis
    components["structure"] = structure_similarity(reference.elements, candidate.elements)
    total = sum(w * components[k] for k, w in WEIGHTS.items())
    return HtmlScore(total, components)


def _scale(image: np.ndarray, result) -> float:
    """Screenshot pixels per CSS pixel (device scale factor, usually 1)."""
    return image.shape[1] / result.width if result.width else 1.0


class HtmlReward:
    """Scores completions against reference pages, rendering both in a ``BrowserPool``.

    Reference renders (and their colour-injection blocks) are cached by page text,
    so a group of samples for one item renders its reference once.
    ``blocks``: where text blocks come from, ``"dom"`` or ``"design2code"`` (see above).
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

    async def reference(self, html: str):
        """The reference's render; concurrent callers for one page share one render."""
        return await self._cached(self._references, html, lambda: self.pool.render(html))

    async def reference_blocks(self, html: str):
        """The reference's colour-injection text blocks, cached like its render."""
        async def extract():
            return await extract_colour_blocks(self.pool, html,
                                               (await self.reference(html)).text_blocks)
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
        if render_problem(reference) is not None:
            raise ValueError(f"the reference page does not render: {render_problem(reference)}")
        candidate = await self.pool.render(html)
        pngs = {"reference_png": reference.png, "candidate_png": candidate.png}
        if self.blocks == "design2code" and render_problem(candidate) is None:
            ref_blocks, cand_blocks = await asyncio.gather(
                self.reference_blocks(reference_html),
                extract_colour_blocks(self.pool, html, candidate.text_blocks))
            reference = replace(reference, text_blocks=ref_blocks)
            candidate = replace(candidate, text_blocks=cand_blocks)
        return replace(score_renders(reference, candidate, format_ok=format_ok,
                                     visual=self.visual), **pngs)

    async def score_item(self, item: HtmlItem, completion: str) -> Scored:
        """``score`` against the item's reference, as an episode records it."""
        return (await self.score(item.html, completion)).scored()

    async def score_column(self, reference_html: str, completion: str) -> Scored:
        """``score`` from a dataset row's ``reference_html`` (TRL's reward functions)."""
        return (await self.score(reference_html, completion)).scored()


def get_html_reward(runner: PoolRunner | None = None,
                    visual: VisualSimilarity = ssim_similarity,
                    blocks: BlockSource = "dom") -> Callable[..., list]:
    """A batch reward function (TRL's signature) scoring each completion against its row's
    ``reference_html``; a row whose reference does not render gets None (and a warning).

    ``runner``: the browser pool to render in (a ``PoolRunner``); None starts one.
    ``blocks``: where text blocks come from (``HtmlReward``).
    """
    runner = runner or PoolRunner()
    reward = HtmlReward(runner.pool, visual=visual, blocks=blocks)

    async def score(reference: str, text: str) -> float | None:
        try:
            return (await reward.score(reference, text)).total
        except ValueError as exc:  # the reference itself is broken: no reward to give
            log.warning("html reward: %s", exc)
            return None

    return batch_reward("html_reward", "reference_html", score, runner.run)
