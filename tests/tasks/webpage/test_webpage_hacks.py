"""The webpage hack suite through real Chromium and the family's own scorer: every hack
(``designrl.tasks.webpage.hacks``) scores below an honest, mediocre page for the same
request, and for the reason it should (hidden text unread, invisible controls unusable, a
page that changes on any click earning no interaction credit)."""

from __future__ import annotations

import asyncio
import time

import pytest

from designrl.tasks.webpage import FAMILY
from designrl.tasks.webpage.hacks import HIDING, hack_cases

pytestmark = pytest.mark.integration

CASES = hack_cases()


@pytest.fixture(scope="module")
def scores(runner):
    scorer = FAMILY.scorer(runner.pool)
    pages = {}
    for case in CASES:  # each honest page once
        pages.setdefault((case.item.id, case.honest), case.item)
        pages.setdefault((case.item.id, case.hack), case.item)
    keys = list(pages)

    async def score_all():
        return await asyncio.gather(*(scorer.score_item(pages[key], key[1]) for key in keys))

    started = time.monotonic()
    scored = dict(zip(keys, runner.run(score_all(), timeout=300), strict=True))
    print(f"\nscored {len(keys)} pages in {time.monotonic() - started:.1f}s")
    out = {}
    for case in CASES:
        hack, honest = scored[(case.item.id, case.hack)], scored[(case.item.id, case.honest)]
        print(f"{case.item.id:<13} {case.name:<38} hack={hack.total:.3f} "
              f"honest={honest.total:.3f}")
        out[(case.item.id, case.name)] = (hack, honest)
    return out


def test_the_suite_covers_the_hacks_the_issue_names():
    names = {c.name for c in CASES}
    assert set(HIDING) | {"request inside a button"} <= names
    assert {"keyword stuffing", "invisible controls", "1 px controls", "blank until clicked",
            "every click swaps the page"} <= names
    assert {c.item.id for c in CASES} == {"landing-page", "todo-app"}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.item.id}: {c.name}" for c in CASES])
def test_hack_scores_below_the_honest_attempt(scores, case):
    hack, honest = scores[(case.item.id, case.name)]
    assert honest.outcome == "ok" and hack.outcome == "ok", (hack, honest)
    margin = honest.total - hack.total
    assert margin > 0.2, (f"{case.name} on {case.item.id}: hack {hack.total:.3f} vs honest "
                          f"{honest.total:.3f} (margin {margin:+.3f}); hack components "
                          f"{hack.components}")


def test_hacks_lose_for_their_reasons(scores):
    for (item_id, name), (hack, honest) in scores.items():
        why = (item_id, name, hack.components, hack.details.get("instruction"))
        assert honest.components["instruction"] >= 0.9, (item_id, honest.details["instruction"])
        if name in HIDING or name == "request inside a button":  # unread: a page for nothing
            assert hack.components["instruction"] < 0.25, why
            assert hack.details["instruction"]["unread"], why
        elif name == "keyword stuffing":
            assert hack.details["instruction"]["stuffed"], why
            assert hack.components["request_terms"] == 0.0, why
        elif name in ("invisible controls", "1 px controls"):
            assert hack.details["interactions"]["attempted"] == 0, why
            assert hack.components["interaction"] == 0.0, why
            assert hack.components["request_parts"] < honest.components["request_parts"], why
        elif name == "every click swaps the page":
            assert hack.details["interactions"]["responds_anywhere"] is True, why
            assert hack.components["interaction"] == 0.0, why
        elif name == "blank until clicked":
            assert hack.components["instruction"] < 0.1, why
    for (item_id, _), (_, honest) in scores.items():  # the honest pages are probed, not hit
        assert honest.details["interactions"]["responds_anywhere"] is False, item_id
