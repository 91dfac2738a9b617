"""The svg family: prompt + requirements -> SVG, scored safely with computed checks and an
optional judge (SVGBench's task).

Files: ``dataset`` (items, SVGBench's ``questions.json``), ``prompt`` (the policy's
prompt), ``extract`` (the SVG in a completion), ``parse`` (safe XML with caps),
``style``/``geometry``/``colors``/``facts`` (what the SVG draws), ``requirements``
(sentence -> predicate), ``predicates`` (the checks), ``page`` (the render page),
``raster`` (a browser-free rasteriser), ``judge`` (OpenAI-compatible judge),
``reward`` (components and total; ``get_svg_reward`` is its batch reward function).
"""

from designrl.tasks.svg.dataset import SvgItem, load_prompts, load_questions, split_items
from designrl.tasks.svg.judge import JudgeVerdict, OpenAIJudge
from designrl.tasks.svg.prompt import build_messages, build_prompt
from designrl.tasks.svg.reward import (
    RequirementResult,
    SvgReward,
    SvgScore,
    get_svg_reward,
    score_svg,
)

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
    "load_prompts",
    "load_questions",
    "score_svg",
    "split_items",
]
