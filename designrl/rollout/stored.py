"""Running an episode that lives in the store: what a worker task does with an episode id.

``run_stored_episode`` claims the episode, runs it through ``run_episode_spec``
(the embedded path's call), writes its record once and, when it was the last of
its group, hands the group to ``publish``. Every step is idempotent by episode
id, so a retried or redelivered task is harmless.

Episodes of a group (rollouts for training) are sampled: at the job's
``temperature``, each with its own sampling seed. A ``vllm:latest`` episode with
no version of its own samples the version ``latest_version`` reads when the
episode starts (the learner's newest), and that version is written on the
episode, so its group says which policy sampled it.

No episode is left running: whatever the episode raises (a policy's
``openai.NotFoundError``, a backend's or a scorer's bug) is recorded as outcome
``error`` with the exception's type and message, except the exceptions the caller
names in ``passes`` (its transient faults and time limits, which it retries or records
itself: the attempt cap bounds the retries). An ``infra_error`` (the renderer's
browser lost on every try) is such a fault when the caller passes
``InfrastructureError``: raised while attempts are left, so the episode runs again
and its group waits for it; recorded on the last attempt, with no reward.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from sqlalchemy.orm import Session, sessionmaker

from designrl.policies import LATEST_POLICY, InferenceServer
from designrl.render.types import InfrastructureError
from designrl.rollout.episode import EpisodeSpec, OnStep, run_episode_spec
from designrl.rollout.record import INFRA_ERROR, EpisodeRecord
from designrl.rollout.single_turn import EpisodeContext
from designrl.store.jobs import claim_episode, finish_episode

log = logging.getLogger(__name__)

Outcome = Literal["done", "duplicate", "skipped", "gave_up"]


@dataclass(frozen=True)
class Ran:
    """What a delivery of a stored episode did; ``record`` is set when it ran it."""

    outcome: Outcome
    spec: EpisodeSpec | None = None
    record: EpisodeRecord | None = None


def stored_spec(episode) -> EpisodeSpec:
    sampled = episode.group_id is not None
    return EpisodeSpec(family=episode.family, task_id=episode.task_id, policy=episode.policy,
                       seed=episode.seed, item_key=episode.item_key, profile=episode.profile,
                       policy_version=episode.policy_version, source=episode.source,
                       temperature=float(episode.job.spec.get("temperature", 1.0)) if sampled
                       else 0.0,
                       sampling_seed=(episode.seed or 0) * 1_000 + episode.position if sampled
                       else None)


def run_stored_episode(sessions: sessionmaker[Session], episode_id: str, *, worker: str,
                       publish: Callable[[str], object] | None = None,
                       max_attempts: int = 3, server: InferenceServer | None = None,
                       latest_version: Callable[[], int | None] | None = None,
                       on_step: OnStep | None = None,
                       context: EpisodeContext | None = None,
                       passes: tuple[type[BaseException], ...] = ()) -> Ran:
    """Run one stored episode. Its outcome is ``done`` (written now), ``duplicate``
    (another delivery wrote it first), ``skipped`` (finished, cancelled or unknown) or
    ``gave_up`` (it was started ``max_attempts`` times already: recorded as failed).
    ``vllm:`` policies sample on ``server``; ``latest_version`` says which version
    ``vllm:latest`` is now; ``on_step`` sees each step as it is taken (the record is
    still written once, at the end); ``context`` is what single-turn episodes use (the
    browser pool, prediction sets, registered datasets). An exception of a type in
    ``passes`` propagates (the episode stays claimed, for the caller's retry); any other
    is the episode's recorded ``error``."""
    with sessions() as session:
        episode = claim_episode(session, episode_id, worker)
        if episode is None:
            return Ran("skipped")
        if episode.attempts > max_attempts:
            finished = finish_episode(session, episode_id,
                                      failed=f"started {max_attempts} times without finishing")
            _publish(finished.group_completed, publish)
            return Ran("gave_up")
        if (episode.policy == LATEST_POLICY and episode.policy_version is None
                and latest_version is not None):
            episode.policy_version = latest_version()
            session.commit()
        spec, attempts = stored_spec(episode), episode.attempts
    try:
        record = run_episode_spec(spec, server, on_step, context=context)
    except passes:
        raise
    except ValueError as exc:  # a spec nothing can run: a recorded outcome, never a retry
        record = EpisodeRecord(outcome="error", error=str(exc))
    except Exception as exc:  # noqa: BLE001 - a policy, backend or reward that raised
        log.warning("episode %s raised %s", episode_id, exc, exc_info=True)
        record = EpisodeRecord(outcome="error", error=f"{type(exc).__name__}: {exc}"[:1000])
    if (record.outcome == INFRA_ERROR and attempts < max_attempts
            and issubclass(InfrastructureError, passes)):
        raise InfrastructureError(record.error or INFRA_ERROR)
    return Ran(finish_stored_episode(sessions, episode_id, record, publish), spec, record)


def finish_stored_episode(sessions: sessionmaker[Session], episode_id: str,
                          record: EpisodeRecord,
                          publish: Callable[[str], object] | None = None) -> Outcome:
    """Write ``record`` for the episode (once) and publish its group if it completed it;
    ``done`` or ``duplicate``."""
    with sessions() as session:
        finished = finish_episode(session, episode_id, record)
    _publish(finished.group_completed, publish)
    return "done" if finished.written else "duplicate"


def _publish(group_id: str | None, publish: Callable[[str], object] | None) -> None:
    if group_id is not None and publish is not None:
        publish(group_id)
