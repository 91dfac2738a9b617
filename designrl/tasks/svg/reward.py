"""The svg reward: does the completion hold a safe, valid, non-blank SVG meeting its requirements?

Each requirement is read into atoms (``reader``): small necessary conditions checked
on the render and the parsed geometry together, counting only shapes the render shows
(``visibility``). A requirement **fails** when one of its atoms surely fails, **passes**
when all pass and the atoms are all it asks, and is otherwise **unchecked** (undecided:
the reader could not tell; its atoms and their verdicts are kept in the details).
Undecided requirements go to the judge when one is configured.

Components (each in [0, 1]):

* ``format``: the completion is one fenced SVG block or a bare SVG document;
* ``validity``: an SVG was found, parsed safely within the caps, and rendered;
* ``non_blank``: at least 0.1 % of the drawn area differs from its background colour;
* ``requirements`` (R): (passed + ½ · undecided) / N over all N requirements. An
  undecided requirement is neutral, never a pass, and a decided one counts for one
  requirement of N, never for the rest: R is the decided pass rate shrunk toward ½ by
  coverage, R = c · passed/decided + (1 − c) · ½. A drawing that meets nothing
  checkable scores below one that leaves everything undecided, which scores below one
  that meets everything;
* ``coverage``: decided / N (by computed checks, or by the judge for the rest);
* ``judge``: the judge's fulfilled / N over all requirements, SVGBench's score (only
  when a judge answered; its verdicts decide the requirements the checks left open).

``total = validity · (0.1 · format + non_blank · (0.1 + 0.8 · R))``

so an invalid SVG scores 0, a valid but blank one at most 0.1, a drawing that
fails everything 0.2, and the rest is earned by meeting requirements.
``SvgScore.passed`` is SVGBench's pass: passed / N ≥ 0.5 on a valid, non-blank SVG.

Known limit: with no judge, a free-text requirement is rarely *passed* (its nouns, "the
cow's hooves", are not checked), so what separates drawings is mostly what surely
fails: a named colour, label, line or shape missing; a part (by its colour, its label,
or the colour another requirement gives it) outside its region or relation; fewer
things than counted; percentages that do not add up; the wrong proportions. A part
recoloured while its old colour still shows elsewhere (a red collar on a dog under a
blue sky), a count too high of things sharing a colour with others, and a drawing that
shows the named colours, in the named places, and the quoted words, without the
objects, leave those requirements undecided and neutral; only a judge tells them apart.

``score_svg`` is the pure part (facts, pixels, requirements, judge verdict in; score
out); ``SvgReward`` extracts, parses, renders in a ``BrowserPool`` (or with the
built-in rough rasteriser when no pool is given) and calls the judge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from designrl.render.png import decode_png, encode_png
from designrl.render.runner import PoolRunner
from designrl.tasks.batch import RewardFunction, component_rewards
from designrl.tasks.family import FamilyScore, Outcome, Scored
from designrl.tasks.svg.extract import extract_svg
from designrl.tasks.svg.facts import SvgFacts, svg_facts
from designrl.tasks.svg.judge import Judge, JudgeVerdict
from designrl.tasks.svg.page import PAGE_SIZE, content_box, svg_markup, svg_page
from designrl.tasks.svg.parse import DEFAULT_LIMITS, SvgError, SvgLimits, parse_svg
from designrl.tasks.svg.pixels import Pixels
from designrl.tasks.svg.predicates import Scene, background_color, ink_fraction
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirements
from designrl.tasks.svg.spec import SvgItem
from designrl.tasks.svg.visibility import small_shapes, visible_facts, void_boxes

FORMAT_WEIGHT = 0.1
NON_BLANK_WEIGHT = 0.1
REQUIREMENTS_WEIGHT = 0.8
NEUTRAL_R = 0.5
EVIDENCE = 0.1
"""What an undecided requirement gains, at most, from its atoms that passed (or loses,
from atoms that lean to failure): what was checked and found counts a little, never as
much as a pass; what was doubted costs a little, never as much as a failure."""
MIN_INK = 0.001
PASS_AT = 0.5
VERDICTS = ("pass", "fail", "unchecked")
"""``unchecked``: undecided, neither passed nor failed by the computed checks."""


@dataclass
class AtomResult:
    """One atom of a requirement: what it checks and its verdict (None: not decided)."""

    check: str
    verdict: bool | None
    detail: str = ""
    strength: float = 1.0
    """For a passed atom, how fully it holds, as evidence (a colour's patch or a sliver)."""
    lean: float = 0.0
    """For an undecided atom, how far it leans to failure, as evidence against (0 to 1)."""


@dataclass
class RequirementResult:
    """One requirement's verdict. ``source`` is ``predicate`` (the computed checks),
    ``judge`` or None (undecided, or failed with the SVG); ``judge`` is the judge's
    opinion whenever it gave one; ``atoms`` what the checks read and found."""

    text: str
    verdict: str
    source: str | None = None
    check: str | None = None
    detail: str = ""
    judge: bool | None = None
    atoms: list[AtomResult] = field(default_factory=list)


@dataclass
class SvgScore(FamilyScore):
    details: list[RequirementResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    judge_error: str | None = None
    png: bytes | None = field(default=None, repr=False)  # the render that was scored

    def scored(self) -> Scored:
        """This score in the shape every family's episode records."""
        checklist = [{"requirement": d.text, "verdict": d.verdict, "source": d.source,
                      "check": d.check, "detail": d.detail, "judge": d.judge,
                      "atoms": [{"check": a.check, "verdict": a.verdict, "detail": a.detail}
                                for a in d.atoms]}
                     for d in self.details]
        details = {"requirements": checklist, "warnings": list(self.warnings)}
        if self.judge_error:
            details["judge_error"] = self.judge_error
        return Scored(self.total, dict(self.components), svg_outcome(self.error), self.error,
                      {"candidate": self.png} if self.png else {}, details)

    @property
    def requirement_score(self) -> float | None:
        """R as used in the total, or None when there were no requirements."""
        return self.components.get("requirements")

    @property
    def passed(self) -> bool:
        """SVGBench's pass: at least half the requirements passed, on a valid, non-blank SVG."""
        n = len(self.details)
        passes = sum(d.verdict == "pass" for d in self.details)
        return (n > 0 and passes / n >= PASS_AT and self.components.get("validity") == 1.0
                and self.components.get("non_blank") == 1.0)


def svg_outcome(error: str | None) -> Outcome:
    """The episode outcome an ``SvgScore.error`` stands for."""
    if error is None:
        return "ok"
    if error.startswith("render_failed"):
        return "timeout" if "timed_out" in error or "timeout" in error else "render_failed"
    return "invalid_output"  # no SVG, unclosed, too large, refused by the safe parser


def check_requirements(requirements: Sequence[str], scene: Scene) -> list[RequirementResult]:
    """Each requirement's computed verdict: ``fail`` when an atom surely fails, ``pass``
    when every atom passes and they are all the sentence asks, else ``unchecked``."""
    results = []
    for text, reading in zip(requirements, read_requirements(requirements), strict=True):
        atoms = []
        for atom in reading.atoms:
            verdict, detail = atom.check(scene)
            atoms.append(AtomResult(atom.describe(), verdict, detail,
                                    _strength(atom, scene) if verdict else 1.0,
                                    _lean(atom, scene) if verdict is None else 0.0))
        if any(a.verdict is False for a in atoms):
            verdict = "fail"
        elif reading.complete and atoms and all(a.verdict for a in atoms):
            verdict = "pass"
        else:
            verdict = "unchecked"
        failed = [a for a in atoms if a.verdict is False]
        shown = failed or atoms
        results.append(RequirementResult(
            text, verdict, "predicate" if verdict != "unchecked" else None,
            "; ".join(a.check for a in atoms) or None,
            "; ".join(f"{a.check}: {a.detail}" for a in shown), None, atoms))
    return results


def _strength(atom, scene: Scene) -> float:
    """How fully a passed atom holds (``Shown.strength``), through the wrappers that lend
    it a colour; 1 for atoms that are simply met."""
    inner = getattr(atom, "atom", atom)
    measure = getattr(inner, "strength", None)
    return measure(scene) if measure is not None else 1.0


def _lean(atom, scene: Scene) -> float:
    """How far an undecided atom leans to failure (``Shown.lean``); 0 for the rest, and for
    wrappers, whose colour is another requirement's or only usual."""
    measure = getattr(atom, "lean", None)
    return measure(scene) if measure is not None else 0.0


def requirement_components(details: Sequence[RequirementResult]) -> dict[str, float]:
    """``requirements`` (R) and ``coverage`` from the verdicts (none without requirements)."""
    n = len(details)
    if n == 0:
        return {}
    passes = sum(d.verdict == "pass" for d in details)
    undecided = [d for d in details if d.verdict == "unchecked"]
    evidence = sum(sum(a.strength if a.verdict else -a.lean for a in d.atoms) / len(d.atoms)
                   for d in undecided if d.atoms)
    return {"requirements": (passes + NEUTRAL_R * len(undecided) + EVIDENCE * evidence) / n,
            "coverage": (n - len(undecided)) / n}


def score_svg(facts: SvgFacts, image: np.ndarray | None, requirements: Sequence[str], *,
              format_ok: bool = True, verdict: JudgeVerdict | None = None,
              size: int = PAGE_SIZE) -> SvgScore:
    """Score a parsed and rendered SVG. ``image`` is the rendered page (H, W, 3 uint8) as
    laid out by ``svg_page``; None rasterises ``facts`` roughly instead."""
    if image is None:
        image = rasterize(facts, size)
    image = _as_page(image, size)
    box = content_box(facts, size)
    background = background_color(image, box)
    visible = visible_facts(facts, image, box, background, size)
    scene = Scene(visible, image, box, background,
                  Pixels(image, box, void_boxes(visible, size)),
                  small_shapes(facts, box, size))
    ink = ink_fraction(image, scene.box, scene.background)
    details = check_requirements(requirements, scene)
    components = {"format": float(format_ok), "validity": 1.0, "non_blank": float(ink >= MIN_INK)}
    judge_error = None
    if verdict is not None and requirements:
        if verdict.ok and verdict.n == len(requirements):
            components["judge"] = float(verdict.score or 0.0)
            for index, detail in enumerate(details):
                detail.judge = index in verdict.fulfilled
                if detail.verdict == "unchecked":
                    detail.verdict = "pass" if detail.judge else "fail"
                    detail.source = "judge"
        else:
            judge_error = verdict.error or f"judge answered for {verdict.n} requirements, " \
                                           f"not {len(requirements)}"
    components.update(requirement_components(details))
    r = components.get("requirements", NEUTRAL_R)
    total = components["validity"] * (
        FORMAT_WEIGHT * components["format"]
        + components["non_blank"] * (NON_BLANK_WEIGHT + REQUIREMENTS_WEIGHT * r))
    warnings = list(facts.warnings)
    if not components["non_blank"]:
        warnings.append(f"blank: {ink:.4%} of the drawing differs from its background")
    return SvgScore(total, components, None, details, warnings, judge_error)


def failed_score(error: str, requirements: Sequence[str], *, format_ok: bool = False,
                 warnings: Sequence[str] = ()) -> SvgScore:
    """The score of a completion with no usable SVG: 0, every requirement failed."""
    details = [RequirementResult(text, "fail", None, None, error) for text in requirements]
    return SvgScore(0.0, {"format": float(format_ok), "validity": 0.0, "non_blank": 0.0},
                    error, details, list(warnings))


def _as_page(image: np.ndarray, size: int) -> np.ndarray:
    image = np.asarray(image)
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    image = image[..., :3]
    if image.shape[:2] != (size, size):  # a device scale factor other than 1
        from PIL import Image

        image = np.asarray(Image.fromarray(image.astype(np.uint8)).resize((size, size)))
    return image.astype(np.uint8, copy=False)


@dataclass
class PreparedSvg:
    """An extracted, parsed SVG: its text, facts, and the markup that gets rendered."""

    svg: str
    facts: SvgFacts
    markup: str
    format_ok: bool


def prepare(completion: str, limits: SvgLimits = DEFAULT_LIMITS,
            size: int = PAGE_SIZE) -> PreparedSvg | tuple[str, bool]:
    """Extract, parse and lay out; an ``(error, format_ok)`` pair when that fails."""
    found = extract_svg(completion, limits)
    if found.svg is None:
        return (found.error or "no_svg", False)
    try:
        root = parse_svg(found.svg, limits)
        facts = svg_facts(root, limits)
    except SvgError as exc:
        return (f"{exc.code}: {exc.message}", found.well_formatted)
    except RecursionError:  # defensive: the depth caps should make this unreachable
        return ("too_deep: nesting too deep to process", found.well_formatted)
    return PreparedSvg(found.svg, facts, svg_markup(root, facts, size), found.well_formatted)


class SvgReward:
    """Scores completions for svg items.

    ``pool``: a started ``designrl.render.BrowserPool`` (or anything with its async
    ``render(html, viewport=, full_page=)``); None rasterises roughly with PIL, for
    tests and browser-less runs. ``judge``: an optional ``Judge`` (``OpenAIJudge``).
    """

    def __init__(self, pool=None, judge: Judge | None = None, *, size: int = PAGE_SIZE,
                 limits: SvgLimits = DEFAULT_LIMITS) -> None:
        self.pool = pool
        self.judge = judge
        self.size = size
        self.limits = limits

    async def score(self, completion: str, requirements: Sequence[str]) -> SvgScore:
        """The reward of one completion (any text) for one item's requirements."""
        prepared = await asyncio.to_thread(prepare, completion, self.limits, self.size)
        if isinstance(prepared, tuple):
            error, format_ok = prepared
            return failed_score(error, requirements, format_ok=format_ok)
        png: bytes | None = None
        if self.pool is None:
            image = rasterize(prepared.facts, self.size)
        else:
            result = await self.pool.render(svg_page(prepared.markup, self.size),
                                            viewport=(self.size, self.size), full_page=False)
            if not result.ok or not result.png:
                problem = result.error or ("timed_out" if result.timed_out else "empty screenshot")
                return failed_score(f"render_failed: {problem}", requirements,
                                    format_ok=prepared.format_ok,
                                    warnings=prepared.facts.warnings)
            png = result.png
            image = decode_png(png)
        verdict = None
        if self.judge is not None and requirements:
            if png is None and getattr(self.judge, "multimodal", True):
                png = encode_png(image)
            verdict = await self.judge.judge(prepared.svg, requirements, png)
        score = score_svg(prepared.facts, image, requirements, format_ok=prepared.format_ok,
                          verdict=verdict, size=self.size)
        score.png = png if png is not None else encode_png(image)
        return score

    async def score_item(self, item: SvgItem, completion: str) -> Scored:
        """``score`` against the item's requirements, as an episode records it."""
        return (await self.score(completion, list(item.requirements))).scored()

    async def score_column(self, requirements: Sequence[str], completion: str) -> Scored:
        """``score`` from a dataset row's ``requirements`` (TRL's reward functions)."""
        return (await self.score(completion, list(requirements))).scored()

    async def score_many(self, completions: Sequence[str],
                         requirements: Sequence[Sequence[str]]) -> list[SvgScore]:
        """Score completions concurrently (bounded by the pool's pages)."""
        if len(completions) != len(requirements):
            raise ValueError("one list of requirements per completion")
        return list(await asyncio.gather(*(self.score(c, r)
                                           for c, r in zip(completions, requirements,
                                                           strict=True))))


def get_svg_rewards(runner: PoolRunner | None = None, judge: Judge | None = None,
                    components: Sequence[str] | None = None, *, browser: bool = True,
                    pool_options: dict[str, Any] | None = None) -> list[RewardFunction]:
    """TRL reward functions scoring each completion against its row's ``requirements`` (a
    list of sentences): ``svg_reward`` (the total), then ``svg_<name>`` for each named
    component (default: all of the family's), all reading one scoring of a completion;
    rows without requirements get None. Picklable (``designrl.tasks.batch``).

    ``runner``: the browser pool to render in (a ``PoolRunner``); None starts this
    process's own on the first call (with ``pool_options``). ``browser=False``
    rasterises with PIL instead, no browser needed. ``judge``: an optional judge for the
    requirements no predicate checks.

    >>> funcs = get_svg_rewards(components=["requirements", "coverage"], browser=False)
    >>> [f.__name__ for f in funcs]
    ['svg_reward', 'svg_requirements', 'svg_coverage']
    >>> sun = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    ...        '<circle cx="50" cy="50" r="30" fill="yellow"/></svg>')
    >>> asked = [["a yellow circle"], ["a yellow circle", "a blue square"]]
    >>> [f(prompts=["Draw"] * 2, completions=[sun] * 2, requirements=asked) for f in funcs]
    [[1.0, 0.6], [1.0, 0.5], [1.0, 1.0]]
    """
    from designrl.tasks.svg import FAMILY

    names = FAMILY.components if components is None else components
    return component_rewards("svg", "requirements", partial(SvgReward, judge=judge), names,
                             FAMILY.components, runner=runner, browser=browser,
                             pool_options=pool_options)


def get_svg_reward(runner: PoolRunner | None = None, judge: Judge | None = None, *,
                   browser: bool = True) -> RewardFunction:
    """The total of ``get_svg_rewards``: one TRL reward function, ``svg_reward``."""
    return get_svg_rewards(runner, judge, (), browser=browser)[0]
