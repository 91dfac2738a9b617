"""Scored groups: a finished group's samples, published to a Redis stream for the learner.

A ``ScoredGroup`` is one stream entry (field ``group``: its JSON; ``group_id`` beside it
for cheap filtering). A group may be published twice (the publish succeeded but
marking it failed): consumers drop group ids they have seen.

An ``infra_error`` sample (the renderer failed, not the design) is left out: the
learner never sees it. Workers run such an episode again before recording it, so
its group waits for the re-run.

Each sample carries the policy version that sampled it. A group whose job named
no version (``vllm:latest``: each episode samples the newest when it starts) has
the oldest of its samples' versions, so staleness is never understated.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from designrl.config.common import GROUPS_STREAM
from designrl.rollout.record import INFRA_ERROR
from designrl.store.jobs import mark_published
from designrl.store.models import Episode, Group, RewardComponent


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    episode_id: str
    outcome: str | None
    reward: float | None
    components: dict[str, float] = {}
    completion: str | None = None  # single-turn: the model's text
    # each assistant turn: its messages, completion, token ids and the behaviour policy's
    # logprobs per completion token (what the learner trains on)
    turns: list[dict[str, Any]] | None = None
    policy_version: int | None = None  # the version that sampled it


class ScoredGroup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    group_id: str
    job_id: str
    task_id: str
    item_key: str
    policy: str
    policy_version: int | None
    samples: list[Sample]


def scored_group(session: Session, group_id: str) -> ScoredGroup:
    group = session.get(Group, group_id)
    episodes = session.scalars(select(Episode).where(Episode.group_id == group_id)
                               .order_by(Episode.position)).all()
    components: dict[str, dict[str, float]] = {e.id: {} for e in episodes}
    for row in session.scalars(select(RewardComponent).where(
            RewardComponent.episode_id.in_(list(components)))):
        components[row.episode_id][row.name] = row.value
    samples = []
    for e in episodes:
        if e.outcome == INFRA_ERROR:
            continue
        summary = e.summary or {}
        samples.append(Sample(
            episode_id=e.id, outcome=e.outcome, reward=e.total_reward,
            components=components[e.id], completion=summary.get("completion"),
            turns=summary.get("turns") or (summary.get("policy_stats") or {}).get("turns"),
            policy_version=e.policy_version))
    versions = [s.policy_version for s in samples if s.policy_version is not None]
    version = group.policy_version if group.policy_version is not None else min(
        versions, default=None)
    return ScoredGroup(group_id=group.id, job_id=group.job_id, task_id=group.task_id,
                       item_key=group.item_key, policy=group.policy,
                       policy_version=version, samples=samples)


def publish_group(sessions: sessionmaker[Session], redis, group_id: str,
                  stream: str = GROUPS_STREAM) -> str:
    """XADD the scored group, then mark it published; returns the stream entry id."""
    with sessions() as session:
        group = scored_group(session, group_id)
    entry = redis.xadd(stream, {"group_id": group_id, "group": group.model_dump_json()})
    with sessions() as session:
        mark_published(session, group_id)
    return entry.decode() if isinstance(entry, bytes) else entry
