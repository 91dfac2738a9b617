"""The html reward's ladders: for each page, two runs of ever worse copies (``degrade``).

* ``degrade`` (the first ladder): the reference, small text edits, changed colours,
  shuffled layout, styles removed, text removed, blank;
* ``style`` (Design2Code-style, style only): the reference, a minor text edit, colours
  changed, the later half of the page unstyled, the layout declarations removed, all
  styles removed, blank.

Pages are the Design2Code dev pages of a folder when one is given (task
``design2code``), else generated pages (task ``gen-html``, ``GEN_SEEDS``, test split).
``bench/html_reward_validity.py``, ``bench/reward_validity.py`` and
``tests/tasks/html`` score them through ``FAMILY.scorer(pool).score_item``; a reward
that measures the right thing scores every ladder in its order (Spearman near 1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from designrl.tasks.html.degrade import LADDER, STYLE_LADDER, ladder, style_ladder
from designrl.tasks.html.generate import TEST_SEED_START, generate_item
from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.integrity import Ladder

KINDS: dict[str, tuple[tuple[str, ...], Callable[[str, int], list[tuple[str, str]]]]] = {
    "degrade": (LADDER, ladder),
    "style": (STYLE_LADDER, style_ladder),
}
GEN_SEEDS = tuple(TEST_SEED_START + k for k in range(6))


def kind_of(found: Ladder) -> str:
    """Which of ``KINDS`` a ladder is (by its rungs' names)."""
    for kind, (names, _) in KINDS.items():
        if found.names == names:
            return kind
    raise ValueError(f"not an html ladder: {found.names}")


def page_items(pages: str | Path | None = None, limit: int | None = None,
               seeds: Sequence[int] = GEN_SEEDS) -> tuple[str, list[HtmlItem]]:
    """(task id, items): the folder's Design2Code pages, or generated pages."""
    if pages is not None:
        from designrl.tasks.html.dataset import load_design2code
        return "design2code", load_design2code(pages, limit=limit)
    chosen = list(seeds)[:limit] if limit else list(seeds)
    return "gen-html", [generate_item(seed) for seed in chosen]


def ladders(pages: str | Path | None = None, limit: int | None = None, seed: int = 0,
            kinds: Sequence[str] = tuple(KINDS), seeds: Sequence[int] = GEN_SEEDS,
            items: Sequence[HtmlItem] | None = None, task: str | None = None) -> list[Ladder]:
    """Every ``kinds`` ladder for each page, in page order (``pages``: a Design2Code
    folder; None: generated pages; ``items`` overrides both)."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown html ladder {unknown[0]!r}; known: {', '.join(KINDS)}")
    if items is None:
        task, items = page_items(pages, limit, seeds)
    task = task or "gen-html"
    return [Ladder(task, item, tuple(KINDS[kind][1](item.html, seed)))
            for item in items for kind in kinds]
