"""The html family: screenshot → HTML, scored against the reference page's render.

Files: ``dataset`` (Design2Code folders, WebSight JSONL), ``prompt`` (the screenshot
and the brief), ``extract`` (the HTML in a completion), ``viewport`` (the width a
reference is designed for), ``capture`` (a page rendered with and without its text),
``text_blocks``, ``appearance``, ``visual`` and ``structure`` (the metrics),
``colour_blocks`` (Design2Code's colour-injection blocks, an option), ``css`` and
``degrade`` (worse copies of a page), ``ladders`` and ``hacks`` (what the reward must
rank in order, and what it must not pay), ``reward`` (``HtmlReward``, and
``get_html_rewards``, its TRL reward functions).
"""

from __future__ import annotations

from pathlib import Path

from designrl.tasks.family import Family, Task


def _generate(seed: int):
    from designrl.tasks.html.generate import generate_item
    return generate_item(seed)


def _design2code(path: Path | None):
    from designrl.tasks.html.dataset import load_design2code
    return load_design2code(path)


def _websight(path: Path | None):
    from designrl.tasks.html.dataset import iter_websight
    return list(iter_websight(path))


def _messages(item, screenshot: bytes | None):
    from designrl.tasks.html.prompt import build_messages
    return build_messages(screenshot)


def _extract(completion: str) -> str | None:
    from designrl.tasks.html.extract import extract_html
    return extract_html(completion)[0]


def _scorer(pool):
    from designrl.tasks.html.reward import HtmlReward
    return HtmlReward(pool)


def _reference(item, seed: int) -> str:
    from designrl.policies.html_bounds import reference_page
    return reference_page(item, seed)


def _blank(item, seed: int) -> str:
    from designrl.policies.html_bounds import blank_page
    return blank_page(item, seed)


def _viewport(html: str) -> tuple[int, int]:
    from designrl.tasks.html.viewport import page_viewport
    return page_viewport(html)


def _picture_page(completion: str) -> tuple[str, tuple[int, int]]:
    """The page at the width it declares (the reward draws a candidate at its reference's)."""
    html = _extract(completion)
    if html is None:
        raise ValueError("no HTML document in the output (no <html> element)")
    return html, _viewport(html)


def _batch_rewards(runner=None, components=None, **options):
    from designrl.tasks.html.reward import get_html_rewards
    return get_html_rewards(runner, components=components, **options)


FAMILY = Family(
    name="html", summary="screenshot -> HTML/CSS, scored against the reference's render",
    tasks=(Task("gen-html", "html", "generated pages; items are seeds", generate=_generate),
           Task("design2code", "html", "a Design2Code-style folder of N.html pages",
                needs_path=True, load=_design2code),
           Task("websight", "html", "a WebSight-style JSONL file (html or text per line)",
                needs_path=True, load=_websight)),
    policies={"reference": _reference, "blank": _blank}, oracles=("reference",),
    components=("content", "appearance", "text", "position", "color", "font", "visual",
                "ssim", "palette", "histogram", "layout", "structure", "block_match",
                "design2code", "format", "validity", "clean"),
    messages=_messages, reference=lambda item: item.html, reference_viewport=_viewport,
    extract=_extract, scorer=_scorer, picture_page=_picture_page,
    batch_rewards=_batch_rewards, column="reference_html",
    column_value=lambda item: item.html,
)
