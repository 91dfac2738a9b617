"""A job's rows written in bulk (COPY on Postgres, one executemany on SQLite) and the
outbox marks, against real Postgres and SQLite."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select

from designrl.store.jobs import (
    EpisodePlan,
    create_job,
    list_episodes,
    mark_job_enqueued,
    requeue_candidates,
)
from designrl.store.models import Episode, Group, Job, utcnow

pytestmark = pytest.mark.integration


def plans(n: int, group_size: int | None = None) -> list[EpisodePlan]:
    return [EpisodePlan(family="layout", task_id=f"gen-{'poster' if i % 3 else 'slide'}",
                        item_key=str(i // 4), seed=i // 4, policy="rule" if i % 2 else "random",
                        profile="default", policy_version=7 if group_size else None,
                        group=(i // group_size) if group_size else None,
                        source=None if i % 5 else "items.jsonl")
            for i in range(n)]


@pytest.mark.parametrize("n", [3, 250])  # under and over the size that takes COPY
def test_a_job_is_written_once_row_for_plan_with_its_groups(sessions, n):
    asked = plans(n, group_size=5 if n > 5 else None)
    with sessions() as session:
        job = create_job(session, kind="rollout", spec={"n": n}, plans=asked, owner="alice")
    with sessions() as session:
        assert session.get(Job, job.id).episodes_total == n
        episodes = list_episodes(session, job.id, limit=1000)
        assert [e.position for e in episodes] == list(range(n))
        assert len({e.id for e in episodes}) == n
        for plan, e in zip(asked, episodes, strict=True):
            assert (e.family, e.task_id, e.item_key, e.seed, e.policy, e.profile,
                    e.policy_version, e.source) == (
                plan.family, plan.task_id, plan.item_key, plan.seed, plan.policy,
                plan.profile, plan.policy_version, plan.source)
            assert (e.status, e.attempts, e.enqueued_at) == ("queued", 0, None)
        groups = {g.id: g for g in session.scalars(select(Group).where(Group.job_id == job.id))}
        members = Counter(e.group_id for e in episodes)
        if n > 5:
            assert len(groups) == n // 5
            assert all(groups[g].size == count == 5 for g, count in members.items())
            first = {e.group_id: e for e in reversed(episodes)}  # each group's first member
            assert all((g.task_id, g.item_key, g.policy, g.policy_version) == (
                first[g.id].task_id, first[g.id].item_key, first[g.id].policy, 7)
                for g in groups.values())
        else:
            assert groups == {} and members == {None: n}


def test_marking_a_jobs_sent_prefix_leaves_the_rest_to_the_reconciler(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(250))
        other = create_job(session, kind="benchmark", spec={}, plans=plans(3))
        mark_job_enqueued(session, job.id, 120)  # the broker failed after 120 were sent
        soon = utcnow()
        episodes = list_episodes(session, job.id, limit=1000)
        assert [e.enqueued_at is not None for e in episodes] == [True] * 120 + [False] * 130
        unsent = requeue_candidates(session, soon.replace(year=soon.year - 1))
        others = [e.id for e in list_episodes(session, other.id)]
        assert unsent == [e.id for e in episodes[120:]] + others
        assert session.scalar(select(Episode.enqueued_at).where(
            Episode.job_id == other.id).limit(1)) is None
