"""``EpisodeRecord``: what one episode produced, in the shape every consumer stores it.

The embedded benchmark, the workers and the database all speak this type, so an
episode run anywhere is recorded the same way. ``outcome`` is ``ok`` or why the
episode could not be scored normally (``invalid_output``, ``render_failed``,
``timeout``, ``error``, ``infra_error``); a scored failure is still a record, never an
exception. ``error`` and ``infra_error`` (``NO_RESULT``) carry no reward: nothing was
scored.
Single-turn records also carry the completion and the renders (``images``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

INFRA_ERROR = "infra_error"  # the renderer's machinery failed on every try, not the design
NO_RESULT = ("error", INFRA_ERROR)  # outcomes of an episode that ran but gave nothing to score


class StepRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] | None = None
    valid: bool = True
    reward: float | None = None
    score: float | None = None
    error: str | None = None
    info: dict[str, Any] | None = None

    @classmethod
    def from_layout(cls, entry: dict[str, Any]) -> StepRecord:
        """From one of ``layout_episode.run_episode``'s ``actions``."""
        action = entry["action"]
        return cls(action=action if isinstance(action, dict) else {"raw": action},
                   valid=entry["error"] is None, reward=entry["reward"], score=entry["score"],
                   error=entry["error"], info={"instruction_score": entry["instruction_score"],
                                               "potential": entry["potential"]})


class EpisodeRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    outcome: str = "ok"
    start_score: float | None = None
    final_score: float | None = None
    instruction_score: float | None = None
    total_reward: float | None = None
    valid_action_rate: float | None = None
    seconds: float | None = None
    steps: list[StepRecord] = Field(default_factory=list)
    rewards: dict[str, float] = Field(default_factory=dict)  # named components
    summary: dict[str, Any] = Field(default_factory=dict)  # layouts before/after, details, ...
    error: str | None = None
    completion: str | None = None  # single-turn: the policy's whole answer
    # single-turn: PNGs by name; stored as artifacts beside the row, never in its JSON
    images: dict[str, bytes] = Field(default_factory=dict, exclude=True, repr=False)

    @classmethod
    def from_layout(cls, record: dict[str, Any]) -> EpisodeRecord:
        """From ``layout_episode.run_episode``'s record."""
        steps = [StepRecord.from_layout(s) for s in record["actions"]]
        valid = sum(s.valid for s in steps)
        rewards = {"start_potential": record["start_potential"],
                   "final_potential": record["final_potential"]}
        summary = {k: record[k] for k in ("before", "after", "start_instruction_score",
                                          "invalid_actions", "done", "profile", "family")}
        if "policy_stats" in record:  # a language model's rates, tokens and turns
            summary["policy_stats"] = record["policy_stats"]
        return cls(start_score=record["start_score"], final_score=record["final_score"],
                   instruction_score=record["instruction_score"],
                   total_reward=record["total_reward"],
                   valid_action_rate=valid / len(steps) if steps else None,
                   seconds=record["seconds"], steps=steps,
                   rewards={k: v for k, v in rewards.items() if v is not None},
                   summary=summary)
