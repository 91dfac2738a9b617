"""The reconciler: what a lost enqueue, a lost publish or a lost worker leaves behind, done
again.

``reconcile`` re-enqueues queued episodes whose task was never sent or was sent
longer ago than any task waits (their message is gone), takes back running episodes
that are lost (``Lost``: their worker stopped beating, or they are past any time
limit) and either queues them again or, after the attempt cap, records them failed,
and publishes completed groups that were not published. When the broker lost its data
since the last pass (``broker``, ``designrl.rollout.broker``) every queued episode's
task is gone, and every queued episode is enqueued again at once. Every action is
idempotent downstream, so running it too often costs nothing but a query.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from designrl.rollout.broker import BrokerMark
from designrl.store.jobs import (
    groups_to_publish,
    mark_enqueued,
    requeue_candidates,
    running_episodes,
    take_back_episode,
)
from designrl.store.models import utcnow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Lost:
    """When a running episode is lost. ``started_before``: one started earlier is past
    any time limit (the workers' limit and the grace to record a time-out). ``quiet_before``:
    one started earlier has had time for its worker's heartbeat to show; it is lost if
    ``alive`` (the workers among some names whose heartbeat is live; it may raise, and then
    every worker counts as alive) leaves its worker out. ``max_attempts``: the workers'
    attempt cap; an episode started that often is recorded failed, not queued again."""

    started_before: datetime
    quiet_before: datetime
    alive: Callable[[Sequence[str]], set[str]]
    max_attempts: int


@dataclass(frozen=True)
class Reconciled:
    requeued: int
    published: int
    taken_back: int = 0  # running episodes found lost (queued again or failed)
    failed: int = 0  # of those, the ones past the attempt cap
    broker_lost: bool = False  # the broker lost its data: every queued episode requeued


def reconcile(sessions: sessionmaker[Session], *, enqueued_before: datetime,
              enqueue: Callable[[Sequence[str]], None],
              publish: Callable[[str], object] | None = None,
              lost: Lost | None = None,
              broker: BrokerMark | None = None) -> Reconciled:
    """One pass. ``broker`` tells whether the broker lost its queue since the last pass:
    then every queued episode is enqueued again, not only those enqueued before
    ``enqueued_before``, and the loss is settled once they are."""
    taken_back, failed, completed_groups = (take_back_lost(sessions, lost) if lost is not None
                                            else (0, 0, []))
    emptied = broker is not None and broker.lost()
    with sessions() as session:
        queued = requeue_candidates(session, utcnow() if emptied else enqueued_before)
        unpublished = groups_to_publish(session) if publish is not None else []
    if queued:
        enqueue(queued)
        with sessions() as session:
            mark_enqueued(session, queued)
        log.info("re-enqueued %d episodes", len(queued))
    if emptied:
        broker.settle()
    for group_id in dict.fromkeys([*completed_groups, *unpublished]):
        publish(group_id)
    return Reconciled(len(queued), len(unpublished), taken_back, failed, emptied)


def take_back_lost(sessions: sessionmaker[Session], lost: Lost) -> tuple[int, int, list[str]]:
    """Running episodes that are lost back to ``queued`` (the caller enqueues them with the
    other queued episodes) or failed: (taken back, failed, groups a failure completed)."""
    with sessions() as session:
        running = running_episodes(session, lost.quiet_before)
        overdue = {r.id for r in running_episodes(session, lost.started_before)}
    if not running:
        return 0, 0, []
    try:
        alive = lost.alive([r.worker for r in running if r.worker])
    except Exception as exc:  # noqa: BLE001 - unknown is not dead: judge by time alone
        log.warning("worker heartbeats unreadable (%s); only time-outs are taken back", exc)
        alive = {r.worker for r in running}
    taken, failed, groups = 0, 0, []
    for episode in running:
        if episode.worker in alive and episode.id not in overdue:
            continue
        why = ("over the time limit" if episode.id in overdue
               else f"its worker {episode.worker} stopped answering")
        with sessions() as session:
            done, finished = take_back_episode(session, episode, lost.max_attempts, why)
        if done == "unchanged":
            continue
        taken += 1
        failed += done == "failed"
        if finished.group_completed is not None:
            groups.append(finished.group_completed)
        log.warning("episode %s %s: %s", episode.id, why, done)
    return taken, failed, groups
