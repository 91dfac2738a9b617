"""SFT on the expert's answers: the loss falls, the trained model answers held-out seeds with
more valid JSON and valid actions than the untrained one, and the saved model loads."""

from __future__ import annotations

import json

import pytest

from designrl.learner.sft_data import expert_examples, write_jsonl

TASKS = ["gen-poster"]
EVAL_SEEDS = [1_000_000, 1_000_001, 1_000_002]


@pytest.fixture(scope="module")
def sft_data(tmp_path_factory):
    path = tmp_path_factory.mktemp("sft-data") / "sft.jsonl"
    write_jsonl(expert_examples(TASKS, seeds=range(4)), path)
    return path


@pytest.mark.slow
def test_sft_lowers_the_loss_and_raises_the_valid_action_rate(tiny_model, sft_tiny_model):
    """The session's short SFT (``sft_tiny_model``: posters, twelve seeds): the loss falls,
    and on held-out seeds its greedy answers are mostly valid actions and its sampled ones
    sometimes, where the untrained model's never are. The six-family run and its figures
    are ``bench/sft_layout.py``'s."""
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.sft import losses
    from designrl.rollout.layout_batch import run_layout_batch

    loss = losses(sft_tiny_model)
    assert loss[-1] < loss[0] / 3, loss
    episodes = [("gen-poster", seed) for seed in EVAL_SEEDS for _ in range(4)]

    def valid_share(model_dir: str, temperature: float) -> float:
        records = run_layout_batch(TransformersBackend(model_dir), episodes,
                                   temperature=temperature, sample_seed=0, step_limit=2,
                                   max_tokens=48)
        steps = [s for r in records for s in r["actions"]]
        return sum(s["error"] is None for s in steps) / len(steps)

    assert valid_share(tiny_model, 0.0) == valid_share(tiny_model, 1.0) == 0.0
    assert valid_share(sft_tiny_model, 0.0) >= 0.5  # measured: 1.0
    assert valid_share(sft_tiny_model, 1.0) >= 0.1  # measured: 0.25


@pytest.mark.slow
def test_lora_keeps_the_adapter_and_saves_merged_weights(tiny_model, sft_data, tmp_path):
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.sft import SFTSettings, train_sft

    out = train_sft(tiny_model, sft_data, tmp_path / "lora",
                    SFTSettings(epochs=0.2, lora_r=4, learning_rate=1e-3))
    assert (out / "adapter" / "adapter_config.json").exists()
    assert not (out / "adapter_config.json").exists()  # the model dir holds plain weights
    (completion,), = TransformersBackend(str(out)).complete(
        [[{"role": "user", "content": "hi"}]], max_tokens=4)
    assert completion.token_ids


def test_evaluation_refuses_train_seeds():
    from designrl.learner.evaluate import evaluate_layout

    with pytest.raises(ValueError, match="test seeds"):
        evaluate_layout(None, TASKS, [3])


def test_settings_are_validated():
    from pydantic import ValidationError

    from designrl.learner.sft import SFTSettings

    with pytest.raises(ValidationError):
        SFTSettings(learning_rate=0)
    with pytest.raises(ValidationError):
        SFTSettings(lr=1e-3)  # a misspelt field is an error, not ignored


@pytest.mark.slow
def test_the_model_remembers_the_prompt_it_was_trained_on(tiny_model, tmp_path):
    """SFT on ``state`` prompts records the style in the model directory; the in-process
    backend, the LLM policy and batched rollouts then ask it in that style, and a file
    mixing styles is refused."""
    import json

    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.sft import SFTSettings, data_prompt_style, train_sft
    from designrl.policies import make_layout_policy
    from designrl.rollout.layout_batch import run_layout_batch
    from designrl.tasks.layout.prompt import GRAMMAR, prompt_style_of

    data = tmp_path / "state.jsonl"
    write_jsonl(expert_examples(TASKS, seeds=[1], style="state"), data)
    assert data_prompt_style(data) == "state"
    assert prompt_style_of(tiny_model) == "compact"  # a model nothing recorded for
    out = train_sft(tiny_model, data, tmp_path / "model", SFTSettings(epochs=0.1))
    assert prompt_style_of(out) == TransformersBackend(str(out)).prompt_style == "state"
    assert make_layout_policy(f"llm:{out}").prompt_style == "state"
    record, = run_layout_batch(TransformersBackend(str(out)), [("gen-poster", 1_000_000)],
                               step_limit=1, max_tokens=8)
    prompt = record["policy_stats"]["turns"][0]["messages"][1]["content"]
    assert "Elements (id" in prompt and GRAMMAR not in prompt
    with data.open("a") as extra:
        extra.write(json.dumps(next(expert_examples(TASKS, seeds=[2]))) + "\n")  # compact
    with pytest.raises(ValueError, match="mixes prompt styles"):
        data_prompt_style(data)


@pytest.mark.slow
def test_designrl_sft_trains_and_evaluates_without_dagger_by_default(tiny_model, tmp_path,
                                                                      capsys):
    from designrl.cli import main

    out = tmp_path / "sft"
    code = main(["sft", "--model", tiny_model, "--out", str(out), "--tasks", "gen-poster",
                 "--train-seeds", "0-1", "--epochs", "1", "--eval-seeds", "1000000",
                 "--step-limit", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model"] == str(out) and not (out / "dagger-1").exists()
    assert report["dagger_examples"] == {} and report["validation_rejected_rate"] == {}
    assert report["settings"]["batch_size"] == 16
    assert report["base"]["valid_action_rate"] == 0.0  # the untrained model, played too
    assert report["sft"]["episodes"] == 1 and 1 <= report["sft"]["steps"] <= 2
