"""SFT data from expert episodes: valid actions the env accepts, in a file ``datasets`` loads,
rendered by the tiny model's chat template with the answer marked for assistant-only loss."""

from __future__ import annotations

import json

import pytest

from designrl.learner.sft_data import expert_examples, write_jsonl
from designrl.policies.llm.parse import parse_completion
from designrl.tasks.layout.env import LayoutEnv


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
