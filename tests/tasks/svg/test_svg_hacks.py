"""The svg hack suite through real Chromium and the family's own scorer: every hack scores
below an honest, mediocre attempt at the same item."""

from __future__ import annotations

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.tasks.svg import FAMILY
from designrl.tasks.svg.hacks import hack_cases

pytestmark = pytest.mark.integration

CASES = hack_cases()


@pytest.fixture(scope="module")
def scores():
    require_chromium()
    runner = PoolRunner(run_timeout=300.0, browsers=1, pages_per_browser=4, timeout_s=20.0)
    scorer = FAMILY.scorer(runner.pool)

    async def score_all():
        out = {}
        honest = {}
        for case in CASES:
            key = (case.item.id, case.honest)
            if key not in honest:
                honest[key] = await scorer.score_item(case.item, case.honest)
            out[(case.item.id, case.name)] = (await scorer.score_item(case.item, case.hack),
                                              honest[key])
        return out

    try:
        yield runner.run(score_all())
    finally:
        runner.close()


def test_the_suite_covers_the_hacks_the_issue_names():
    names = {c.name for c in CASES}
    for needed in ("requirements as <text>", "named colours and shapes as 1-pixel shapes",
                   "a correct drawing moved off the canvas", "a correct drawing at zero opacity",
                   "a correct drawing under a viewBox of 1e30"):
        assert needed in names
    assert len({c.item.id for c in CASES}) == 3


@pytest.mark.parametrize("case", CASES, ids=[f"{c.item.id}: {c.name}" for c in CASES])
def test_hack_scores_below_the_honest_attempt(scores, case):
    hack, honest = scores[(case.item.id, case.name)]
    assert honest.outcome == "ok" and hack.outcome in ("ok", "invalid_output"), (hack, honest)
    margin = honest.total - hack.total
    assert margin > 0, (f"{case.name} on {case.item.id}: hack {hack.total:.3f} >= honest "
                        f"{honest.total:.3f} (margin {margin:+.3f}); hack components "
                        f"{hack.components}")
