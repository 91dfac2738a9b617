"""Reads the services make of jobs' episodes, steps and reward components (a service
writes no query of its own): one episode or the newest finished one, a job's episode ids,
steps after a position, status counts, and the rows a job's summary is built from."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from sqlalchemy import RowMapping, func, select
from sqlalchemy.orm import Session

from designrl.store.models import Episode, Job, RewardComponent, Step


def episode_ids(session: Session, job_id: str) -> list[str]:
    """A job's episode ids in submission order."""
    return list(session.scalars(select(Episode.id).where(Episode.job_id == job_id)
                                .order_by(Episode.position)))


def only_episode(session: Session, job_id: str) -> Episode:
    """The episode of a one-episode job (SQLAlchemy's ``NoResultFound`` or
    ``MultipleResultsFound`` if it has none or several)."""
    return session.scalars(select(Episode).where(Episode.job_id == job_id)).one()


def completed_families(session: Session, ids: Sequence[str]) -> dict[str, str]:
    """Of ``ids``, the completed episodes' families (id -> family); the rest are absent."""
    if not ids:
        return {}
    return dict(session.execute(select(Episode.id, Episode.family).where(
        Episode.id.in_(list(ids)), Episode.status == "completed")).all())


def latest_finished_episode(session: Session, *, task_id: str, item_key: str, policy: str,
                            profile: str | None, source: str | None,
                            owner: str | None = None) -> Episode | None:
    """The newest completed, ``ok`` episode with these settings and no policy version, in a
    job of ``owner`` (None: any job's); None if there is none."""
    query = (select(Episode).join(Job, Job.id == Episode.job_id)
             .where(Episode.task_id == task_id, Episode.item_key == item_key,
                    Episode.policy == policy, _same(Episode.profile, profile),
                    _same(Episode.source, source),
                    Episode.policy_version.is_(None), Episode.status == "completed",
                    Episode.outcome == "ok")
             .order_by(Episode.finished_at.desc()).limit(1))
    if owner is not None:
        query = query.where(Job.owner == owner)
    return session.scalars(query).first()


def _same(column, value):
    return column.is_(None) if value is None else column == value


def steps_after(session: Session, episode_id: str, after: int) -> list[Step]:
    """An episode's stored steps with index above ``after``, in index order."""
    return list(session.scalars(select(Step).where(Step.episode_id == episode_id,
                                                   Step.index > after).order_by(Step.index)))


def episode_status_counts(session: Session) -> dict[str, int]:
    """How many episodes (of every job) are in each status; absent statuses are left out."""
    return dict(session.execute(select(Episode.status, func.count())
                                .group_by(Episode.status)).all())


# The columns ``completed_episode_rows`` reads, besides id, family, task_id, policy, outcome,
# start_score and steer_rate.
SUMMARY_COLUMNS = ("final_score", "instruction_score", "total_reward", "valid_action_rate",
                   "seconds")


def completed_episode_rows(session: Session, job_id: str) -> list[RowMapping]:
    """A job's completed episodes in submission order, with only the columns a summary
    needs: id, family, task_id, policy, outcome, start_score, ``SUMMARY_COLUMNS`` and
    steer_rate (read out of the summary JSON in SQL). Never a stored layout or completion."""
    steer = Episode.summary[("policy_stats", "steer_rate")].as_float().label("steer_rate")
    return session.execute(
        select(Episode.id, Episode.family, Episode.task_id, Episode.policy, Episode.outcome,
               Episode.start_score, steer, *(getattr(Episode, name) for name in SUMMARY_COLUMNS))
        .where(Episode.job_id == job_id, Episode.status == "completed")
        .order_by(Episode.position)).mappings().all()


def completed_reward_components(session: Session, job_id: str) -> list[tuple[str, str, float]]:
    """(episode id, component name, value) of every reward component of a job's completed
    episodes."""
    return [tuple(row) for row in session.execute(
        select(RewardComponent.episode_id, RewardComponent.name, RewardComponent.value)
        .join(Episode, Episode.id == RewardComponent.episode_id)
        .where(Episode.job_id == job_id, Episode.status == "completed"))]


def step_scores(session: Session, job_id: str) -> dict[str, list[float | None]]:
    """Each completed episode's step scores in step order (None where a step has none), by
    episode id; episodes without steps are left out."""
    steps = session.execute(
        select(Step.episode_id, Step.score).join(Episode, Episode.id == Step.episode_id)
        .where(Episode.job_id == job_id, Episode.status == "completed")
        .order_by(Step.episode_id, Step.index)).all()
    return {episode_id: [s.score for s in group]
            for episode_id, group in groupby(steps, key=lambda s: s.episode_id)}
