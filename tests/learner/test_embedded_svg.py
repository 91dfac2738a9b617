"""Embedded GRPO on gen-svg (``designrl train --tasks gen-svg``): groups of drawings
sampled in-process, each scored in a real browser pool, trained on by the same learner as
layout's, and the start and the result evaluated on a test seed."""

from __future__ import annotations

import json

import pytest
from svg_sft_support import SVG_SEEDS

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.mark.timeout(900)  # groups all without spread would never train: fail, not hang
def test_svg_groups_train_the_learner_and_the_run_is_evaluated(svg_sft_model, tmp_path):
    from browser_support import require_chromium

    from designrl.config.training import GRPOSettings, RolloutSettings
    from designrl.learner.grpo import CURVES_FILE
    from designrl.learner.train_workflow import run_train_workflow
    from designrl.rollout.browser import close_process_runner

    require_chromium()
    rollouts = RolloutSettings(task_ids=["gen-svg"], train_seeds=list(SVG_SEEDS),
                               group_size=4, completion_tokens=320)
    grpo = GRPOSettings(max_steps=2, groups_per_step=1, max_staleness=1)
    stages = []
    try:
        summary = run_train_workflow(svg_sft_model, tmp_path, rollouts, grpo,
                                     eval_seeds=[1_000_000], progress=stages.append)
    finally:
        close_process_runner()

    train = summary["train"]
    assert train["version"] == 2 and train["groups_trained"] == 2
    rows = [json.loads(line) for line in (tmp_path / CURVES_FILE).read_text().splitlines()]
    assert [r["version"] for r in rows] == [1, 2]
    # the samples were drawings with spread (expert, random or broken): a group of equal
    # rewards is dropped, so the two trained had real advantages
    assert all(0 < r["group_reward_mean"] <= 1 for r in rows)
    assert all(r["valid_action_rate"] > 0 for r in rows)  # some turns drew a document
    sampled = [s for s in stages if s["stage"] == "train"]
    assert sampled and sampled[-1]["reward_mean"] > 0
    for when in ("before", "after"):
        report = summary[when]["gen-svg"]
        assert report["episodes"] == 1 and 0 <= report["valid_rate"] <= 1
        assert "rows" not in report
    assert (tmp_path / "curves.png").read_bytes()[:4] == b"\x89PNG"


def test_a_task_the_in_process_backend_cannot_read_is_refused():
    from pydantic import ValidationError

    from designrl.config.training import RolloutSettings

    with pytest.raises(ValidationError, match="gen-html prompts show a screenshot"):
        RolloutSettings(task_ids=["gen-html"])
    with pytest.raises(ValidationError, match="known: .*gen-svg"):
        RolloutSettings(task_ids=["gen-svgg"])
