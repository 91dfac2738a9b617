"""``OpenAIBackend``: completions from any OpenAI-compatible server (vLLM in the stack).

Chat completions with ``n`` samples, temperature, a seed per request and the
sampled tokens' log-probabilities; from vLLM also the completion's token ids
(``return_token_ids``), which training needs. For RL, keep ``top_p = 1`` and no
top-k (the defaults here) so the logprobs are those of the distribution sampled.
``model`` may be a LoRA adapter's name (``policy-vN``) loaded at runtime.
"""

from __future__ import annotations

import time
from typing import Any

from designrl.inference.types import Completion


class OpenAIBackend:
    def __init__(self, base_url: str, model: str, *, api_key: str = "EMPTY",
                 timeout: float = 120.0, token_ids: bool = True,
                 prompt_style: str = "compact") -> None:
        from openai import OpenAI

        self.client = OpenAI(base_url=base_url.rstrip("/") + "/v1", api_key=api_key,
                             timeout=timeout, max_retries=2)
        self.model = model
        self.name = model
        self.token_ids = token_ids  # ask for token ids (a vLLM extension)
        self.prompt_style = prompt_style  # the layout prompt the served model answers

    def complete(self, conversations: list[list[dict[str, Any]]], *, n: int = 1,
                 temperature: float = 0.0, max_tokens: int = 128,
                 seed: int | None = None) -> list[list[Completion]]:
        return [self._one(c, n, temperature, max_tokens, seed) for c in conversations]

    def _one(self, conversation, n, temperature, max_tokens, seed) -> list[Completion]:
        started = time.perf_counter()
        extra = {"top_k": -1}
        if self.token_ids:
            extra["return_token_ids"] = True
        reply = self.client.chat.completions.create(
            model=self.model, messages=conversation, n=n, temperature=temperature,
            top_p=1.0, max_tokens=max_tokens, seed=seed, logprobs=True, extra_body=extra)
        seconds = (time.perf_counter() - started) / max(1, n)
        prompt_tokens = reply.usage.prompt_tokens if reply.usage else 0
        out = []
        for choice in sorted(reply.choices, key=lambda c: c.index):
            extras = choice.model_extra or {}
            content = (choice.logprobs.content or []) if choice.logprobs else []
            out.append(Completion(
                text=choice.message.content or "", token_ids=list(extras.get("token_ids") or []),
                logprobs=[t.logprob for t in content], prompt_tokens=prompt_tokens,
                finish_reason=choice.finish_reason or "stop", seconds=seconds))
        return out
