"""``LLMLayoutPolicy``: a language model choosing layout actions through any backend.

Each step renders the observation into a prompt, asks the backend for one
completion and parses it strictly (``parse_completion``). A valid action runs. An
invalid one runs as it is (the raw text goes to the env, which records an invalid
step and its reason) unless a ``fallback`` policy is configured: then the
fallback's action runs and the step is counted as the fallback's, so the steer
rate (the share of steps where the model's own action ran) stays honest.

``episode_summary()`` gives the episode's valid-JSON, valid-action and steer
rates, prompt and completion tokens, model seconds, and every assistant turn
(prompt, completion, token ids, logprobs) for training.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from designrl.inference.types import Backend, Completion
from designrl.tasks.layout.extract import ParsedCompletion, parse_completion
from designrl.tasks.layout.prompt import PromptStyle, layout_messages


@dataclass
class EpisodeStats:
    steps: int = 0
    valid_json: int = 0
    valid_action: int = 0
    fallback_steps: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    turns: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        steps = max(1, self.steps)
        return {"valid_json_rate": self.valid_json / steps,
                "model_valid_action_rate": self.valid_action / steps,
                # the share of steps where the model's own output ran (valid or not)
                "steer_rate": (self.steps - self.fallback_steps) / steps,
                "fallback_steps": self.fallback_steps, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "llm_seconds": self.seconds,
                "turns": self.turns}

    def add_turn(self, messages: list[dict[str, str]], completion: Completion, *,
                 fallback: bool = False) -> ParsedCompletion:
        """Parse one completion strictly, count it and keep the turn; returns the parse.

        ``fallback``: whether a fallback policy acts when the completion is invalid
        (the step is then the fallback's, not an invalid one).
        """
        parsed = parse_completion(completion.text)
        self.steps += 1
        self.valid_json += parsed.json_ok
        self.valid_action += parsed.valid
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        self.seconds += completion.seconds
        ran = "model" if parsed.valid else ("fallback" if fallback else "invalid")
        self.fallback_steps += ran == "fallback"
        self.turns.append({"messages": messages, "completion": completion.text,
                           "token_ids": completion.token_ids, "logprobs": completion.logprobs,
                           "finish_reason": completion.finish_reason, "ran": ran,
                           "error": parsed.error})
        return parsed


def step_seed(seed: int, step: int, temperature: float) -> int | None:
    """The sampling seed of one step: None when greedy, else distinct per (seed, step)."""
    return None if temperature == 0 else seed * 100_003 + step


class LLMLayoutPolicy:
    def __init__(self, backend: Backend, *, prompt_style: PromptStyle | None = None,
                 temperature: float = 0.0, max_tokens: int = 128, seed: int = 0,
                 fallback=None, name: str | None = None) -> None:
        self.backend = backend
        self.prompt_style = prompt_style or getattr(backend, "prompt_style", "compact")
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.fallback = fallback
        self.name = name or f"llm:{backend.name}"
        self.stats = EpisodeStats()

    def start_episode(self) -> None:
        self.stats = EpisodeStats()

    def episode_summary(self) -> dict[str, Any]:
        return self.stats.summary()

    def act(self, env, obs) -> Any:
        messages = layout_messages(obs, self.prompt_style)
        completion = self.backend.complete(
            [messages], n=1, temperature=self.temperature, max_tokens=self.max_tokens,
            seed=step_seed(self.seed, self.stats.steps, self.temperature))[0][0]
        parsed = self.stats.add_turn(messages, completion, fallback=self.fallback is not None)
        if parsed.valid:
            return parsed.action
        if self.fallback is not None:
            return self.fallback.act(env, obs)
        return completion.text
