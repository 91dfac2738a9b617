"""The tiny model: a Qwen2 config, a locally trained tokenizer whose ids survive a reload,
and a ChatML template with generation marks."""

from __future__ import annotations

import json
from pathlib import Path

from designrl.models.tiny import build_tiny_model


def test_tokenizer_ids_survive_a_reload_and_round_trip_text(tiny_model):
    from transformers import AutoTokenizer

    from designrl.models.tiny import corpus, train_tokenizer

    fresh = train_tokenizer(corpus(0), 2048)
    loaded = AutoTokenizer.from_pretrained(tiny_model)
    for text in ['{"action_type": "move", "element_id": "title", "dx": -0.025, "dy": 0.1}',
                 "Élément à l'écran\n\n  indented 123", "<svg viewBox='0 0 10 10'/>"]:
        ids = loaded(text, add_special_tokens=False)["input_ids"]
        assert ids == fresh(text, add_special_tokens=False)["input_ids"]
        assert loaded.decode(ids) == text


def test_chat_template_is_chatml_with_generation_marks(tiny_model):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    messages = [{"role": "system", "content": "sys"},
                {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                {"role": "assistant", "content": '{"action_type": "finalize"}'}]
    text = tokenizer.apply_chat_template(messages, tokenize=False)
    assert text == ('<|im_start|>system\nsys<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n'
                    '<|im_start|>assistant\n{"action_type": "finalize"}<|im_end|>\n')
    marked = tokenizer.apply_chat_template(messages, return_assistant_tokens_mask=True,
                                           return_dict=True)
    mask, ids = marked["assistant_masks"], marked["input_ids"]
    assistant = tokenizer.decode([i for i, m in zip(ids, mask, strict=True) if m])
    assert assistant == '{"action_type": "finalize"}<|im_end|>'


def test_model_config_and_determinism(tiny_model, tmp_path):
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(tiny_model)
    assert config.model_type == "qwen2" and config.hidden_size == 128
    assert config.hidden_size // config.num_attention_heads == 32  # vLLM CPU needs >= 32
    again = build_tiny_model(tmp_path / "again", seed=0)
    assert (again / "model.safetensors").read_bytes() == \
        (Path(tiny_model) / "model.safetensors").read_bytes()
    assert json.loads((again / "config.json").read_text())["vocab_size"] == config.vocab_size


def test_cli_builds_it(tmp_path):
    from designrl.cli import main

    assert main(["model", "tiny", str(tmp_path / "m"), "--seed", "1"]) == 0
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= {
        p.name for p in (tmp_path / "m").iterdir()}
