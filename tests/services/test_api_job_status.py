"""A job's status and progress say what happened: ``completed_with_errors`` when some
episodes failed, ``failed`` when all did, and a cancelled job counts only what ran."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import claim_episode, finish_episode
from designrl.store.models import Episode

pytestmark = pytest.mark.integration


def submit(api, seeds: list[int]) -> tuple[str, list[str]]:
    reply = api.call("POST", "/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-poster"],
                                                "seeds": seeds, "policies": ["rule"]})
    assert reply.status_code == 202, reply.text
    job_id = reply.json()["id"]
    with api.sessions() as session:
        ids = list(session.scalars(select(Episode.id).where(Episode.job_id == job_id)
                                   .order_by(Episode.position)))
    return job_id, ids


def run(api, episode_id: str, record: EpisodeRecord | None = None) -> None:
    with api.sessions() as session:
        claim_episode(session, episode_id, "w:1")
        finish_episode(session, episode_id, record, failed=None if record else "boom")


def test_some_failed_episodes_make_completed_with_errors(api):
    job_id, (ok, errored, lost) = submit(api, [1, 2, 3])
    run(api, ok, EpisodeRecord(final_score=0.5))
    run(api, errored, EpisodeRecord(outcome="error", error="the policy raised"))
    run(api, lost)  # failed after its retries
    job = api.call("GET", f"/v1/jobs/{job_id}").json()
    assert job["status"] == "completed_with_errors"
    assert job["error"].startswith("2 of 3 episodes failed; first: the policy raised")
    assert (job["progress"]["completed"], job["progress"]["failed"]) == (1, 2)
    assert job["episodes_ran"] == 3
    listed = api.call("GET", "/v1/jobs").json()["items"]
    assert [j["status"] for j in listed] == ["completed_with_errors"]


def test_a_job_whose_episodes_all_errored_is_failed(api):
    job_id, ids = submit(api, [1, 2])
    for episode_id in ids:
        run(api, episode_id, EpisodeRecord(outcome="error", error="no model"))
    job = api.call("GET", f"/v1/jobs/{job_id}").json()
    assert job["status"] == "failed" and job["error"].startswith("every episode failed (2)")
    assert (job["progress"]["completed"], job["progress"]["failed"]) == (0, 2)


def test_a_cancelled_job_shows_how_many_ran(api):
    job_id, ids = submit(api, list(range(10)))
    run(api, ids[0], EpisodeRecord(final_score=0.5))
    run(api, ids[1], EpisodeRecord(outcome="error", error="boom"))
    with api.sessions() as session:
        claim_episode(session, ids[2], "w:1")  # running when cancelled: it did not run
    job = api.call("POST", f"/v1/jobs/{job_id}/cancel").json()
    assert job["status"] == "cancelled"
    assert job["progress"] == {"queued": 0, "running": 0, "completed": 1, "failed": 1,
                               "cancelled": 8}
    assert (job["episodes_total"], job["episodes_ran"]) == (10, 2)
    assert api.call("GET", f"/v1/jobs/{job_id}").json()["episodes_ran"] == 2
