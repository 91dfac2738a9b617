"""SFT on gen-svg (``designrl.learner.single_turn_sft``): the expert's data, checkpoints
chosen on a validation split of train seeds, the kept and base models on test seeds; and
the evaluation it reports (valid rate, mean reward, atom pass rates by kind), on the tiny
model, Chromium rendering every answer."""

from __future__ import annotations

import json

import pytest
from svg_sft_support import SVG_SEEDS

from designrl.config.training import SFTSettings
from designrl.learner.evaluate_single_turn import atom_kind, evaluate_single_turn
from designrl.learner.single_turn_sft import run_single_turn_sft

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TEST_SEED = 1_000_000
BUDGET = 320  # tokens an answer; the expert's to SVG_SEEDS take about 210


def test_a_model_that_knows_its_answers_draws_valid_svg_and_its_atoms_are_counted(
        svg_sft_model):
    from browser_support import require_chromium

    require_chromium()
    report = evaluate_single_turn(svg_sft_model, "gen-svg", SVG_SEEDS, max_tokens=BUDGET)
    assert report.episodes == 3 and report.outcomes == {"ok": 3}
    assert report.valid_rate == 1.0
    assert 0.2 <= report.mean_reward <= 1.0
    assert report.atom_pass_rates  # the requirements were read into atoms it counts
    assert set(report.atom_pass_rates) <= {"background", "absence", "exact count", "presence",
                                           "relative position", "region", "colour of all",
                                           "palette", "size", "other"}
    assert all(0.0 <= rate <= 1.0 for rate in report.atom_pass_rates.values())


@pytest.mark.parametrize(("check", "kind"), [
    ("background is purple", "background"), ("count(star) == 0", "absence"),
    ("count(red triangle) == 2", "exact count"), ("count(text 'Hi') >= 1", "presence"),
    ("blue circle left_of text 'HELLO'", "relative position"),
    ("text 'SALE' in right", "region"), ("all star are blue", "colour of all"),
    ("uses blue and white", "palette"), ("size 300x400", "size"), ("a cat", "other")])
def test_atom_kinds(check, kind):
    assert atom_kind(check) == kind


def test_the_workflow_keeps_the_checkpoint_best_on_validation_seeds(tiny_model, tmp_path):
    from browser_support import require_chromium

    require_chromium()
    settings = SFTSettings(epochs=40, batch_size=3, checkpoints=1, logging_steps=10)
    lines = []
    outcome = run_single_turn_sft(tiny_model, "gen-svg", tmp_path / "sft",
                                  train_seeds=list(SVG_SEEDS), validation_seeds=[0],
                                  test_seeds=[TEST_SEED], settings=settings,
                                  max_tokens=BUDGET, more_rounds=2, log=lines.append)
    examples = (tmp_path / "sft" / "sft.jsonl").read_text().splitlines()
    assert [json.loads(e)["policy"] for e in examples] == ["expert"] * 3
    # one checkpoint halfway and the final model, each validated on the same seed
    names = [path.name for path, _ in outcome.validation]
    assert names == ["checkpoint-20", "sft"]
    assert all(report.episodes == 1 for _, report in outcome.validation)
    best = max(outcome.validation[::-1], key=lambda p: (p[1].valid_rate, p[1].mean_reward))
    assert outcome.model == best[0]
    assert outcome.kept.episodes == 1 and outcome.base.episodes == 1
    assert outcome.base.valid_rate == 0.0  # random weights write no SVG
    assert outcome.losses and outcome.losses[-1] < outcome.losses[0]
    assert set(outcome.seconds) == {"data", "train", "validate", "test"}
    assert any("validation seeds" in line for line in lines)
    assert not (tmp_path / "sft" / "round-1").exists()  # no target, no further round


def test_a_run_weak_on_validation_trains_on_from_its_best_model(tiny_model, tmp_path):
    from browser_support import require_chromium

    require_chromium()
    settings = SFTSettings(epochs=2, batch_size=3, logging_steps=1)  # too short: no SVG
    lines = []
    outcome = run_single_turn_sft(tiny_model, "gen-svg", tmp_path / "sft",
                                  train_seeds=list(SVG_SEEDS), validation_seeds=[0],
                                  test_seeds=[TEST_SEED], settings=settings,
                                  max_tokens=BUDGET, until_valid=1.0, more_rounds=1,
                                  log=lines.append)
    assert [path.name for path, _ in outcome.validation] == ["sft", "round-1"]
    assert any("round 1 from" in line for line in lines)
    first = json.loads((tmp_path / "sft" / "sft_log.json").read_text())
    second = json.loads((tmp_path / "sft" / "round-1" / "sft_log.json").read_text())
    # half the epochs at half the rate, from the trained weights, not the base model's
    assert second["settings"]["epochs"] == 1.0
    assert second["settings"]["learning_rate"] == settings.learning_rate / 2
    assert second["log_history"][0]["loss"] < first["log_history"][0]["loss"]
    assert len(outcome.losses) == 3  # two logged steps, then one
    best = max(outcome.validation[::-1], key=lambda p: (p[1].valid_rate, p[1].mean_reward))
    assert outcome.model == best[0]


@pytest.mark.parametrize(("seeds", "message"), [
    ({"train_seeds": [0, 1], "validation_seeds": [1], "test_seeds": [TEST_SEED]},
     "validation seeds must not be trained on"),
    ({"train_seeds": [0], "validation_seeds": [TEST_SEED + 1], "test_seeds": [TEST_SEED]},
     "train and validation seeds must be in the train split"),
    ({"train_seeds": [0], "validation_seeds": [1], "test_seeds": [2]},
     "test seeds must be in the test split"),
    ({"train_seeds": [0], "validation_seeds": [], "test_seeds": [TEST_SEED]},
     "all needed")])
def test_seeds_that_would_leak_are_refused_before_training(seeds, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        run_single_turn_sft(tmp_path / "no-model", "gen-svg", tmp_path / "out", **seeds)
    assert not (tmp_path / "out").exists()


def test_an_unknown_or_multi_turn_task_lists_the_tasks_it_can_train(tmp_path):
    for task in ("gen-svgg", "gen-poster", "svg-prompts"):
        with pytest.raises(ValueError, match="generated single-turn tasks: .*gen-svg"):
            run_single_turn_sft(tmp_path, task, tmp_path / "out", train_seeds=[0],
                                validation_seeds=[1], test_seeds=[TEST_SEED])


def test_an_episode_spec_sets_a_language_models_token_budget(tiny_model):
    from designrl.policies import make_completion_policy, make_layout_policy
    from designrl.rollout.episode import EpisodeSpec
    from designrl.tasks import get_family

    svg = get_family("svg")
    assert make_completion_policy(svg, f"llm:{tiny_model}", max_tokens=7).max_tokens == 7
    assert make_completion_policy(svg, f"llm:{tiny_model}").max_tokens == svg.max_tokens
    assert make_layout_policy(f"llm:{tiny_model}", max_tokens=5).max_tokens == 5
    with pytest.raises(ValueError, match="max_tokens"):
        EpisodeSpec(family="svg", task_id="gen-svg", policy="expert", max_tokens=0)
