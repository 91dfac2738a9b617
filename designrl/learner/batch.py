"""From scored groups to the padded tensors TRL's GRPO loss reads.

A group's samples get advantages from their rewards, as TRL's GRPO does:
``r - mean`` over the group, divided by the group's std with ``scale="group"``.
A group whose rewards are all equal carries no signal (``None``: the caller skips
and counts it). A sample without a reward (an episode that errored or timed out)
is left out of the baseline and trained on with advantage 0, i.e. not at all.

Every sample trains on its assistant turns: a multi-turn layout episode on every
turn whose output the model chose (valid or not; a fallback policy's turns are the
fallback's, not the model's), each with the episode's advantage. A turn carries
the chat messages it answered, the sampled token ids and their behaviour
log-probabilities; the prompt is re-tokenised with the same chat template.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from designrl.rollout.groups import ScoredGroup

ScaleRewards = Literal["group", "none"]


class MalformedGroup(ValueError):
    """A group the learner cannot train on (no turns, no token ids): dropped and counted."""


@dataclass(frozen=True)
class TurnSample:
    group_id: str
    prompt_ids: list[int]
    completion_ids: list[int]
    logprobs: list[float] | None  # behaviour log-probabilities, one per completion token
    advantage: float


def group_advantages(rewards: list[float | None], scale: ScaleRewards = "group",
                     eps: float = 1e-4) -> list[float] | None:
    """Per-sample advantages, or ``None`` when the scored rewards do not vary."""
    scored = [r for r in rewards if r is not None]
    if len(scored) < 2:
        return None
    mean = sum(scored) / len(scored)
    std = math.sqrt(sum((r - mean) ** 2 for r in scored) / (len(scored) - 1))
    if std < 1e-9:
        return None
    divisor = std + eps if scale == "group" else 1.0
    return [0.0 if r is None else (r - mean) / divisor for r in rewards]


def turn_samples(group: ScoredGroup, prompt_ids_of, scale: ScaleRewards = "group"
                 ) -> list[TurnSample] | None:
    """The group's trainable turns with their advantages; ``None`` if it has no signal.

    ``prompt_ids_of(messages)`` tokenises a turn's chat messages with the generation
    prompt (the tokenizer's chat template). Raises ``MalformedGroup``.
    """
    advantages = group_advantages([s.reward for s in group.samples], scale)
    if advantages is None:
        return None
    out = []
    for sample, advantage in zip(group.samples, advantages, strict=True):
        if sample.reward is None:
            continue
        if not sample.turns:
            raise MalformedGroup(f"sample {sample.episode_id} of group {group.group_id} "
                                 "has no assistant turns")
        for n, turn in enumerate(sample.turns):
            if turn.get("ran") == "fallback":
                continue
            out.append(_turn_sample(group.group_id, sample.episode_id, n, turn, prompt_ids_of,
                                    advantage))
    return out


def _turn_sample(group_id: str, episode_id: str, n: int, turn: dict[str, Any], prompt_ids_of,
                 advantage: float) -> TurnSample:
    token_ids, logprobs = turn.get("token_ids"), turn.get("logprobs")
    where = f"turn {n} of episode {episode_id}"
    if not token_ids or not turn.get("messages"):
        raise MalformedGroup(f"{where} has no token ids or messages (the sampler must return "
                             "token ids: vLLM's return_token_ids)")
    if logprobs is not None and len(logprobs) != len(token_ids):
        raise MalformedGroup(f"{where}: {len(logprobs)} logprobs for {len(token_ids)} tokens")
    return TurnSample(group_id, list(prompt_ids_of(turn["messages"])), list(token_ids),
                      list(logprobs) if logprobs else None, advantage)


def collate(samples: list[TurnSample], pad_id: int, device="cpu") -> dict[str, Any]:
    """The tensors ``GRPOTrainer._compute_loss`` reads: prompts left-padded, completions
    right-padded, per-sample advantages, behaviour log-probabilities as
    ``old_per_token_logps`` (PPO-clip against the sampler) when every turn has them,
    and the batch's completion-token count."""
    import torch

    prompt_width = max(len(s.prompt_ids) for s in samples)
    completion_width = max(len(s.completion_ids) for s in samples)

    def left(ids):
        return [pad_id] * (prompt_width - len(ids)) + ids, \
            [0] * (prompt_width - len(ids)) + [1] * len(ids)

    def right(values, width, fill):
        return list(values) + [fill] * (width - len(values))

    prompts = [left(s.prompt_ids) for s in samples]
    batch = {
        "prompt_ids": torch.tensor([p for p, _ in prompts], device=device),
        "prompt_mask": torch.tensor([m for _, m in prompts], device=device),
        "completion_ids": torch.tensor(
            [right(s.completion_ids, completion_width, pad_id) for s in samples], device=device),
        "completion_mask": torch.tensor(
            [right([1] * len(s.completion_ids), completion_width, 0) for s in samples],
            device=device),
        "advantages": torch.tensor([s.advantage for s in samples], dtype=torch.float32,
                                   device=device),
    }
    batch["num_items_in_batch"] = batch["completion_mask"].sum()
    if all(s.logprobs is not None for s in samples):
        batch["old_per_token_logps"] = torch.tensor(
            [right(s.logprobs, completion_width, 0.0) for s in samples], dtype=torch.float32,
            device=device)
    return batch
