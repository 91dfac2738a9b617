"""Writing a submitted job: its row, its groups and its episodes in one transaction (bulk
inserts: Postgres' COPY for big jobs), and the outbox marks that say which episodes' tasks
were sent (``enqueued_at``; the reconciler sends those without one again)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, text, update
from sqlalchemy.orm import Session

from designrl.store.models import Episode, Group, Job, new_id, utcnow


@dataclass(frozen=True)
class EpisodePlan:
    """One episode a job will run. Plans with the same ``group`` form one sampled group."""

    family: str
    task_id: str
    item_key: str
    policy: str
    seed: int | None = None
    profile: str | None = None
    policy_version: int | None = None
    group: int | None = None
    source: str | None = None  # a dataset task's file (a registered name, or embedded a path)


def create_job(session: Session, *, kind: str, spec: dict[str, Any],
               plans: Sequence[EpisodePlan], owner: str | None = None) -> Job:
    """Insert a job with its groups and episodes, and commit."""
    job = add_job(session, kind=kind, spec=spec, plans=plans, owner=owner)
    session.commit()
    return job


def add_job(session: Session, *, kind: str, spec: dict[str, Any],
            plans: Sequence[EpisodePlan], owner: str | None = None) -> Job:
    """Insert a job with its groups and episodes, uncommitted: for a caller that stores
    rows of its own in the same transaction (``designrl.store.rollouts``). Groups and
    episodes go in as two bulk inserts (one multi-row statement per batch, no ORM unit of
    work): a 20,000-episode job is written in well under a second."""
    job = Job(id=new_id(), kind=kind, spec=spec, owner=owner, episodes_total=len(plans))
    session.add(job)
    session.flush()  # parents before the rows that reference them
    sizes = Counter(p.group for p in plans if p.group is not None)
    group_ids: dict[int, str] = {}
    group_rows = []
    for p in plans:
        if p.group is not None and p.group not in group_ids:
            group_ids[p.group] = new_id()
            group_rows.append({"id": group_ids[p.group], "job_id": job.id, "task_id": p.task_id,
                               "item_key": p.item_key, "policy": p.policy,
                               "policy_version": p.policy_version, "size": sizes[p.group]})
    _insert_rows(session, Group, group_rows)
    now = utcnow()  # one submission time for every row (and no default called per row)
    episode_rows = [
        {"id": new_id(), "job_id": job.id, "position": i, "family": p.family,
         "task_id": p.task_id, "item_key": p.item_key, "seed": p.seed, "policy": p.policy,
         "policy_version": p.policy_version, "profile": p.profile, "source": p.source,
         "group_id": group_ids.get(p.group) if p.group is not None else None,
         "status": "queued", "attempts": 0, "created_at": now}
        for i, p in enumerate(plans)]
    _insert_rows(session, Episode, episode_rows)
    return job


def _insert_rows(session: Session, model: type, rows: list[dict[str, Any]]) -> None:
    """Bulk insert in the session's transaction: Postgres' COPY (an executemany sends
    one INSERT per row, about 10 times slower), else one executemany."""
    if not rows:
        return
    if len(rows) < 100 or session.get_bind().dialect.name != "postgresql":
        session.execute(insert(model), rows)  # a small job: fewer round trips than COPY
        return
    columns = list(rows[0])
    cursor = session.connection().connection.driver_connection.cursor()
    with cursor, cursor.copy(f"COPY {model.__tablename__} ({', '.join(columns)}) "
                             "FROM STDIN") as copy:
        for row in rows:
            copy.write_row([row[c] for c in columns])


def mark_enqueued(session: Session, episode_ids: Sequence[str]) -> None:
    """Record that the episodes' tasks were sent."""
    _skip_flush_to_disk(session)
    now = utcnow()
    for start in range(0, len(episode_ids), 5000):  # bounded statements for any job size
        session.execute(update(Episode).where(Episode.id.in_(episode_ids[start:start + 5000]))
                        .values(enqueued_at=now))
    session.commit()


def mark_job_enqueued(session: Session, job_id: str, count: int) -> None:
    """Record that the tasks of the job's first ``count`` episodes (by position) were sent:
    one statement for a job of any size."""
    _skip_flush_to_disk(session)
    session.execute(update(Episode).where(Episode.job_id == job_id, Episode.position < count,
                                          Episode.enqueued_at.is_(None))
                    .values(enqueued_at=utcnow()))
    session.commit()


def _skip_flush_to_disk(session: Session) -> None:
    # Postgres need not wait for this commit to reach the disk: a mark lost in a crash
    # only has the reconciler send those tasks again, which the workers shrug off.
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit TO OFF"))
