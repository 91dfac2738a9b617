"""webpage task items: a user's request for an interactive page.

``load_prompts()`` reads the set shipped with designrl (``data/prompts.json``: a
JSON list of ``{"id", "category", "prompt"}``, categories after OpenDesign's
website / app / game / UI component / data visualisation); ``split_items`` makes
a seeded train/test split.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from designrl.tasks.webpage.spec import WebpageItem


def parse_prompts(data: object, source: str = "prompts") -> list[WebpageItem]:
    """Items from decoded JSON; ``ValueError`` names the bad entry."""
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of prompts")
    items: list[WebpageItem] = []
    seen: set[str] = set()
    for index, entry in enumerate(data):
        where = f"{source}[{index}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected an object")
        prompt = entry.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError(f"{where}: 'prompt' must be a non-empty string")
        item_id = str(entry.get("id", f"webpage-{index}"))
        if item_id in seen:
            raise ValueError(f"{where}: duplicate id {item_id!r}")
        seen.add(item_id)
        items.append(WebpageItem(item_id, prompt.strip(), str(entry.get("category", "website"))))
    return items


def load_prompts(path: str | Path | None = None) -> list[WebpageItem]:
    """The shipped prompts, or those of a file in the same format."""
    if path is None:
        text = resources.files("designrl.tasks.webpage").joinpath("data/prompts.json").read_text(
            encoding="utf-8")
        source = "designrl.tasks.webpage/data/prompts.json"
    else:
        text, source = Path(path).read_text(encoding="utf-8"), str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_prompts(data, source)


def split_items(items: Sequence[WebpageItem], test_share: float = 0.2,
                seed: int = 0) -> tuple[list[WebpageItem], list[WebpageItem]]:
    """(train, test), shuffled with ``seed``; at least one test item when there are two."""
    order = list(items)
    random.Random(seed).shuffle(order)
    n_test = min(len(order) - 1, max(1, round(test_share * len(order)))) if len(order) > 1 else 0
    return order[n_test:], order[:n_test]
