"""webpage family: prompt -> interactive page, scored for execution, static aesthetics and
interaction (AesCoder / OpenDesign's task, with computed rewards and an optional judge).

``WebpageReward(pool).score(completion, prompt)`` is the entry point (``get_webpage_rewards``
its TRL reward functions); the pure checks
behind each static component live in ``layout``, ``typography``, ``colour``, ``space``
and ``axe``, and can be run on a ``RenderResult`` and a screenshot without a browser.
Instruction alignment (does the page follow the request?) is ``requirements`` (the request
read into checkable parts and terms), ``content`` (what the rendered page shows a person)
and ``alignment`` (the score, which also gates the total). ``ladders``, ``hacks`` and
``off_request`` hold the pages that keep the reward honest.
"""

from __future__ import annotations

from designrl.tasks.family import Family, Task
from designrl.tasks.webpage.dataset import load_prompts, split_items
from designrl.tasks.webpage.extract import extract_page
from designrl.tasks.webpage.judge import JudgeVerdict, OpenAIJudge
from designrl.tasks.webpage.prompt import build_messages
from designrl.tasks.webpage.reward import (
    WebpageReward,
    WebpageScore,
    get_webpage_reward,
    get_webpage_rewards,
    total_score,
)
from designrl.tasks.webpage.spec import WebpageItem

__all__ = [
    "JudgeVerdict",
    "OpenAIJudge",
    "WebpageItem",
    "WebpageReward",
    "WebpageScore",
    "build_messages",
    "extract_page",
    "get_webpage_reward",
    "get_webpage_rewards",
    "load_prompts",
    "split_items",
    "total_score",
]


PAGE_VIEWPORT = (1280, 800)  # the render pool's default, where the reward loads a page


def _template(item, seed: int) -> str:
    from designrl.policies.webpage_template import build_page
    return build_page(item, seed)


def _batch_rewards(runner=None, components=None, **options):
    from designrl.tasks.webpage.reward import get_webpage_rewards
    return get_webpage_rewards(runner, components=components, **options)


def _picture_page(completion: str) -> tuple[str, tuple[int, int]]:
    """The page's first screen, at the viewport the reward loads it in."""
    html, _ = extract_page(completion)
    if html is None:
        raise ValueError("no page in the output (no HTML document)")
    return html, PAGE_VIEWPORT


def _plain(item, seed: int) -> str:
    from designrl.policies.webpage_plain import plain_page
    return plain_page(item, seed)


FAMILY = Family(
    name="webpage", summary="prompt -> interactive page: runs, looks designed, responds",
    tasks=(Task("webpage-prompts", "webpage",
                "designrl's own webpage requests (or a file in their format)",
                path_optional=True, load=load_prompts),),
    policies={"template": _template, "plain": _plain},
    components=("execution", "static", "instruction", "interaction", "judge", "loads", "non_blank",
                "no_page_errors", "stable", "axe", "contrast", "overlap", "text_fit",
                "alignment", "type_scale", "whitespace", "color_harmony", "request_parts",
                "request_terms"),
    messages=lambda item, screenshot: build_messages(item),
    extract=lambda completion: extract_page(completion)[0],
    scorer=lambda pool, judge=None: WebpageReward(pool, judge), judge=OpenAIJudge,
    picture_page=_picture_page,
    batch_rewards=_batch_rewards, column="request",
    column_value=lambda item: item.prompt,
)
