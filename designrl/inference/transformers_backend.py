"""``TransformersBackend``: a chat model in this process, batched, with token logprobs.

Conversations are rendered with the tokenizer's chat template, left-padded into
one batch and generated together (``n`` samples each). ``temperature == 0`` is
greedy. The log-probability of each sampled token is taken from the distribution
it was sampled from (logits divided by the temperature, no top-k or top-p), which
is what an importance ratio against this sampler needs.
"""

from __future__ import annotations

import time
from typing import Any

from designrl.inference.types import Completion


def chat_prompt_ids(tokenizer, conversation: list[dict[str, Any]]) -> list[int]:
    """The token ids a model is prompted with: the chat template plus the generation prompt."""
    encoded = tokenizer.apply_chat_template(conversation, add_generation_prompt=True,
                                            tokenize=True)
    return list(encoded["input_ids"] if hasattr(encoded, "keys") else encoded)


class TransformersBackend:
    def __init__(self, model_path: str, *, device: str | None = None, name: str | None = None):
        """``device``: where the model runs; None takes the GPU when there is one."""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from designrl.tasks.layout.prompt import prompt_style_of

        self.name = name or str(model_path)
        self.prompt_style = prompt_style_of(model_path)  # what the weights were trained on
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model_path)
        self.tokenizer.padding_side = "left"
        self.model = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)
        device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(device).eval()
        self.device = device
        self.eos_id = self.tokenizer.eos_token_id
        self.pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None \
            else self.eos_id

    def prompt_ids(self, conversation: list[dict[str, Any]]) -> list[int]:
        return chat_prompt_ids(self.tokenizer, conversation)

    def complete(self, conversations: list[list[dict[str, Any]]], *, n: int = 1,
                 temperature: float = 0.0, max_tokens: int = 128,
                 seed: int | None = None) -> list[list[Completion]]:
        torch = self.torch
        started = time.perf_counter()
        prompts = [self.prompt_ids(c) for c in conversations]
        width = max(len(p) for p in prompts)
        input_ids = torch.tensor([[self.pad_id] * (width - len(p)) + p for p in prompts])
        attention = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
        if seed is not None:
            torch.manual_seed(seed)
        sample = temperature > 0
        with torch.no_grad():
            out = self.model.generate(
                input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device),
                max_new_tokens=max_tokens, do_sample=sample,
                temperature=temperature if sample else None, top_k=None, top_p=None,
                num_return_sequences=n, return_dict_in_generate=True, output_scores=True,
                eos_token_id=self.eos_id, pad_token_id=self.pad_id)
        generated = out.sequences[:, width:]
        # scores: one (batch*n, vocab) tensor per generated position, as sampled from
        logprobs = torch.stack([torch.log_softmax(s.float(), dim=-1) for s in out.scores], 1)
        chosen = logprobs.gather(2, generated[:, :logprobs.shape[1], None]).squeeze(2)
        seconds = (time.perf_counter() - started) / max(1, len(prompts) * n)
        results: list[list[Completion]] = []
        for i, prompt in enumerate(prompts):
            row = []
            for j in range(n):
                k = i * n + j
                ids = generated[k].tolist()
                stop = ids.index(self.eos_id) if self.eos_id in ids else None
                kept = ids if stop is None else ids[:stop + 1]
                text_ids = kept[:-1] if stop is not None else kept
                row.append(Completion(
                    text=self.tokenizer.decode(text_ids, skip_special_tokens=True),
                    token_ids=kept, logprobs=chosen[k, :len(kept)].tolist(),
                    prompt_tokens=len(prompt), seconds=seconds,
                    finish_reason="stop" if stop is not None else "length"))
            results.append(row)
        return results
