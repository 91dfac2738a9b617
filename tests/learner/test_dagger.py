"""DAgger examples: every state where the model's greedy action was rejected, answered by the
expert, the prompts exactly those the model saw (the env's error line included)."""

from __future__ import annotations

import json

import pytest

from designrl.learner.dagger import dagger_examples
from designrl.learner.sft_data import expert_examples


@pytest.mark.slow
def test_every_rejected_step_gets_the_experts_answer(tiny_model):
    from designrl.inference.transformers_backend import TransformersBackend

    examples, steps = dagger_examples(TransformersBackend(tiny_model), ["gen-poster"], [0, 1],
                                      style="state", step_limit=2)
    # the untrained model's answers are never valid: two rejected steps per episode
    assert steps == 4
    assert [(e["seed"], e["step"]) for e in examples] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    first, second = examples[0]["messages"], examples[1]["messages"]
    assert "rejected" not in first[1]["content"]
    assert "Your last action was rejected" in second[1]["content"]
    # a rejected action leaves the layout as it was: the expert answers as at the start
    expert_first = next(expert_examples(["gen-poster"], [0], style="state"))["messages"]
    assert first == expert_first
    assert json.loads(second[2]["content"]) == json.loads(expert_first[2]["content"])


def test_test_seeds_are_refused(tiny_model):
    from designrl.inference.transformers_backend import TransformersBackend

    with pytest.raises(ValueError, match="below the test seeds"):
        dagger_examples(TransformersBackend(tiny_model), ["gen-poster"], [1_000_000],
                        style="state")


def test_the_model_rejected_least_on_the_validation_seeds_is_kept():
    from pathlib import Path

    from designrl.learner.dagger import Played, best_model

    def played(name: str, rejected: int) -> Played:
        return Played(Path(name), steps=100, rejected=rejected)

    sft, first, second = played("sft", 5), played("dagger-1", 3), played("dagger-2", 40)
    assert best_model([sft, first, second]) is first  # a round that broke a family is not
    assert best_model([sft, played("dagger-1", 5)]).model == Path("dagger-1")  # tie: more data
    assert first.rejected_rate == 0.03


@pytest.mark.slow
def test_designrl_sft_runs_dagger_rounds_after_sft(tiny_model, tmp_path, capsys):
    from designrl.cli import main

    out = tmp_path / "sft"
    code = main(["sft", "--model", tiny_model, "--out", str(out), "--tasks", "gen-poster",
                 "--train-seeds", "0-1", "--dagger-rounds", "2", "--dagger-seeds", "1",
                 "--epochs", "1", "--eval-seeds", "1000000", "--step-limit", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    # SFT and two rounds, each validated on the same seed, one no model trained on
    assert report["validation_seeds"] == [4]  # rounds played seeds 2 and 3
    rates = report["validation_rejected_rate"]
    assert list(rates) == [str(out), str(out / "dagger-1"), str(out / "dagger-2")]
    assert report["model"] in rates and rates[report["model"]] == min(rates.values())
    # each round trains on everything before it plus the expert's answers to the last
    # model's rejected steps (at most two steps of one episode here)
    added = report["dagger_examples"]
    lines = [len((d / "sft.jsonl").read_text().splitlines())
             for d in (out, out / "dagger-1", out / "dagger-2")]
    assert lines[1] - lines[0] == added[str(out / "dagger-1")] <= 2
    assert lines[2] - lines[1] == added[str(out / "dagger-2")] <= 2
    assert (out / "dagger-2" / "designrl_prompt.json").exists()


@pytest.mark.slow
def test_designrl_sft_keeps_the_checkpoint_rejected_least_without_dagger(tiny_model, tmp_path,
                                                                         capsys):
    """No rounds, but ``--checkpoints``: SFT's saved models and its final one are validated
    on the block after the train seeds and the one rejected least is kept."""
    from designrl.cli import main

    out = tmp_path / "sft"
    code = main(["sft", "--model", tiny_model, "--out", str(out), "--tasks", "gen-poster",
                 "--train-seeds", "0-3", "--dagger-seeds", "1", "--checkpoints", "2",
                 "--epochs", "3", "--eval-seeds", "1000000", "--step-limit", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["validation_seeds"] == [4]
    rates = report["validation_rejected_rate"]
    saved = sorted((out / "checkpoints").glob("checkpoint-*"),
                   key=lambda p: int(p.name.rsplit("-", 1)[1]))
    assert list(rates) == [*map(str, saved[:2]), str(out)]  # the last checkpoint is `out`
    best = min(rates.values())
    assert report["model"] == [m for m, r in rates.items() if r == best][-1]  # later on a tie


def test_designrl_sft_refuses_bad_dagger_arguments(tmp_path, capsys):
    from designrl.cli import main

    assert main(["sft", "--model", str(tmp_path), "--out", str(tmp_path / "o"),
                 "--dagger-rounds", "-1"]) == 2
    assert "--dagger-rounds" in capsys.readouterr().err
