"""The outbox's first send: a committed job's episodes enqueued in batches, the sent ones
marked. Whatever a broker failure leaves unsent (or sent but unmarked) the reconciler
(``designrl.rollout.reconcile``) enqueues later, and workers take a repeated task once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

from designrl.store.jobs import mark_job_enqueued
from designrl.store.reads import episode_ids

log = logging.getLogger(__name__)

# Episodes sent per enqueue call: a broker failure part way leaves the batches before it
# marked enqueued and the rest for the reconciler.
ENQUEUE_BATCH = 1000


def enqueue_job(session: Session, enqueue: Callable[[Sequence[str]], None],
                job_id: str) -> None:
    """Enqueue a committed job's episodes in batches and mark the sent ones enqueued. A
    failure is logged, not raised: the rows are safe and the reconciler enqueues the rest."""
    ids = episode_ids(session, job_id)
    sent = 0
    try:
        for start in range(0, len(ids), ENQUEUE_BATCH):
            enqueue(ids[start:start + ENQUEUE_BATCH])
            sent = min(len(ids), start + ENQUEUE_BATCH)
    except Exception as exc:  # noqa: BLE001 - the rows are safe; the reconciler enqueues
        log.warning("job %s stored, %d of %d episodes enqueued (%s); the reconciler will "
                    "enqueue the rest", job_id, sent, len(ids), exc)
    try:
        if sent:
            mark_job_enqueued(session, job_id, sent)
    except Exception as exc:  # noqa: BLE001 - unmarked, they are sent again later: harmless
        session.rollback()
        log.warning("job %s: enqueued episodes not marked (%s)", job_id, exc)
