"""The tiny test model: a 2-layer Qwen2-architecture LM and a tokenizer trained here.

No model hub is reachable, so tests and CPU runs use a model built from a config:
hidden size 128, 4 attention heads of 32 (vLLM's CPU attention needs head size
>= 32), 2 layers, random weights from ``seed``. Its byte-level BPE tokenizer is
trained on text of our own tasks (layout prompts and actions, svg and webpage
prompts) with Qwen's pre-tokenizer split and ``ByteLevel(use_regex=False)``, so
ids are the same after a reload through ``AutoTokenizer``; its chat template is
ChatML with ``{% generation %}`` marks around assistant turns (TRL's
assistant-only loss uses them).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

QWEN_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+"
              r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{%- if message['content'] is string %}{%- set content = message['content'] %}"
    "{%- else %}{%- set content = message['content'] | selectattr('type', 'equalto', 'text')"
    " | map(attribute='text') | join('') %}{%- endif %}"
    "{%- if message['role'] == 'assistant' %}"
    "{{- '<|im_start|>assistant\\n' }}{% generation %}{{- content + '<|im_end|>' }}"
    "{% endgeneration %}{{- '\\n' }}"
    "{%- else %}{{- '<|im_start|>' + message['role'] + '\\n' + content + '<|im_end|>\\n' }}"
    "{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)


def corpus(seed: int = 0, episodes: int = 12) -> Iterator[str]:
    """Text the tokenizer learns from: prompts and actions of our task families."""
    from designrl.policies.layout_random import random_action
    from designrl.tasks import FAMILIES, load_items
    from designrl.tasks.html.prompt import INSTRUCTION
    from designrl.tasks.layout.env import LayoutEnv
    from designrl.tasks.layout.prompt import SYSTEM, layout_messages

    rng = random.Random(seed)
    layout_tasks = [task.id for task in FAMILIES["layout"].tasks]
    yield SYSTEM
    yield INSTRUCTION
    for i in range(episodes):
        task_id = layout_tasks[i % len(layout_tasks)]
        env = LayoutEnv("designgym" if not task_id.startswith("gen-") else "default")
        obs = env.reset(task_id, seed=rng.randrange(1_000_000))
        for _ in range(4):
            for style in ("compact", "direct"):
                yield layout_messages(obs, style)[1]["content"]
            action = random_action(env.task, rng)
            yield json.dumps(action)
            obs = env.step(action)
    for task_id in ("svg-prompts", "webpage-prompts"):
        for item in load_items(task_id):
            yield item.prompt
            yield "\n".join(getattr(item, "requirements", ()))
    yield "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"></svg>"
    yield "<!DOCTYPE html><html><head><style>body{margin:0}</style></head><body></body></html>"


def train_tokenizer(texts, vocab_size: int = 2048):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN_SPLIT), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tokenizer.train_from_iterator(texts, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<|im_end|>",
                                   pad_token="<|endoftext|>", padding_side="left")
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build_tiny_model(out: str | Path, seed: int = 0, vocab_size: int = 2048,
                     hidden_size: int = 128, layers: int = 2, heads: int = 4) -> Path:
    """Write the tiny model and its tokenizer to ``out`` (``from_pretrained`` loads both)."""
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = train_tokenizer(corpus(seed), vocab_size)
    eos, pad = tokenizer.convert_tokens_to_ids(["<|im_end|>", "<|endoftext|>"])
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=hidden_size,
                         intermediate_size=3 * hidden_size, num_hidden_layers=layers,
                         num_attention_heads=heads, num_key_value_heads=heads // 2,
                         max_position_embeddings=8192, rope_theta=10_000.0,
                         tie_word_embeddings=True, eos_token_id=eos, pad_token_id=pad,
                         bos_token_id=None, torch_dtype="float32")
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=eos, pad_token_id=pad,
                                               bos_token_id=None)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
