"""Embedded GRPO (``designrl train``): rollouts sampled in a thread from the newest version while
the learner trains on them, staleness bounded, curves and a trained model written."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


def test_rollouts_and_updates_overlap_with_bounded_staleness(sft_tiny_model, tmp_path):
    from designrl.learner.embedded import RolloutSettings, train_embedded
    from designrl.learner.grpo import CURVES_FILE, GRPOSettings

    rollouts = RolloutSettings(task_ids=["gen-poster"], train_seeds=list(range(50)),
                               group_size=4, step_limit=3, max_tokens=48)
    grpo = GRPOSettings(max_steps=3, groups_per_step=2, max_staleness=1, learning_rate=1e-4)
    stats = train_embedded(sft_tiny_model, tmp_path, rollouts, grpo)

    assert stats["version"] == 3
    rows = [json.loads(line) for line in (tmp_path / CURVES_FILE).read_text().splitlines()]
    assert [r["version"] for r in rows] == [1, 2, 3]
    assert all(max(r["staleness"]) <= 1 for r in rows)  # never beyond max_staleness
    assert "kl" in rows[-1] and "group_reward_mean" in rows[-1]
    assert sum(stats["staleness"].values()) == stats["groups_trained"] == 6
    # the rollout thread kept sampling while the learner trained (admission-bounded)
    assert stats["groups_sampled"] >= stats["groups_trained"] + sum(stats["dropped"].values())
    assert 0 <= stats["idle_fraction"] < 1
    from designrl.inference.transformers_backend import TransformersBackend
    (completion,), = TransformersBackend(stats["model_dir"]).complete(
        [[{"role": "user", "content": "hi"}]], max_tokens=4)
    assert completion.token_ids


def test_train_seeds_must_be_train_split(sft_tiny_model, tmp_path):
    from designrl.learner.embedded import RolloutSettings, train_embedded

    with pytest.raises(ValueError, match="below the test seeds"):
        train_embedded(sft_tiny_model, tmp_path, RolloutSettings(train_seeds=[1_000_000]))


def test_cli_train_writes_curves_and_summary(sft_tiny_model, tmp_path, capsys):
    from designrl.cli import main

    out = tmp_path / "run"
    code = main(["train", "--model", sft_tiny_model, "--out", str(out), "--tasks", "gen-poster",
                 "--train-seeds", "0-9", "--steps", "1", "--group-size", "4",
                 "--groups-per-step", "1", "--step-limit", "2", "--eval-seeds", "1000000",
                 "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)  # stdout holds the summary alone
    assert summary["train"]["version"] == 1
    assert {"valid_action_rate", "mean_return"} <= set(summary["before"]) & set(summary["after"])
    assert (out / "curves.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["train", "--model", sft_tiny_model, "--out", str(out), "--steps", "0"]) == 2
