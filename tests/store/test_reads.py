"""The store's reads for the API: episode ids, a run's cached episode, steps after an index,
episodes by status, a job's summary columns and step scores, a prediction set's owner, ping."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import MultipleResultsFound, NoResultFound

from designrl.rollout.record import EpisodeRecord, StepRecord
from designrl.store import ping
from designrl.store.jobs import (
    EpisodePlan,
    claim_episode,
    create_job,
    finish_episode,
    list_episodes,
)
from designrl.store.predictions import create_prediction_set, prediction_set_owner
from designrl.store.reads import (
    completed_episode_rows,
    completed_reward_components,
    episode_ids,
    episode_status_counts,
    latest_finished_episode,
    only_episode,
    step_scores,
    steps_after,
)


def plan(item: str = "1000", policy: str = "expert", profile: str | None = "default",
         source: str | None = None) -> EpisodePlan:
    return EpisodePlan(family="layout", task_id="gen-poster", item_key=item, seed=int(item),
                       policy=policy, profile=profile, source=source)


def record(scores: list[float | None], outcome: str = "ok", steer: float | None = None
           ) -> EpisodeRecord:
    return EpisodeRecord(outcome=outcome, start_score=0.5, final_score=0.75, seconds=1.0,
                         steps=[StepRecord(action={"type": "move"}, score=s) for s in scores],
                         rewards={"potential": 0.25, "fit": 0.5},
                         summary={"policy_stats": {"steer_rate": steer}} if steer else {})


def finish(session, episode_id: str, rec: EpisodeRecord) -> None:
    claim_episode(session, episode_id, "w")
    finish_episode(session, episode_id, rec)


def test_episode_ids_in_submission_order_and_a_one_episode_job_s_episode(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={},
                         plans=[plan(str(1000 + i)) for i in range(3)])
        assert episode_ids(session, job.id) == [e.id for e in list_episodes(session, job.id)]
        assert episode_ids(session, "nope") == []
        with pytest.raises(MultipleResultsFound):
            only_episode(session, job.id)
        with pytest.raises(NoResultFound):
            only_episode(session, "nope")
        single = create_job(session, kind="benchmark", spec={}, plans=[plan()])
        assert only_episode(session, single.id).id == episode_ids(session, single.id)[0]


def test_latest_finished_episode_matches_settings_owner_and_outcome(sessions):
    with sessions() as session:
        ids = {}
        for owner, rec in (("alice", record([0.6])), ("bob", record([0.7])),
                           ("alice", record([], outcome="error"))):
            job = create_job(session, kind="benchmark", spec={}, plans=[plan()], owner=owner)
            ids.setdefault(owner, []).append(only_episode(session, job.id).id)
            finish(session, ids[owner][-1], rec)
        unfinished = create_job(session, kind="benchmark", spec={}, plans=[plan()], owner="bob")
        same = {"task_id": "gen-poster", "item_key": "1000", "policy": "expert",
                "profile": "default", "source": None}
        assert latest_finished_episode(session, **same).id == ids["bob"][0]  # newest ok
        assert latest_finished_episode(session, **same, owner="alice").id == ids["alice"][0]
        assert latest_finished_episode(session, **same, owner="carol") is None
        assert latest_finished_episode(session, **{**same, "profile": None}) is None
        assert latest_finished_episode(session, **{**same, "source": "x.jsonl"}) is None
        assert latest_finished_episode(session, **{**same, "item_key": "1001"}) is None
        assert only_episode(session, unfinished.id).status == "queued"


def test_steps_after_an_index_and_episodes_by_status(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={},
                         plans=[plan(str(1000 + i)) for i in range(3)])
        first, second, _ = episode_ids(session, job.id)
        finish(session, first, record([0.6, None, 0.8]))
        claim_episode(session, second, "w")
        assert [s.index for s in steps_after(session, first, -1)] == [0, 1, 2]
        assert [s.score for s in steps_after(session, first, 0)] == [None, 0.8]
        assert steps_after(session, first, 2) == []
        assert steps_after(session, second, -1) == []
        assert episode_status_counts(session) == {"completed": 1, "running": 1, "queued": 1}


def test_a_job_s_summary_columns_components_and_step_scores(sessions):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={},
                         plans=[plan(str(1000 + i)) for i in range(4)])
        first, second, third, _ = episode_ids(session, job.id)
        finish(session, second, record([0.6, None], steer=0.5))
        finish(session, first, record([]))
        claim_episode(session, third, "w")
        finish_episode(session, third, failed="boom")
        rows = completed_episode_rows(session, job.id)
        assert [r["id"] for r in rows] == [first, second]  # by position, completed only
        assert rows[1]["steer_rate"] == 0.5 and rows[0]["steer_rate"] is None
        assert (rows[1]["family"], rows[1]["task_id"], rows[1]["policy"], rows[1]["outcome"],
                rows[1]["start_score"], rows[1]["final_score"], rows[1]["seconds"],
                rows[1]["instruction_score"]) == (
            "layout", "gen-poster", "expert", "ok", 0.5, 0.75, 1.0, None)
        assert sorted(completed_reward_components(session, job.id)) == sorted(
            (e, name, value) for e in (first, second)
            for name, value in (("potential", 0.25), ("fit", 0.5)))
        assert step_scores(session, job.id) == {second: [0.6, None]}
        assert step_scores(session, "nope") == {}


def test_a_prediction_set_s_owner_and_ping(sessions):
    with sessions() as session:
        ping(session)
        owned = create_prediction_set(session, {"a": "x"}, owner="alice")
        unowned = create_prediction_set(session, {"a": "x"}, owner=None)
        assert prediction_set_owner(session, owned.id).owner == "alice"
        found = prediction_set_owner(session, unowned.id)
        assert found is not None and found.owner is None
        assert prediction_set_owner(session, "nope") is None
