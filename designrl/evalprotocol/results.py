"""What a stored rollout reports to Eval Protocol: its status, its log entry (whose
``extras`` become the row's ``execution_metadata.extra``) and its trace (the messages).

Status: ``RUNNING`` (101) while the episode is queued or running; ``FINISHED`` (100) once it
is scored, whatever the score (an unusable answer is a scored 0, as in every job);
``INTERNAL`` (13) when it ran and gave nothing to score (outcome ``error`` or
``infra_error``, or failed after its retries), with the reason; ``CANCELLED`` (1) when its
job was cancelled. The extras carry our reward (``reward``), its components
(``reward_components``), the episode (``episode_id``, ``job_id``) and what ran.
"""

from __future__ import annotations

from typing import Any

from designrl.evalprotocol.wire import Code, tags
from designrl.rollout.record import NO_RESULT
from designrl.store.models import Episode
from designrl.store.rollouts import StoredRollout


def status_of(episode: Episode) -> dict[str, Any]:
    """The rollout's status: ``{"code", "message", "details"}``."""
    if episode.status in ("queued", "running"):
        return _status(Code.RUNNING, f"the episode is {episode.status}")
    if episode.status == "cancelled":
        return _status(Code.CANCELLED, "the episode's job was cancelled")
    if episode.status == "failed" or episode.outcome in NO_RESULT:
        outcome = episode.outcome or "failed"
        return _status(Code.INTERNAL, f"the episode gave no result ({outcome}): "
                       f"{episode.error or 'no reason recorded'}")
    return _status(Code.FINISHED, f"scored: outcome {episode.outcome}, reward "
                   f"{_shown(episode.total_reward)}")


def _status(code: Code, message: str) -> dict[str, Any]:
    return {"code": int(code), "message": message, "details": []}


def _shown(value: float | None) -> str:
    return "none" if value is None else f"{value:.4f}"


def status_reply(stored: StoredRollout) -> dict[str, Any]:
    """``GET /v1/status``'s body."""
    return {"rollout_id": stored.rollout.rollout_id, "status": status_of(stored.episode),
            "extras": None}


def extras(stored: StoredRollout) -> dict[str, Any]:
    """What the row's ``execution_metadata.extra`` receives."""
    episode = stored.episode
    return {"reward": episode.total_reward, "reward_components": dict(stored.rewards),
            "episode_id": episode.id, "job_id": episode.job_id, "outcome": episode.outcome,
            "task_id": episode.task_id, "item_key": episode.item_key,
            "policy": episode.policy, "error": episode.error}


def log_entry(stored: StoredRollout) -> dict[str, Any]:
    """The rollout's one log entry, as ``GET /logs`` lists it."""
    episode, status = stored.episode, status_of(stored.episode)
    when = episode.finished_at or episode.started_at or episode.created_at
    return {"timestamp": when.isoformat() if when else None, "message": status["message"],
            "severity": "ERROR" if status["code"] in (Code.INTERNAL, Code.CANCELLED)
            else "INFO", "tags": tags(stored.rollout), "status": status,
            "extras": extras(stored)}


def trace(stored: StoredRollout) -> dict[str, Any]:
    """The rollout's trace: the prompt the policy was asked, and its answer (``output`` is
    None until the episode has one)."""
    completion = (stored.episode.summary or {}).get("completion")
    return {"id": stored.episode.id, "tags": tags(stored.rollout),
            "input": {"messages": list(stored.rollout.messages)},
            "output": None if completion is None else {"role": "assistant",
                                                      "content": completion}}
