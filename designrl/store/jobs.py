"""Data access for jobs and their episodes: the only place that writes them, and where
the services read them (with their steps and reward components: a service writes no query).

The rules the distributed pipeline relies on:

* ``create_job`` (``designrl.store.job_rows``: bulk inserts) commits the job, its
  groups and every episode row before the caller enqueues anything, so a failed
  enqueue loses nothing (the reconciler finds queued episodes with no live task:
  ``requeue_candidates``).
* ``claim_episode`` and ``finish_episode`` are idempotent by episode id: a
  redelivered or retried task finds the episode finished and writes nothing.
* Every write that can finish a job or group first locks the job row, so two
  workers finishing a job's last two episodes cannot both miss the end (and
  rows are always locked job first, then episode: no deadlock).
* An episode that ran and could not give a result (its outcome is one of
  ``FAILED_OUTCOMES``: the policy, a backend or the scorer raised) counts as
  failed in a job's progress; a job none of whose episodes gave a result ends
  ``failed``, one with some failures ``completed`` with ``error`` saying how many, which
  ``job_status`` reports as ``completed_with_errors``.
* A running episode whose worker is gone or whose time is up is taken back
  (``take_back_episode``): queued again, or failed once it was started as many
  times as the attempt cap allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.orm import Session

from designrl.rollout.record import NO_RESULT, EpisodeRecord
from designrl.store.job_rows import (  # noqa: F401 - a job's writes, imported from here too
    EpisodePlan,
    add_job,
    create_job,
    mark_enqueued,
    mark_job_enqueued,
)
from designrl.store.models import (
    FINISHED,
    Artifact,
    Episode,
    Group,
    Job,
    RewardComponent,
    Step,
    utcnow,
)

# Outcomes of an episode that ran but gave no result to score (not a design's failure).
FAILED_OUTCOMES = NO_RESULT
# What a finished job whose episodes partly failed reports (it is stored ``completed``).
COMPLETED_WITH_ERRORS = "completed_with_errors"


@dataclass(frozen=True)
class Finished:
    """What finishing an episode did: ``written`` is False for a duplicate."""

    written: bool
    group_completed: str | None = None  # a group whose last episode this was
    job_finished: bool = False


class NotFound(LookupError):
    pass


def claim_episode(session: Session, episode_id: str, worker: str) -> Episode | None:
    """Mark the episode running for ``worker`` and return it; None if it is finished,
    cancelled or unknown (the task then has nothing to do)."""
    job = _lock_job_of(session, episode_id)
    episode = session.get(Episode, episode_id, with_for_update=True) if job else None
    if episode is None or episode.status in FINISHED or job.status == "cancelled":
        session.rollback()
        return None
    now = utcnow()
    episode.status, episode.worker, episode.started_at = "running", worker, now
    episode.attempts += 1
    if job.status == "queued":
        job.status, job.started_at = "running", now
    # A claim lost with a crash of Postgres only leaves the episode queued: the
    # reconciler sends it again and the idempotent write keeps one record. Not waiting
    # for the disk here saves the claim's flush on every episode.
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit = off"))
    session.commit()
    return episode


def finish_episode(session: Session, episode_id: str, record: EpisodeRecord | None = None, *,
                   failed: str | None = None) -> Finished:
    """Write an episode's record (``status`` completed), or mark it failed with the reason
    ``failed`` (after its retries). Writes once per episode id; closes its group and job
    when they are done."""
    job = _lock_job_of(session, episode_id)
    if job is None:
        session.rollback()
        raise NotFound(f"no episode {episode_id}")
    episode = session.get(Episode, episode_id, with_for_update=True)
    if episode.status in FINISHED:  # written already, or its job was cancelled
        session.rollback()
        return Finished(False)
    now = utcnow()
    if record is not None:
        _write_record(session, episode, record)
        episode.status = "completed"
    else:
        episode.status, episode.outcome, episode.error = "failed", "error", failed
    episode.finished_at = now
    session.flush()
    group_done = _close_group(session, episode.group_id, now)
    job_done = _close_job(session, job, now)
    session.commit()
    return Finished(True, group_done, job_done)


def storable(value: Any) -> Any:
    """``value`` with every string fit for Postgres: a model's output may hold NUL
    characters or lone surrogates, which text and JSONB columns refuse; a NUL becomes
    U+FFFD and a lone surrogate ``?``, so the episode is recorded instead of failing."""
    if isinstance(value, str):
        if value.isascii() and "\x00" not in value:
            return value
        return value.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [storable(v) for v in value]
    return value


def _write_record(session: Session, episode: Episode, record: EpisodeRecord) -> None:
    """The record's fields, steps, reward components and images. An unfinished episode
    has none of these rows (they are written only in the commit that finishes it), so
    they are inserted in bulk, with nothing to replace."""
    fields = storable(record.model_dump())  # one dump, cleaned once, written as is
    for name in ("outcome", "start_score", "final_score", "instruction_score", "total_reward",
                 "valid_action_rate", "seconds", "summary", "error"):
        setattr(episode, name, fields[name])
    if fields["completion"] is not None:  # single-turn: what the policy answered
        episode.summary = {**(fields["summary"] or {}), "completion": fields["completion"]}
    episode.steps_count = len(fields["steps"])
    rows = ((Step, [{"episode_id": episode.id, "index": i, **step}
                    for i, step in enumerate(fields["steps"])]),
            (RewardComponent, [{"episode_id": episode.id, "name": name, "value": value}
                               for name, value in fields["rewards"].items()]),
            (Artifact, [{"episode_id": episode.id, "name": name, "content_type": "image/png",
                         "data": png}
                        for name, png in record.images.items()]))
    for table, values in rows:
        if values:
            session.execute(insert(table), values)


def _lock_job_of(session: Session, episode_id: str) -> Job | None:
    """The episode's job, its row locked (one round trip)."""
    return session.scalar(select(Job).join(Episode, Episode.job_id == Job.id)
                          .where(Episode.id == episode_id).with_for_update(of=Job))


def _unfinished(session: Session, where) -> bool:
    """Whether any episode ``where`` picks is unfinished: the first found answers (a count
    would read every episode of a 20,000-episode job at each one's end)."""
    return session.scalar(select(select(Episode.id).where(where, Episode.status.not_in(FINISHED))
                                 .exists())) or False


def _close_group(session: Session, group_id: str | None, now: datetime) -> str | None:
    if group_id is None or _unfinished(session, Episode.group_id == group_id):
        return None
    group = session.get(Group, group_id)
    if group.completed_at is not None:
        return None
    group.completed_at = now
    return group.id


def _close_job(session: Session, job: Job, now: datetime) -> bool:
    if job.status in FINISHED or _unfinished(session, Episode.job_id == job.id):
        return False
    session.flush()
    failed = job_progress(session, job.id)["failed"]
    if failed and failed == job.episodes_total:
        job.status = "failed"
        job.error = f"every episode failed ({failed}); first: {_first_error(session, job.id)}"
    else:
        job.status = "completed"
        if failed:
            job.error = (f"{failed} of {job.episodes_total} episodes failed; first: "
                         f"{_first_error(session, job.id)}")
    job.finished_at = now
    return True


def _first_error(session: Session, job_id: str) -> str:
    error = session.scalar(select(Episode.error).where(Episode.job_id == job_id,
                                                       _failed_episode())
                           .order_by(Episode.position).limit(1))
    return (error or "no error recorded")[:300]


def _failed_episode():
    return (Episode.status == "failed") | ((Episode.status == "completed")
                                           & Episode.outcome.in_(FAILED_OUTCOMES))


def cancel_job(session: Session, job_id: str) -> Job:
    """Cancel a job: its queued and running episodes end ``cancelled`` (a worker still
    running one finds it finished and writes nothing)."""
    job = session.get(Job, job_id, with_for_update=True)
    if job is None:
        session.rollback()
        raise NotFound(f"no job {job_id}")
    if job.status not in FINISHED:
        now = utcnow()
        session.execute(update(Episode).where(Episode.job_id == job_id,
                                              Episode.status.in_(("queued", "running")))
                        .values(status="cancelled", finished_at=now))
        job.status, job.finished_at = "cancelled", now
    session.commit()
    return job


def job_progress(session: Session, job_id: str) -> dict[str, int]:
    """Episodes of the job by status (every status present, zeros included). ``failed``
    also counts completed episodes that gave no result (``FAILED_OUTCOMES``), which
    ``completed`` then leaves out: the counts still add up to the job's episodes, and
    ``completed + failed`` is how many ran (a cancelled job's unrun ones are
    ``cancelled``)."""
    counts = dict(session.execute(select(Episode.status, func.count())
                                  .where(Episode.job_id == job_id).group_by(Episode.status)).all())
    errored = session.scalar(select(func.count()).select_from(Episode).where(
        Episode.job_id == job_id, Episode.status == "completed",
        Episode.outcome.in_(FAILED_OUTCOMES)))
    progress = {status: counts.get(status, 0)
                for status in ("queued", "running", "completed", "failed", "cancelled")}
    progress["completed"] -= errored
    progress["failed"] += errored
    return progress


def job_status(job: Job, progress: dict[str, int]) -> str:
    """The status to show for ``job`` with its ``progress``: the stored one, except that a
    completed job some of whose episodes failed is ``completed_with_errors`` (one all of
    whose episodes failed is stored ``failed``)."""
    if job.status == "completed" and progress["failed"]:
        return COMPLETED_WITH_ERRORS
    return job.status


def list_jobs(session: Session, *, owner: str | None = None, limit: int = 50,
              before: tuple[datetime, str] | None = None) -> list[Job]:
    """Newest first; ``before`` is the (created_at, id) of the last job of the previous page."""
    query = select(Job).order_by(Job.created_at.desc(), Job.id.desc()).limit(limit)
    if owner is not None:
        query = query.where(Job.owner == owner)
    if before is not None:
        created, job_id = before
        query = query.where((Job.created_at < created)
                            | ((Job.created_at == created) & (Job.id < job_id)))
    return list(session.scalars(query))


def list_episodes(session: Session, job_id: str, *, limit: int = 100,
                  after: int = -1) -> list[Episode]:
    """A job's episodes in submission order, from position ``after + 1``."""
    return list(session.scalars(select(Episode).where(Episode.job_id == job_id,
                                                      Episode.position > after)
                                .order_by(Episode.position).limit(limit)))


def requeue_candidates(session: Session, enqueued_before: datetime) -> list[str]:
    """Queued episodes of live jobs that were never enqueued or were enqueued before
    ``enqueued_before`` (their task was lost): the reconciler enqueues them again."""
    query = (select(Episode.id).join(Job, Job.id == Episode.job_id)
             .where(Episode.status == "queued", Job.status.in_(("queued", "running")),
                    (Episode.enqueued_at.is_(None)) | (Episode.enqueued_at < enqueued_before))
             .order_by(Episode.created_at, Episode.position))
    return list(session.scalars(query))


@dataclass(frozen=True)
class RunningEpisode:
    id: str
    worker: str | None
    started_at: datetime


def running_episodes(session: Session, started_before: datetime) -> list[RunningEpisode]:
    """Running episodes of live jobs that started before ``started_before``: the ones the
    reconciler may find lost (its worker gone, or its time up)."""
    query = (select(Episode.id, Episode.worker, Episode.started_at)
             .join(Job, Job.id == Episode.job_id)
             .where(Episode.status == "running", Job.status.in_(("queued", "running")),
                    Episode.started_at < started_before)
             .order_by(Episode.started_at))
    return [RunningEpisode(*row) for row in session.execute(query)]


def take_back_episode(session: Session, lost: RunningEpisode, max_attempts: int,
                      why: str) -> tuple[str, Finished]:
    """A lost running episode back to ``queued`` (to be enqueued again), or ``failed``
    once it was started ``max_attempts`` times. Nothing happens if it was claimed again or
    finished since ``lost`` was read. Returns what was done (``requeued``, ``failed``,
    ``unchanged``) and, for a failure, what finishing it did."""
    job = _lock_job_of(session, lost.id)
    episode = session.get(Episode, lost.id, with_for_update=True) if job else None
    if (episode is None or episode.status != "running" or episode.worker != lost.worker
            or episode.started_at != lost.started_at):
        session.rollback()
        return "unchanged", Finished(False)
    if episode.attempts >= max_attempts:  # finished in this transaction: the locks hold
        return "failed", finish_episode(session, lost.id, failed=(
            f"{why}; started {episode.attempts} times without finishing"))
    episode.status, episode.worker, episode.enqueued_at = "queued", None, None
    session.commit()
    return "requeued", Finished(False)


def groups_to_publish(session: Session) -> list[str]:
    """Completed groups whose scored group has not been published yet."""
    return list(session.scalars(select(Group.id).where(Group.completed_at.is_not(None),
                                                       Group.published_at.is_(None))))


def mark_published(session: Session, group_id: str) -> None:
    session.execute(update(Group).where(Group.id == group_id).values(published_at=utcnow()))
    session.commit()
