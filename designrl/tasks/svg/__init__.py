"""The svg family: prompt + requirements -> SVG, scored safely with computed checks and an
optional judge (SVGBench's task).

Files: ``spec`` (items), ``dataset`` (SVGBench's ``questions.json``, our prompts),
``prompt`` (the policy's prompt), ``extract`` (the SVG in a completion), ``parse`` (safe XML
with caps), ``style``/``geometry``/``facts`` (what the SVG draws), ``colour_names`` (colour
values and the words for them), ``visibility`` (which shapes the render shows), ``pixels``
(colour masks of the render), ``requirements`` (whole sentence -> predicate), ``predicates``
(the checks), ``reader`` (free-text sentence -> atoms), ``atoms`` (their checks: passed,
failed or undecided), ``page`` (the render page), ``raster`` (a browser-free rasteriser),
``judge`` (OpenAI-compatible judge), ``reward`` (components and total; ``get_svg_rewards``
its TRL reward functions), ``ladders`` and ``hacks`` (what keeps the reward honest),
``agreement`` (verdicts against truth tables, for ``bench/svg_requirements.py``),
``svgbench_score`` (SVGBench's score of a benchmark's episodes, computed and judged, and how
far the two agree).
"""

from __future__ import annotations

from pathlib import Path

from designrl.tasks.family import Family, Task
from designrl.tasks.svg.dataset import load_prompts, load_questions, split_items
from designrl.tasks.svg.judge import JudgeVerdict, OpenAIJudge
from designrl.tasks.svg.prompt import build_messages, build_prompt
from designrl.tasks.svg.reward import (
    RequirementResult,
    SvgReward,
    SvgScore,
    get_svg_reward,
    get_svg_rewards,
    score_svg,
)
from designrl.tasks.svg.spec import SvgItem

__all__ = [
    "JudgeVerdict",
    "OpenAIJudge",
    "RequirementResult",
    "SvgItem",
    "SvgReward",
    "SvgScore",
    "build_messages",
    "build_prompt",
    "get_svg_reward",
    "get_svg_rewards",
    "load_prompts",
    "load_questions",
    "score_svg",
    "split_items",
]


def _generate(seed: int):
    from designrl.tasks.svg.generate import generate_item
    return generate_item(seed)


def _svgbench(path: Path | None):
    return load_questions(path)


def _expert(item, seed: int) -> str:
    from designrl.policies.svg_expert import draw_svg
    return draw_svg(item, seed)


def _random(item, seed: int) -> str:
    from designrl.policies.svg_random import random_svg
    return random_svg(item, seed)


def _extract(completion: str) -> str | None:
    from designrl.tasks.svg.extract import extract_svg
    return extract_svg(completion).svg


def _picture_page(completion: str) -> tuple[str, tuple[int, int]]:
    """The SVG as the reward draws it: parsed safely, on its square page."""
    from designrl.tasks.svg.page import PAGE_SIZE, svg_page
    from designrl.tasks.svg.reward import prepare

    prepared = prepare(completion)
    if isinstance(prepared, tuple):
        raise ValueError(f"no SVG to draw ({prepared[0]})")
    return svg_page(prepared.markup, PAGE_SIZE), (PAGE_SIZE, PAGE_SIZE)


def _figures(rows: list[dict], judged: bool) -> dict:
    from designrl.tasks.svg.svgbench_score import svgbench_figures
    return svgbench_figures(rows, judged)


def _batch_rewards(runner=None, components=None, **options):
    from designrl.tasks.svg.reward import get_svg_rewards
    return get_svg_rewards(runner, components=components, **options)


FAMILY = Family(
    name="svg", summary="prompt + requirements -> SVG, checked on the render and the geometry",
    tasks=(Task("gen-svg", "svg", "generated scenes; items are seeds", generate=_generate),
           Task("svg-prompts", "svg", "designrl's own prompts with requirements",
                load=lambda path: load_prompts()),
           Task("svgbench", "svg", "SVGBench's questions.json (or a file in its format)",
                needs_path=True, load=_svgbench)),
    policies={"expert": _expert, "random": _random},
    components=("requirements", "coverage", "judge", "non_blank", "format", "validity"),
    messages=lambda item, screenshot: build_messages(item), extract=_extract,
    scorer=lambda pool, judge=None: SvgReward(pool, judge), judge=OpenAIJudge,
    figures=_figures, picture_page=_picture_page,
    batch_rewards=_batch_rewards, column="requirements",
    column_value=lambda item: list(item.requirements),
)
