"""The html reward through real Chromium: both ladders rank in order, a page scores about 1
against itself and a nearly blank one about 0, pages render at their own viewport, and bad
completions fail cleanly."""

import asyncio
import statistics
import time

import pytest
from scipy.stats import spearmanr
from shared_data import require_shared

from designrl.tasks.html.dataset import load_design2code
from designrl.tasks.html.degrade import near_blank
from designrl.tasks.html.ladders import kind_of, ladders
from designrl.tasks.html.reward import HtmlReward
from designrl.tasks.html.visual import decode_png

PAGES = 4  # the bench runs all 41 dev pages (bench/html_reward_validity.py)


def _pool():
    pytest.importorskip("playwright")
    from designrl.render.pool import BrowserPool

    return BrowserPool(pages_per_browser=4, timeout_s=15)


@pytest.mark.integration
def test_ladders_rank_in_order_and_self_scores_high():
    items = load_design2code(require_shared("data/design2code"), limit=PAGES)
    assert len(items) == PAGES
    found = ladders(items=items, task="design2code") + ladders()[:4]

    async def run():
        async with _pool() as pool:
            reward = HtmlReward(pool)
            out = []
            for ladder in found:
                scores = await asyncio.gather(*(reward.score(ladder.item.html, h)
                                                for _, h in ladder.rungs))
                blank = await reward.score(ladder.item.html, near_blank(ladder.item.html))
                out.append((ladder, scores, blank))
            return out

    rhos: dict[str, list[float]] = {}
    for ladder, scores, blank in asyncio.run(run()):
        totals = [s.total for s in scores]
        assert totals[0] >= 0.95, (ladder.item.id, scores[0].components)
        assert totals[-1] == 0.0 and scores[-1].error == "blank_page"
        assert all(0.0 <= t <= 1.0 for t in totals)
        assert blank.total <= 0.15 and blank.components["visual"] <= 0.2, (ladder.item.id, blank)
        rhos.setdefault(kind_of(ladder), []).append(
            spearmanr(range(len(totals)), [-t for t in totals]).statistic)
    for kind, values in rhos.items():
        assert statistics.fmean(values) >= 0.9 and min(values) >= 0.8, (kind, values)


@pytest.mark.integration
def test_a_page_designed_for_640_px_is_scored_at_640_px():
    page = ("<!DOCTYPE html><html><head><meta name='viewport' content='width=640'>"
            "<style>body{margin:0;font:16px sans-serif}.bar{background:#235;color:#fff;"
            "padding:20px}</style></head><body><div class='bar'>Harbour Bakery</div>"
            "<p>Fresh bread every morning, baked by hand before sunrise.</p></body></html>")

    async def run():
        async with _pool() as pool:
            reward = HtmlReward(pool)
            return await reward.score(page, page), await reward.reference(page)

    score, reference = asyncio.run(run())
    assert reference.viewport == (640, 800)
    assert decode_png(score.candidate_png).shape[1] == 640
    assert decode_png(score.reference_png).shape[1] == 640
    assert score.total >= 0.95, score.components


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
        assert score.total <= 0.5 and seconds < 60, (completion[:40], score)
        if expected:
            assert score.error and expected in score.error, (completion[:40], score.error)
    assert ok.total >= 0.95


@pytest.mark.integration
def test_a_reference_that_times_out_is_an_infrastructure_failure_tried_again():
    """A dataset page rendered when the dataset was checked: timing out now is the
    renderer's load, not the design's, so never a score and never cached."""
    from designrl.render.types import InfrastructureError

    spinning = "<html><body><p>Menu</p><script>while (true) {}</script></body></html>"
    page = "<html><body><h1>Harbour Bakery</h1><p>Fresh bread daily.</p></body></html>"

    async def run():
        async with _pool() as pool:
            reward = HtmlReward(pool)
            with pytest.raises(InfrastructureError, match="timeout"):
                await reward.score(spinning, page)
            cached_after_failure = spinning in reward._references
            column = await reward.score_column(spinning, page)
            return cached_after_failure, column, await reward.score(page, page)

    cached_after_failure, column, ok = asyncio.run(run())
    assert not cached_after_failure  # the next try renders the reference again
    assert column is None  # TRL's reward functions: no reward for the row, not 0
    assert ok.total >= 0.95  # the pool still serves
