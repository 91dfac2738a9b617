"""The store against real Postgres and SQLite: migrations, idempotent writes, job and group
completion under concurrency, cancellation, reconciliation, pagination."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from designrl.rollout.record import EpisodeRecord, StepRecord
from designrl.store import make_engine
from designrl.store.jobs import (
    EpisodePlan,
    NotFound,
    cancel_job,
    claim_episode,
    create_job,
    finish_episode,
    groups_to_publish,
    job_progress,
    list_episodes,
    list_jobs,
    mark_enqueued,
    mark_published,
    requeue_candidates,
    running_episodes,
    take_back_episode,
)
from designrl.store.migrate import downgrade, tables, upgrade
from designrl.store.models import Episode, Group, Job, RewardComponent, Step, utcnow

pytestmark = pytest.mark.integration

TABLES = {"api_keys", "jobs", "groups", "episodes", "steps", "rewards", "ep_rollouts"}


def plans(n: int, group_size: int | None = None) -> list[EpisodePlan]:
    return [EpisodePlan(family="layout", task_id="gen-poster", item_key=str(1000 + i // 2),
                        seed=1000 + i // 2, policy="expert", profile="default",
                        group=(i // group_size) if group_size else None)
            for i in range(n)]


def record(score: float = 0.75) -> EpisodeRecord:
    return EpisodeRecord(start_score=0.5, final_score=score, instruction_score=0.9,
                         total_reward=0.1 + 0.2, valid_action_rate=0.5, seconds=1.5,
                         steps=[StepRecord(action={"type": "move"}, reward=0.25, score=0.6),
                                StepRecord(action={"type": "bogus"}, valid=False,
                                           error="unknown action", reward=-0.05)],
                         rewards={"potential": 0.125}, summary={"after": {"a": 1}})


def test_migrations_create_and_drop_every_table(db_url):
    upgrade(db_url)
    engine = make_engine(db_url)
    assert TABLES <= tables(engine)
    assert "policy_versions" not in tables(engine)  # dropped by 0003: nothing used it
    downgrade(db_url, "0002")
    assert "policy_versions" in tables(engine)
    downgrade(db_url, "base")
    assert not TABLES & tables(engine)
    upgrade(db_url)
    assert TABLES <= tables(engine)
    engine.dispose()


def test_a_job_and_all_its_episodes_are_committed_together(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={"tasks": ["gen-poster"]},
                         plans=plans(6, group_size=3), owner="alice")
    with sessions() as other:  # a new connection sees every row
        stored = other.get(Job, job.id)
        assert stored.status == "queued" and stored.episodes_total == 6
        assert stored.spec == {"tasks": ["gen-poster"]}
        episodes = list_episodes(other, job.id)
        assert [e.position for e in episodes] == list(range(6))
        assert other.scalar(select(func.count()).select_from(Group)) == 2
        assert all(g.size == 3 for g in other.scalars(select(Group)))
        assert job_progress(other, job.id) == {"queued": 6, "running": 0, "completed": 0,
                                               "failed": 0, "cancelled": 0}


def test_finishing_is_idempotent_and_exact(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(2))
        first = list_episodes(session, job.id)[0].id
        assert claim_episode(session, first, "worker-1").status == "running"
        done = finish_episode(session, first, record())
        again = finish_episode(session, first, record(score=0.1))  # a redelivered task
        assert done.written and not again.written
        assert claim_episode(session, first, "worker-2") is None
    with sessions() as session:
        episode = session.get(Episode, first)
        assert episode.status == "completed" and episode.attempts == 1
        assert episode.final_score == 0.75 and episode.total_reward == 0.1 + 0.2  # doubles
        assert episode.steps_count == 2 and episode.summary == {"after": {"a": 1}}
        steps = session.scalars(select(Step).where(Step.episode_id == first)
                                .order_by(Step.index)).all()
        assert [(s.index, s.valid, s.error) for s in steps] == [
            (0, True, None), (1, False, "unknown action")]
        rewards = session.scalars(select(RewardComponent)).all()
        assert [(r.name, r.value) for r in rewards] == [("potential", 0.125)]
    with pytest.raises(NotFound):
        with sessions() as session:
            finish_episode(session, "nope", record())


def test_a_model_s_nul_characters_and_lone_surrogates_are_recorded_not_fatal(sessions):
    """Postgres refuses NUL in text and JSONB, and UTF-8 refuses lone surrogates; a model
    can write both (a sampled completion did, through vLLM)."""
    hostile = "ild\x00\ud800end"
    bad = EpisodeRecord(start_score=0.5, final_score=0.5, total_reward=-0.05,
                        steps=[StepRecord(action={"raw": hostile}, valid=False,
                                          error=f"not JSON: {hostile}", reward=-0.05)],
                        summary={"policy_stats": {"turns": [{"completion": hostile}]},
                                 hostile: [hostile]})
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(1))
        episode_id = list_episodes(session, job.id)[0].id
        assert finish_episode(session, episode_id, bad).written
    with sessions() as session:
        step = session.scalars(select(Step).where(Step.episode_id == episode_id)).one()
        assert step.action["raw"] == step.error[len("not JSON: "):] == "ild\ufffd?end"
        summary = session.get(Episode, episode_id).summary
        assert summary["policy_stats"]["turns"][0]["completion"] == "ild\ufffd?end"
        assert summary["ild\ufffd?end"] == ["ild\ufffd?end"]


def test_job_and_groups_close_with_their_last_episode(sessions):
    with sessions() as session:
        job = create_job(session, kind="rollout", spec={}, plans=plans(4, group_size=2))
        ids = [e.id for e in list_episodes(session, job.id)]
        results = [finish_episode(session, i, record()) if n != 2 else
                   finish_episode(session, i, failed="worker lost three times")
                   for n, i in enumerate(ids)]
        assert [r.group_completed is not None for r in results] == [False, True, False, True]
        assert [r.job_finished for r in results] == [False, False, False, True]
        assert session.get(Job, job.id).status == "completed"
        assert session.get(Episode, ids[2]).status == "failed"
        assert sorted(groups_to_publish(session)) == sorted(r.group_completed for r in results
                                                            if r.group_completed)
        mark_published(session, results[1].group_completed)
        assert groups_to_publish(session) == [results[3].group_completed]


def test_concurrent_last_episodes_finish_the_job_exactly_once(sessions):
    for _ in range(5):
        with sessions() as session:
            job = create_job(session, kind="benchmark", spec={}, plans=plans(2, group_size=2))
            ids = [e.id for e in list_episodes(session, job.id)]
        barrier, outcomes = threading.Barrier(2), []

        def finish(episode_id: str, barrier=barrier, outcomes=outcomes) -> None:
            with sessions() as own:
                barrier.wait()
                outcomes.append(finish_episode(own, episode_id, record()))

        threads = [threading.Thread(target=finish, args=(i,)) for i in ids]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sum(o.job_finished for o in outcomes) == 1
        assert sum(o.group_completed is not None for o in outcomes) == 1
        with sessions() as session:
            assert session.get(Job, job.id).status == "completed"


def test_cancel_ends_running_and_queued_episodes(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(4))
        done, running, *queued = [e.id for e in list_episodes(session, job.id)]
        claim_episode(session, done, "w")
        finish_episode(session, done, record())
        claim_episode(session, running, "w")
        assert cancel_job(session, job.id).status == "cancelled"
        progress = job_progress(session, job.id)
        assert progress == {"queued": 0, "running": 0, "completed": 1, "failed": 0,
                            "cancelled": 3}
        assert claim_episode(session, queued[0], "w") is None
        # the worker still running one finds it over: its record is not written
        assert not finish_episode(session, running, record()).written
        assert session.get(Episode, running).status == "cancelled"
        assert session.get(Episode, done).status == "completed"  # finished work is kept
        assert session.get(Job, job.id).status == "cancelled"
        with pytest.raises(NotFound):
            cancel_job(session, "nope")


def test_reconciler_finds_queued_episodes_no_task_holds(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(3))
        ids = [e.id for e in list_episodes(session, job.id)]
        mark_enqueued(session, ids[1:])  # the first enqueue failed
        now = utcnow()
        assert requeue_candidates(session, now - timedelta(minutes=5)) == [ids[0]]
        assert requeue_candidates(session, now + timedelta(seconds=1)) == ids  # all stale
        claim_episode(session, ids[1], "w")
        assert ids[1] not in requeue_candidates(session, now + timedelta(seconds=1))
        cancel_job(session, job.id)
        assert requeue_candidates(session, now + timedelta(seconds=1)) == []


def test_a_lost_running_episode_is_taken_back_once_or_failed_at_the_cap(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=plans(2))
        first, second = [e.id for e in list_episodes(session, job.id)]
        claim_episode(session, first, "w:1")
        claim_episode(session, second, "w:2")
        claim_episode(session, second, "w:3")  # started twice
        later = utcnow() + timedelta(seconds=1)
        assert running_episodes(session, utcnow() - timedelta(minutes=5)) == []
        lost = {r.id: r for r in running_episodes(session, later)}
        assert set(lost) == {first, second}
        claim_episode(session, first, "w:4")  # redelivered meanwhile: no longer lost
        assert take_back_episode(session, lost[first], 2, "gone")[0] == "unchanged"
        done, finished = take_back_episode(session, lost[second], 2, "its worker w:3 is gone")
        assert done == "failed" and finished.written
        episode = session.get(Episode, second)
        assert episode.status == "failed"
        assert episode.error == "its worker w:3 is gone; started 2 times without finishing"
        first_lost, = running_episodes(session, later)
        assert take_back_episode(session, first_lost, 3, "gone")[0] == "requeued"
        episode = session.get(Episode, first)
        assert (episode.status, episode.worker, episode.enqueued_at) == ("queued", None, None)
        assert requeue_candidates(session, utcnow()) == [first]


def test_jobs_page_newest_first_without_gaps_or_repeats(sessions):
    with sessions() as session:
        made = [create_job(session, kind="benchmark", spec={"n": i}, plans=plans(1),
                           owner="bob" if i % 2 else "alice").id for i in range(7)]
        seen, before = [], None
        while page := list_jobs(session, limit=3, before=before):
            seen += [j.id for j in page]
            before = (page[-1].created_at, page[-1].id)
        assert sorted(seen) == sorted(made) and len(seen) == 7
        assert len(list_jobs(session, owner="bob")) == 3
