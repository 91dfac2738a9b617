"""Instruction alignment gates the webpage reward, through real Chromium and the family's
scorer: on every shipped request, a well-made page that ignores the request (the template
policy's page for another request, a polished counter page) scores at most half of the
template's page for the request. The held-out requests (``data/heldout_prompts.json``,
never tuned on) are measured against plain pages written for them
(``data/heldout_pages.json``), since the template policy cannot read most of them."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace

import pytest
from webpage_support import DATA

from designrl.tasks.webpage import FAMILY, load_prompts
from designrl.tasks.webpage.ladders import fenced
from designrl.tasks.webpage.off_request import OFF_REQUEST_SHARE, off_request_cases

pytestmark = pytest.mark.integration


def score_cases(runner, cases):
    scorer = FAMILY.scorer(runner.pool)

    async def score_all():
        jobs = [(case, name, completion) for case in cases
                for name, completion in (("own", case.own), *case.ignoring)]
        scores = await asyncio.gather(*(scorer.score_item(case.item, completion)
                                        for case, _, completion in jobs))
        out: dict = {}
        for (case, name, _), score in zip(jobs, scores, strict=True):
            out.setdefault(case.item.id, {})[name] = score
        return out

    started = time.monotonic()
    scores = runner.run(score_all(), timeout=300)
    print(f"\nscored {sum(map(len, scores.values()))} pages in "
          f"{time.monotonic() - started:.1f}s")
    for item_id, row in scores.items():
        own = row["own"].total
        print(f"{item_id:<18} own={own:.3f} (instruction "
              f"{row['own'].components['instruction']:.2f}) " + " ".join(
                  f"{name}={s.total:.3f} ({s.total / own if own else float('nan'):.2f})"
                  for name, s in row.items() if name != "own"))
    return scores


def test_pages_that_ignore_the_request_score_at_most_half(runner):
    scores = score_cases(runner, off_request_cases())
    for item_id, row in scores.items():
        own = row.pop("own")
        assert own.outcome == "ok" and own.components["instruction"] >= 0.75, (
            item_id, own.details["instruction"])
        for name, score in row.items():
            assert score.total <= OFF_REQUEST_SHARE * own.total, (
                f"{item_id}: {name} {score.total:.3f} > {OFF_REQUEST_SHARE} x own "
                f"{own.total:.3f}; {score.details.get('instruction')}")


def test_held_out_requests(runner):
    """Requests never tuned on, each with a plain page written for it
    (``data/heldout_pages.json``): pages that ignore the request score at most half of it."""
    honest = json.loads((DATA / "heldout_pages.json").read_text(encoding="utf-8"))
    items = [item for item in load_prompts(DATA / "heldout_prompts.json") if item.id in honest]
    cases = [replace(case, own=fenced(honest[case.item.id])) for case in off_request_cases(items)]
    scores = score_cases(runner, cases)
    assert len(scores) == len(honest) >= 5
    for item_id, row in scores.items():
        own = row.pop("own")
        assert own.outcome == "ok" and own.total > 0.3, (item_id, own.components)
        for name, score in row.items():
            assert score.total <= OFF_REQUEST_SHARE * own.total, (item_id, name, score.total,
                                                                  own.total)
