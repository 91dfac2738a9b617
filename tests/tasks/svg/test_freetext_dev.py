"""The development set of free-text prompts (``data/freetext_dev.json``), scored with no judge
through real Chromium: the good drawing outscores the flawed one, decided verdicts agree with
the truth tables, and most requirements have a decided atom."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.tasks.svg.agreement import load_set, measure, mistakes, summarise
from designrl.tasks.svg.reward import SvgReward

pytestmark = pytest.mark.integration

DEV = Path(__file__).parent / "data" / "freetext_dev.json"


def test_the_dev_set_has_the_documented_shape():
    entries = load_set(DEV)
    assert len(entries) >= 10
    for entry in entries:
        assert 7 <= len(entry["requirements"]) <= 15, entry["id"]
        broken = sum(not t for t in entry["flawed"]["truth"]) - \
            sum(not t for t in entry["good"]["truth"])
        assert 2 <= broken <= 4, entry["id"]


def test_verdicts_agree_with_the_truth_tables():
    require_chromium()
    runner = PoolRunner(run_timeout=300.0, browsers=1, pages_per_browser=2, timeout_s=20.0)
    try:
        pairs, verdicts = runner.run(measure(load_set(DEV), SvgReward(runner.pool)))
    finally:
        runner.close()
    summary = summarise(pairs, verdicts)
    print(f"\nsvg free-text dev set: {summary}")
    assert summary["good_beats_flawed"] >= 0.9, [p for p in pairs if p.good <= p.flawed]
    assert summary["precision"] >= 0.95, mistakes(verdicts)
    assert summary["coverage_atom"] >= 0.5
    assert summary["recall_fail"] >= 0.5
