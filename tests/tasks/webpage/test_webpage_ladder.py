"""The webpage reward through real Chromium ranks the family's ladders in order
(``designrl.tasks.webpage.ladders``), scored as episodes score them (``score_item``).

Each ladder is one prompt's pages from best to worst: a good page (clean,
accessible, responsive), poor contrast and tiny targets, overlapping / clipped
text with no alignment, controls that do nothing, a script error on load, and a
blank page. Every rung answers its request.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import pytest
from scipy.stats import spearmanr

from designrl.tasks.webpage import FAMILY
from designrl.tasks.webpage.ladders import RUNGS, ladders

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def scored(runner):
    scorer = FAMILY.scorer(runner.pool)
    found = ladders()
    assert len(found) == 4 and all(ladder.names == RUNGS for ladder in found)

    async def score_all():  # all 24 pages at once: the pool's 4 pages stay busy
        scores = await asyncio.gather(*(scorer.score_item(ladder.item, completion)
                                        for ladder in found for _, completion in ladder.rungs))
        return {ladder.item.id: scores[i * len(RUNGS):(i + 1) * len(RUNGS)]
                for i, ladder in enumerate(found)}

    started = time.monotonic()
    scores = runner.run(score_all(), timeout=240)
    print(f"\nscored {len(scores) * len(RUNGS)} pages in {time.monotonic() - started:.1f}s")
    for name, row in scores.items():
        print(f"{name:<14}" + " ".join(f"{rung}={s.total:.3f}" for rung, s in zip(RUNGS, row,
                                                                                  strict=True)))
    return scores


def test_ladders_rank_in_order(scored):
    rhos = []
    for name, scores in scored.items():
        totals = [s.total for s in scores]
        assert all(0.0 <= t <= 1.0 for t in totals), (name, totals)
        rho = spearmanr(range(len(totals)), [-t for t in totals]).statistic
        rhos.append(rho)
        assert rho >= 0.8, (name, totals)
    print(f"mean Spearman {statistics.fmean(rhos):.3f}")
    assert statistics.fmean(rhos) >= 0.95, rhos


def test_rungs_fail_for_their_reasons(scored):
    for name, scores in scored.items():
        by_rung = dict(zip(RUNGS, scores, strict=True))
        good = by_rung["good"]
        assert good.total >= 0.9 and good.outcome == "ok", (name, good.components)
        assert good.components["interaction"] == 1.0, (name, good.details["interactions"])
        assert good.components["axe"] == 1.0, (name, good.details["static"]["axe"])
        assert good.components["instruction"] >= 0.75, (name, good.details["instruction"])
        contrast = by_rung["contrast"].components
        assert contrast["axe"] < 0.5 and contrast["contrast"] < 0.6, (name, contrast)
        overlap = by_rung["overlap"].components
        assert overlap["overlap"] < 0.5 and overlap["text_fit"] < 0.8, (name, overlap)
        dead = by_rung["dead"]
        assert dead.components["interaction"] == 0.0, (name, dead.details["interactions"])
        assert dead.details["interactions"]["attempted"] > 0
        jserror = by_rung["jserror"]
        assert jserror.components["no_page_errors"] == 0.0
        assert jserror.components["execution"] < 1.0
        blank = by_rung["blank"]
        assert blank.total == 0.0 and blank.components["non_blank"] == 0.0


def test_every_component_is_named_and_in_range(scored):
    expected = {"loads", "non_blank", "no_page_errors", "stable", "execution", "axe",
                "contrast", "overlap", "text_fit", "alignment", "type_scale", "whitespace",
                "color_harmony", "static", "interaction", "instruction", "request_parts",
                "request_terms"}
    assert expected <= set(FAMILY.components)
    for scores in scored.values():
        for score in scores:
            assert expected <= set(score.components), set(score.components) ^ expected
            assert all(0.0 <= v <= 1.0 for v in score.components.values()), score.components
            json.dumps(score.details)  # details are plain data, ready to store
