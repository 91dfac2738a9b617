"""The html hack suite through real Chromium and the family's own scorer: every hack
scores below an honest, mediocre attempt at the same generated page (no shared data)."""

from __future__ import annotations

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.tasks.html import FAMILY
from designrl.tasks.html.capture import capture_page
from designrl.tasks.html.hacks import DEFAULT_SEEDS, HACKS, default_items, hack_cases
from designrl.tasks.html.viewport import page_viewport

pytestmark = pytest.mark.integration

NAMES = tuple(HACKS)


@pytest.fixture(scope="module")
def scores():
    require_chromium()
    runner = PoolRunner(run_timeout=600.0, browsers=1, pages_per_browser=4, timeout_s=20.0)
    scorer = FAMILY.scorer(runner.pool)
    items = default_items()

    async def shot(item):
        return (await capture_page(runner.pool, item.html, page_viewport(item.html))).render.png

    async def score_all():
        import asyncio

        shots = dict(zip([i.id for i in items],
                         await asyncio.gather(*(shot(i) for i in items)), strict=True))
        cases = hack_cases(lambda item: shots[item.id], items)
        honest = {}
        for case in cases:
            if case.item.id not in honest:
                honest[case.item.id] = await scorer.score_item(case.item, case.honest)
        hacks = await asyncio.gather(*(scorer.score_item(c.item, c.hack) for c in cases))
        return {(c.item.id, c.name): (h, honest[c.item.id])
                for c, h in zip(cases, hacks, strict=True)}

    try:
        yield runner.run(score_all())
    finally:
        runner.close()


def test_the_suite_covers_the_hacks_the_issue_names():
    for needed in ("text_in_one_block", "text_like_background", "colour_rectangles",
                   "screenshot_image", "screenshot_over_page"):
        assert needed in NAMES
    assert len(DEFAULT_SEEDS) == 3


@pytest.mark.parametrize("seed", DEFAULT_SEEDS)
@pytest.mark.parametrize("name", NAMES)
def test_hack_scores_below_the_honest_attempt(scores, seed, name):
    hack, honest = scores[(f"gen-html-{seed}", name)]
    assert honest.outcome == "ok" and 0.3 <= honest.total < 0.9, honest
    margin = honest.total - hack.total
    assert hack.outcome in ("ok", "invalid_output"), hack
    assert margin > 0.15, (f"{name} on gen-html-{seed}: hack {hack.total:.3f} vs honest "
                           f"{honest.total:.3f} (margin {margin:+.3f}); hack components "
                           f"{hack.components}")
