"""SFT data from expert episodes: valid actions the env accepts, in a file ``datasets`` loads,
rendered by the tiny model's chat template with the answer marked for assistant-only loss."""

from __future__ import annotations

import json

import pytest

from designrl.learner.sft_data import expert_examples, write_jsonl
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.extract import parse_completion


def test_every_example_is_the_prompt_and_a_valid_expert_action(tmp_path):
    examples = list(expert_examples(["gen-poster", "gen-slide"], seeds=[3, 4]))
    assert len(examples) >= 8
    for example in examples:
        system, user, assistant = example["messages"]
        assert (system["role"], user["role"], assistant["role"]) == (
            "system", "user", "assistant")
        assert parse_completion(assistant["content"]).valid
    # replaying an episode's answers reproduces the expert's episode: the env accepts each
    first = [e for e in examples if (e["task_id"], e["seed"]) == ("gen-poster", 3)]
    env = LayoutEnv()
    env.reset("gen-poster", seed=3)
    for example in first:
        obs = env.step(json.loads(example["messages"][2]["content"]))
        assert obs.last_action_error is None
    count = write_jsonl(examples, tmp_path / "sft.jsonl")
    datasets = pytest.importorskip("datasets")
    loaded = datasets.load_dataset("json", data_files=str(tmp_path / "sft.jsonl"), split="train")
    assert len(loaded) == count == len(examples)
    assert loaded[0]["messages"][2]["content"] == examples[0]["messages"][2]["content"]


def test_test_seeds_are_refused():
    with pytest.raises(ValueError, match="below the test seeds"):
        list(expert_examples(["gen-poster"], seeds=[1_000_000]))


def test_the_chat_template_marks_only_the_answer(tiny_model):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    example = next(expert_examples(["gen-flyer"], seeds=[1]))
    marked = tokenizer.apply_chat_template(example["messages"], return_dict=True,
                                           return_assistant_tokens_mask=True)
    answer = [t for t, m in zip(marked["input_ids"], marked["assistant_masks"], strict=True) if m]
    assert tokenizer.decode(answer) == example["messages"][2]["content"] + "<|im_end|>"


def test_recovery_examples_answer_a_rejected_mistake_with_the_expert_action():
    plain = list(expert_examples(["gen-banner"], seeds=[5]))
    examples = list(expert_examples(["gen-banner"], seeds=[5], recovery=0.5))
    recovered = [e for e in examples if "Your last action was rejected" in e["messages"][1]["content"]]
    assert recovered and len(examples) > len(recovered)
    for example in recovered:
        # the example before it is the same layout without the error, with the same answer
        before = examples[examples.index(example) - 1]
        assert before["messages"][2] == example["messages"][2]
        assert parse_completion(example["messages"][2]["content"]).valid
        lines, lines_before = (e["messages"][1]["content"].splitlines() for e in (example, before))
        assert [line for line in lines if "rejected" not in line][1:] == lines_before[1:]
    assert plain[0] == examples[0]


@pytest.mark.parametrize("seed", range(3))
def test_every_mistake_is_rejected_by_the_env(seed):
    import random

    from designrl.learner.sft_data import mistake
    from designrl.policies import make_layout_policy

    rng = random.Random(seed)
    env = LayoutEnv()
    obs = env.reset("gen-flyer", seed=seed)
    expert = make_layout_policy("expert")
    for _ in range(4):
        action = expert.act(env, obs)
        wrong = mistake(action, [e.id for e in obs.elements], rng)
        assert wrong != action
        assert env.step(wrong).last_action_error
        obs = env.step(action)
