"""The reconciler: what a lost enqueue or a lost publish leaves behind, done again.

``reconcile`` re-enqueues queued episodes whose task was never sent or was sent
longer ago than any task waits (their message is gone), and publishes completed
groups that were not published. Both actions are idempotent downstream, so
running it too often costs nothing but a query.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from designrl.store.jobs import groups_to_publish, mark_enqueued, requeue_candidates

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reconciled:
    requeued: int
    published: int


def reconcile(sessions: sessionmaker[Session], *, enqueued_before: datetime,
              enqueue: Callable[[Sequence[str]], None],
              publish: Callable[[str], object] | None = None) -> Reconciled:
    with sessions() as session:
        lost = requeue_candidates(session, enqueued_before)
        unpublished = groups_to_publish(session) if publish is not None else []
    if lost:
        enqueue(lost)
        with sessions() as session:
            mark_enqueued(session, lost)
        log.info("re-enqueued %d episodes", len(lost))
    for group_id in unpublished:
        publish(group_id)
    return Reconciled(len(lost), len(unpublished))
