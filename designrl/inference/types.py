"""The backend interface and what it returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class Completion:
    text: str
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)  # per completion token, as sampled
    prompt_tokens: int = 0
    finish_reason: str = "stop"  # "stop" (end of turn) or "length" (max_tokens reached)
    seconds: float = 0.0  # this completion's share of the call

    @property
    def completion_tokens(self) -> int:
        return len(self.token_ids)


class Backend(Protocol):
    name: str

    def complete(self, conversations: list[list[dict[str, Any]]], *, n: int = 1,
                 temperature: float = 0.0, max_tokens: int = 128,
                 seed: int | None = None) -> list[list[Completion]]: ...
