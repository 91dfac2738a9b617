"""webpage family: prompt -> interactive page, scored for execution, static aesthetics and
interaction (AesCoder / OpenDesign's task, with computed rewards and an optional judge).

``WebpageReward(pool).score(completion, prompt)`` is the entry point (``get_webpage_reward``
its batch reward function, TRL's signature); the pure checks
behind each static component live in ``layout``, ``typography``, ``colour``, ``space``
and ``axe``, and can be run on a ``RenderResult`` and a screenshot without a browser.
"""

from designrl.tasks.webpage.dataset import WebpageItem, load_prompts, split_items
from designrl.tasks.webpage.extract import extract_page
from designrl.tasks.webpage.judge import JudgeVerdict, OpenAIJudge
from designrl.tasks.webpage.prompt import build_messages
from designrl.tasks.webpage.reward import (
    WebpageReward,
    WebpageScore,
    get_webpage_reward,
    total_score,
)

__all__ = [
    "JudgeVerdict",
    "OpenAIJudge",
    "WebpageItem",
    "WebpageReward",
    "WebpageScore",
    "build_messages",
    "extract_page",
    "get_webpage_reward",
    "load_prompts",
    "split_items",
    "total_score",
]
