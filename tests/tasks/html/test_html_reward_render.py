"""The html reward through real Chromium: ladders rank in order, bad completions fail cleanly."""

import asyncio
import statistics
import time

import pytest
from scipy.stats import spearmanr
from shared_data import require_shared

from designrl.tasks.html.dataset import load_design2code
from designrl.tasks.html.degrade import ladder
from designrl.tasks.html.reward import HtmlReward

PAGES = 6  # the bench runs all 41 dev pages (bench/html_reward_validity.py)


def _pool():
    pytest.importorskip("playwright")
    from designrl.render.pool import BrowserPool

    return BrowserPool(pages_per_browser=4, timeout_s=15)


@pytest.mark.integration
def test_ladders_rank_in_order_and_self_scores_high():
    items = load_design2code(require_shared("data/design2code"), limit=PAGES)
    assert len(items) == PAGES

    async def run():
        async with _pool() as pool:
            reward = HtmlReward(pool)
            out = []
            for item in items:
                steps = ladder(item.html, seed=0)
                out.append(await asyncio.gather(*(reward.score(item.html, h) for _, h in steps)))
            return out

    ladders = asyncio.run(run())
    rhos = []
    for scores in ladders:
        totals = [s.total for s in scores]
        assert totals[0] >= 0.95 and scores[0].components["design2code"] >= 0.95
        assert totals[-1] == 0.0 and scores[-1].error == "blank_page"
        assert all(0.0 <= t <= 1.0 for t in totals)
        rhos.append(spearmanr(range(len(totals)), [-t for t in totals]).statistic)
    assert statistics.fmean(rhos) >= 0.9, rhos


@pytest.mark.integration
def test_bad_completions_are_scored_failures():
    reference = require_shared("data/design2code/2.html").read_text()
    cases = {
        "no document here": "no_html_document",
        "x" * 50_000_000: "completion_too_large",
        "<html><body><script>while (true) {}</script></body></html>": "timeout",
        "<html><body><script>for (;;) alert(1)</script><p>hi</p></body></html>": None,
    }

    async def run():
        async with _pool() as pool:
            reward = HtmlReward(pool)
            out = {}
            for completion, _ in cases.items():
                started = time.monotonic()
                score = await reward.score(reference, completion)
                out[completion[:40]] = (score, time.monotonic() - started)
            ok = await reward.score(reference, reference)  # the pool still serves
            return out, ok

    results, ok = asyncio.run(run())
    for (completion, expected), (score, seconds) in zip(cases.items(), results.values(), strict=True):
        assert score.total <= 0.5 and seconds < 30, (completion[:40], score)
        if expected:
            assert score.error and expected in score.error, (completion[:40], score.error)
    assert ok.total >= 0.95
