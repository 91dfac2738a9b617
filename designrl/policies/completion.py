"""Single-turn policies: whatever answers an html, svg or webpage item with one completion.

* a family's model-free policies (``expert``, ``template``, ``reference``, ``blank``):
  deterministic per seed, and the SFT teachers;
* ``llm:PATH`` / ``vllm:NAME`` / ``vllm:latest``: a language model through a backend,
  asked the family's chat prompt, its token ids and behaviour logprobs kept for GRPO;
* ``predictions:NAME``: completions a user already has, looked up by item id (the way
  Design2Code's eval scores a model's saved outputs).

Every policy returns a ``Turn``; only language models need the chat ``messages``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from designrl.inference.types import Backend
from designrl.policies import PREDICTIONS_PREFIX

PredictionLookup = Callable[[str, str], "str | None"]  # (set name, item id) -> completion


@dataclass
class Turn:
    """One completion and, for a language model, what training needs of it."""

    text: str
    messages: list[dict[str, Any]] | None = None
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    prompt_tokens: int = 0
    finish_reason: str = "stop"
    seconds: float = 0.0

    def stats(self, valid: bool = True) -> dict[str, Any]:
        """The ``policy_stats`` of a language model's episode: its one turn, in the shape of
        layout's turns; ``valid``: a document was found in it."""
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": len(self.token_ids),
                "llm_seconds": self.seconds,
                "turns": [{"messages": self.messages, "completion": self.text,
                           "token_ids": self.token_ids, "logprobs": self.logprobs,
                           "finish_reason": self.finish_reason,
                           "ran": "model" if valid else "invalid"}]}


class NoCompletion(ValueError):
    """The policy has no answer for this item (a prediction set without it)."""


@dataclass
class ModelFreePolicy:
    name: str
    answer: Callable[[Any, int], str]
    seed: int = 0
    needs_messages: bool = False

    def complete(self, item: Any, messages: list[dict[str, Any]] | None) -> Turn:
        return Turn(self.answer(item, self.seed))


@dataclass
class PredictionsPolicy:
    name: str
    lookup: PredictionLookup
    needs_messages: bool = False

    def complete(self, item: Any, messages: list[dict[str, Any]] | None) -> Turn:
        text = self.lookup(self.name[len(PREDICTIONS_PREFIX):], item.id)
        if text is None:
            raise NoCompletion(f"{self.name} holds no completion for item {item.id!r}")
        return Turn(text)


@dataclass
class ModelPolicy:
    name: str
    backend: Backend
    temperature: float = 0.0
    max_tokens: int = 4096
    seed: int = 0
    needs_messages: bool = True

    def complete(self, item: Any, messages: list[dict[str, Any]] | None) -> Turn:
        sampling_seed = None if self.temperature == 0 else self.seed
        done = self.backend.complete([messages], n=1, temperature=self.temperature,
                                     max_tokens=self.max_tokens, seed=sampling_seed)[0][0]
        return Turn(done.text, messages, list(done.token_ids), list(done.logprobs),
                    done.prompt_tokens, done.finish_reason, done.seconds)
