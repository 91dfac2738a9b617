"""The tables: jobs, their episodes, each episode's steps, reward components and images
(artifacts), groups (episodes sampled together for one training item), prediction sets
(completions users upload to be scored); API keys; Eval Protocol rollouts (the episode each
``rollout_id`` started). Policy versions are not a table: the learner publishes them to the
adapter store and Redis (``designrl.learner.versions``).

An episode's id is its idempotency key: a worker that runs it twice (a retry,
a redelivery after a crash) writes it once. Statuses are plain strings so a
row reads well in ``psql``; ``JOB_STATUSES`` and ``EPISODE_STATUSES`` list them.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

JOB_KINDS = ("benchmark", "rollout")
JOB_STATUSES = ("queued", "running", "completed", "failed", "cancelled")
EPISODE_STATUSES = ("queued", "running", "completed", "failed", "cancelled")
FINISHED = ("completed", "failed", "cancelled")


def new_id() -> str:
    return uuid.uuid4().hex


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {
        dict[str, Any]: JSON().with_variant(JSONB(), "postgresql"),
        list[Any]: JSON().with_variant(JSONB(), "postgresql"),
        datetime: DateTime(timezone=True),
    }


class ApiKey(Base):
    """An API key, stored as its SHA-256. ``role``: ``admin`` (sees and cancels every job),
    ``user`` (submits jobs and sees its own) or ``reader`` (submits nothing; reads the jobs
    of the key named in ``reads``, or every job for ``*``)."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(16), default="user")
    reads: Mapped[str | None] = mapped_column(String(100))  # a reader's: whose jobs
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]


class Job(Base):
    """A benchmark or rollout job: its validated request and how far it has come."""

    __tablename__ = "jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    spec: Mapped[dict[str, Any]]
    owner: Mapped[str | None] = mapped_column(String(100), index=True)
    episodes_total: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    episodes: Mapped[list[Episode]] = relationship(back_populates="job",
                                                   cascade="all, delete-orphan")


class Group(Base):
    """Episodes sampled together for one task item and policy version (a GRPO group)."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True)
    task_id: Mapped[str] = mapped_column(String(100))
    item_key: Mapped[str] = mapped_column(String(200))
    policy: Mapped[str] = mapped_column(String(100))
    policy_version: Mapped[int | None]
    size: Mapped[int]
    completed_at: Mapped[datetime | None]  # when its last episode finished
    published_at: Mapped[datetime | None]  # when the scored group went to the stream


class Episode(Base):
    """One episode (or one single-turn sample): what ran, its outcome and its scores."""

    __tablename__ = "episodes"
    __table_args__ = (Index("ix_episodes_job_status", "job_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"))
    group_id: Mapped[str | None] = mapped_column(ForeignKey("groups.id", ondelete="SET NULL"),
                                                 index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)  # order within its job
    family: Mapped[str] = mapped_column(String(16))
    task_id: Mapped[str] = mapped_column(String(100))
    item_key: Mapped[str] = mapped_column(String(200))  # the seed, or the dataset item's id
    seed: Mapped[int | None] = mapped_column(BigInteger)
    policy: Mapped[str] = mapped_column(String(100))
    policy_version: Mapped[int | None]
    profile: Mapped[str | None] = mapped_column(String(16))
    source: Mapped[str | None] = mapped_column(String(500))  # a dataset task's named file
    status: Mapped[str] = mapped_column(String(16), default="queued")
    outcome: Mapped[str | None] = mapped_column(String(64))  # ok, or why not
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    worker: Mapped[str | None] = mapped_column(String(200))
    start_score: Mapped[float | None] = mapped_column(Float)
    final_score: Mapped[float | None] = mapped_column(Float)
    instruction_score: Mapped[float | None] = mapped_column(Float)
    total_reward: Mapped[float | None] = mapped_column(Float)
    valid_action_rate: Mapped[float | None] = mapped_column(Float)
    steps_count: Mapped[int | None]
    seconds: Mapped[float | None] = mapped_column(Float)
    summary: Mapped[dict[str, Any] | None]  # the rest of the record (renders, layouts, ...)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    enqueued_at: Mapped[datetime | None]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    job: Mapped[Job] = relationship(back_populates="episodes")
    steps: Mapped[list[Step]] = relationship(order_by="Step.index", cascade="all, delete-orphan")
    rewards: Mapped[list[RewardComponent]] = relationship(cascade="all, delete-orphan")
    artifacts: Mapped[list[Artifact]] = relationship(cascade="all, delete-orphan")


class Step(Base):
    """One step of an episode: the action, whether it was valid, its reward and score."""

    __tablename__ = "steps"

    episode_id: Mapped[str] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"),
                                            primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    action: Mapped[dict[str, Any] | None]
    valid: Mapped[bool]
    reward: Mapped[float | None] = mapped_column(Float)
    score: Mapped[float | None] = mapped_column(Float)
    error: Mapped[str | None] = mapped_column(Text)
    info: Mapped[dict[str, Any] | None]


class RewardComponent(Base):
    """A named reward component of an episode (the total is ``Episode.total_reward``)."""

    __tablename__ = "rewards"

    episode_id: Mapped[str] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"),
                                            primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class Artifact(Base):
    """A file an episode produced (a render, as PNG), served to the key that owns its job."""

    __tablename__ = "artifacts"

    episode_id: Mapped[str] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"),
                                            primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    content_type: Mapped[str] = mapped_column(String(64), default="image/png")
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PredictionSet(Base):
    """Completions a user already has, by item id: what a ``predictions:<id>`` policy answers."""

    __tablename__ = "prediction_sets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    name: Mapped[str | None] = mapped_column(String(100))
    owner: Mapped[str | None] = mapped_column(String(100), index=True)
    items: Mapped[dict[str, Any]] = mapped_column(deferred=True)  # item id -> completion
    item_count: Mapped[int] = mapped_column(Integer)
    size_bytes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EpRollout(Base):
    """An Eval Protocol rollout (``POST /ep/init``) and the episode it started: kept here,
    not in a process, so its status survives API restarts and any API replica answers.
    ``rollout_id`` is the client's; the other ids are the tags its traces carry."""

    __tablename__ = "ep_rollouts"

    rollout_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    episode_id: Mapped[str] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"),
                                            index=True)
    owner: Mapped[str | None] = mapped_column(String(100))
    invocation_id: Mapped[str] = mapped_column(String(200))
    experiment_id: Mapped[str] = mapped_column(String(200))
    run_id: Mapped[str] = mapped_column(String(200))
    row_id: Mapped[str] = mapped_column(String(200))
    messages: Mapped[list[Any]]  # the prompt the policy was asked (the trace's input)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
