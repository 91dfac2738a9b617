"""Eval Protocol rollouts: the one-episode job a ``POST /ep/init`` starts, stored with its
``ep_rollouts`` row in one transaction, and a rollout read back with its episode and reward
components (what ``/ep/v1/status``, ``/ep/logs`` and ``/ep/v1/traces/pointwise`` answer).

A ``rollout_id`` starts one episode, once: an init sent again (the client retries a 5xx or
a lost connection with the same id) finds the stored rollout (``RolloutExists``), and two
sent at once cannot both store one (the id is the table's key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from designrl.store.jobs import EpisodePlan, add_job
from designrl.store.models import Episode, EpRollout, Job, RewardComponent


@dataclass(frozen=True)
class RolloutIds:
    """The ids Eval Protocol names a rollout by (its ``RolloutMetadata``)."""

    rollout_id: str
    invocation_id: str
    experiment_id: str
    run_id: str
    row_id: str


@dataclass(frozen=True)
class StoredRollout:
    """A rollout, the episode it started and that episode's reward components."""

    rollout: EpRollout
    episode: Episode
    rewards: dict[str, float]


class RolloutExists(Exception):
    """The ``rollout_id`` has a stored rollout already (``stored`` is it)."""

    def __init__(self, stored: StoredRollout) -> None:
        super().__init__(f"rollout {stored.rollout.rollout_id} exists")
        self.stored = stored


def create_rollout_job(session: Session, *, ids: RolloutIds, messages: list[dict[str, Any]],
                       kind: str, spec: dict[str, Any], plans: Sequence[EpisodePlan],
                       owner: str | None = None) -> Job:
    """Store a one-episode job and the rollout that names its episode, and commit; raise
    ``RolloutExists`` if the rollout id was stored first (nothing of this call is kept).
    ``messages`` is the prompt the policy is asked (the trace's input)."""
    if len(plans) != 1:
        raise ValueError(f"a rollout runs one episode, not {len(plans)}")
    job = add_job(session, kind=kind, spec=spec, plans=plans, owner=owner)
    episode_id = session.scalars(select(Episode.id).where(Episode.job_id == job.id)).one()
    session.add(EpRollout(rollout_id=ids.rollout_id, episode_id=episode_id, owner=owner,
                          invocation_id=ids.invocation_id, experiment_id=ids.experiment_id,
                          run_id=ids.run_id, row_id=ids.row_id, messages=messages))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        stored = find_rollout(session, ids.rollout_id)
        if stored is None:
            raise
        raise RolloutExists(stored) from None
    return job


def find_rollout(session: Session, rollout_id: str) -> StoredRollout | None:
    """The rollout stored under ``rollout_id``, with its episode, or None."""
    found = session.execute(select(EpRollout, Episode)
                            .join(Episode, Episode.id == EpRollout.episode_id)
                            .where(EpRollout.rollout_id == rollout_id)).first()
    if found is None:
        return None
    rollout, episode = found
    rewards = dict(session.execute(select(RewardComponent.name, RewardComponent.value)
                                   .where(RewardComponent.episode_id == episode.id)).all())
    return StoredRollout(rollout, episode, rewards)
