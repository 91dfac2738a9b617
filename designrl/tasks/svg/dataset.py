"""svg task items: a prompt and the requirements a drawing for it must meet.

Two sources, one format (SVGBench's ``questions.json``: a JSON list of
``{"prompt": str, "requirements": [str, ...]}``, optionally with an ``id``):

* ``load_questions(path)``: SVGBench's file, or any file in its format;
* ``load_prompts()``: the small set shipped with designrl (``data/prompts.json``),
  written so most requirements are checkable by computed predicates.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from designrl.tasks.svg.spec import SvgItem


def parse_questions(data: object, source: str = "questions",
                    id_prefix: str = "svgbench") -> list[SvgItem]:
    """Items from decoded JSON in ``questions.json`` format; ``ValueError`` names the bad entry."""
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of questions")
    items: list[SvgItem] = []
    seen: set[str] = set()
    for index, entry in enumerate(data):
        where = f"{source}[{index}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected an object")
        prompt = entry.get("prompt")
        requirements = entry.get("requirements")
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError(f"{where}: 'prompt' must be a non-empty string")
        if (not isinstance(requirements, list) or not requirements
                or not all(isinstance(r, str) and r.strip() for r in requirements)):
            raise ValueError(f"{where}: 'requirements' must be a non-empty list of strings")
        item_id = str(entry.get("id", f"{id_prefix}-{index}"))
        if item_id in seen:
            raise ValueError(f"{where}: duplicate id {item_id!r}")
        seen.add(item_id)
        items.append(SvgItem(item_id, prompt.strip(), tuple(r.strip() for r in requirements)))
    return items


def load_questions(path: str | Path, limit: int | None = None) -> list[SvgItem]:
    """Items of an SVGBench-style ``questions.json``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_questions(data, str(path))[:limit]


def load_prompts() -> list[SvgItem]:
    """designrl's own prompts, packaged with the library."""
    text = resources.files("designrl.tasks.svg").joinpath("data/prompts.json").read_text(
        encoding="utf-8")
    return parse_questions(json.loads(text), "designrl/tasks/svg/data/prompts.json", "designrl")


def split_items(items: Sequence[SvgItem], test_fraction: float = 0.2,
                seed: int = 0) -> tuple[list[SvgItem], list[SvgItem]]:
    """A seeded (train, test) split; the same seed always gives the same split."""
    if not 0 <= test_fraction <= 1:
        raise ValueError("test_fraction must be in [0, 1]")
    order = list(items)
    random.Random(seed).shuffle(order)
    n_test = round(len(order) * test_fraction)
    return order[n_test:], order[:n_test]
