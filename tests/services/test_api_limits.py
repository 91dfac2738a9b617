"""The API's limits against the running Postgres and Redis: ``/env`` needs a key; per-key
quotas (episodes in one job, jobs a minute, open event streams) answer 429 with
Retry-After; ``vllm:`` policies are checked against a real OpenAI-compatible server's
``/v1/models`` at submit; cancel leaves no episode running; a job counts its failures."""

from __future__ import annotations

import contextlib

import pytest
from inference_support import ModelServer
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import claim_episode, finish_episode
from designrl.store.models import Episode, Job

pytestmark = pytest.mark.integration

LAYOUT = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": [1], "policies": ["rule"]}


def jobs_stored(api) -> int:
    with api.sessions() as session:
        return session.scalar(select(func.count()).select_from(Job))


@pytest.mark.parametrize(("method", "path", "body"), [
    ("POST", "/env/reset", {"task_id": "gen-poster", "seed": 1}),
    ("POST", "/env/step", {"action": {"type": "noop"}}),
    ("GET", "/env/state", None),
    ("GET", "/env/health", None),
])
def test_the_mounted_env_needs_a_key_like_every_route(api, method, path, body):
    refused = api.call(method, path, key=None, json=body)
    assert refused.status_code == 401, refused.text
    assert refused.headers["WWW-Authenticate"] == "Bearer"
    assert "an API key is required" in refused.json()["message"]
    wrong = api.client.request(method, path, json=body, headers={"X-API-Key": "drl_nope"})
    assert wrong.status_code == 401 and "unknown or revoked" in wrong.json()["message"]
    assert api.call(method, path, json=body).status_code == 200
    bearer = api.client.request(method, path, json=body,
                                headers={"Authorization": f"Bearer {api.keys['bob']}"})
    assert bearer.status_code == 200


def test_the_env_websocket_needs_a_key(api):
    with pytest.raises(WebSocketDisconnect) as refused, api.client.websocket_connect("/env/ws"):
        pass
    assert refused.value.code == 1008
    with api.client.websocket_connect("/env/ws",
                                      headers={"X-API-Key": api.keys["alice"]}) as ws:
        ws.send_json({"type": "reset", "data": {"task_id": "gen-poster", "seed": 1}})
        assert ws.receive_json()["type"] == "observation"


def test_an_unserved_vllm_model_is_refused_at_submit_listing_the_served_ones(api, served):
    body = {**LAYOUT, "policies": ["rule", "vllm:nosuchmodel"]}
    reply = api.call("POST", "/v1/jobs", json=body)
    assert reply.status_code == 422, reply.text
    assert reply.json()["message"] == (
        "vllm:nosuchmodel: the inference server does not serve 'nosuchmodel'; served: "
        "vllm:policy, vllm:policy-v2 (or vllm:latest)")
    run = api.call("POST", "/v1/runs", json={"task": "gen-poster", "seed": 1,
                                             "policy": "vllm:nosuchmodel"})
    assert run.status_code == 422 and "does not serve 'nosuchmodel'" in run.text
    assert jobs_stored(api) == 0
    served.models.append("nosuchmodel")  # loaded a moment ago: the cached list is re-read
    assert api.call("POST", "/v1/jobs", json=body).status_code == 202
    assert api.call("POST", "/v1/jobs", json={**LAYOUT, "policies": ["vllm:latest"]}
                    ).status_code == 202


def test_vllm_jobs_without_an_inference_server_are_refused_clearly(api):
    body = {**LAYOUT, "policies": ["vllm:policy"]}
    reply = api.call("POST", "/v1/jobs", json=body)  # none configured
    assert reply.status_code == 422
    assert "no inference server configured (DESIGNRL_INFERENCE_URL)" in reply.json()["message"]
    with ModelServer([]) as gone:
        url = gone.url
    api.client.app.state.settings.inference_url = url  # configured, but nothing answers
    reply = api.call("POST", "/v1/jobs", json=body)
    assert reply.status_code == 503 and reply.headers["Retry-After"] == "10"
    assert "did not list its models" in reply.json()["message"]
    assert jobs_stored(api) == 0
    assert api.call("POST", "/v1/jobs", json=LAYOUT).status_code == 202  # no vllm: no check


def test_jobs_per_minute_are_limited_per_key(api):
    api.client.app.state.settings.key_jobs_per_minute = 2
    for _ in range(2):
        assert api.call("POST", "/v1/jobs", json=LAYOUT).status_code == 202
    refused = api.call("POST", "/v1/jobs", json=LAYOUT)
    assert refused.status_code == 429, refused.text
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "may submit 2 jobs a minute" in refused.json()["message"]
    assert api.call("POST", "/v1/runs", json={"task": "gen-poster", "seed": 9,
                                              "policy": "rule"}).status_code == 429
    assert jobs_stored(api) == 2
    assert api.call("POST", "/v1/jobs", key="bob", json=LAYOUT).status_code == 202  # own quota
    bad = api.call("POST", "/v1/jobs", key="bob", json={**LAYOUT, "seeds": [-1]})
    assert bad.status_code == 422  # an invalid job is refused for what it is


def test_episodes_per_job_are_limited_per_key(api):
    api.client.app.state.settings.key_episodes_per_job = 3
    refused = api.call("POST", "/v1/jobs", json={**LAYOUT, "seeds": [1, 2, 3, 4]})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert refused.json()["message"] == ("the job has 4 episodes; key 'alice' may submit at "
                                         "most 3 in one job: split it into smaller jobs")
    assert api.call("POST", "/v1/jobs", json={**LAYOUT, "seeds": [1, 2, 3]}).status_code == 202
    assert jobs_stored(api) == 1


def test_open_event_streams_are_limited_per_key(api):
    api.client.app.state.settings.key_event_streams = 2
    job = api.call("POST", "/v1/jobs", json={**LAYOUT, "seeds": [1, 2, 3]}).json()
    ids = [e["id"] for e in api.call("GET", f"/v1/jobs/{job['id']}/episodes").json()["items"]]
    headers = {"X-API-Key": api.keys["alice"]}
    with contextlib.ExitStack() as open_streams:
        for episode_id in ids[:2]:  # queued episodes: their streams stay open
            stream = open_streams.enter_context(api.client.stream(
                "GET", f"/v1/episodes/{episode_id}/events", headers=headers))
            assert stream.status_code == 200
        refused = api.call("GET", f"/v1/episodes/{ids[2]}/events")
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "10"
        assert "may hold 2 event streams open at once" in refused.json()["message"]
    # closing streams gives their slots back
    with api.client.stream("GET", f"/v1/episodes/{ids[2]}/events", headers=headers) as stream:
        assert stream.status_code == 200


def test_cancel_leaves_no_episode_running_and_failures_are_counted(api):
    job = api.call("POST", "/v1/jobs", json={**LAYOUT, "seeds": [1, 2, 3]}).json()
    with api.sessions() as session:
        errored, running, _ = session.scalars(select(Episode.id).where(
            Episode.job_id == job["id"]).order_by(Episode.position)).all()
        claim_episode(session, errored, "w:1")
        finish_episode(session, errored, EpisodeRecord(outcome="error",
                                                       error="NotFoundError: no model"))
        claim_episode(session, running, "w:1")
    progress = api.call("GET", f"/v1/jobs/{job['id']}").json()["progress"]
    assert (progress["failed"], progress["running"], progress["completed"]) == (1, 1, 0)
    cancelled = api.call("POST", f"/v1/jobs/{job['id']}/cancel").json()
    assert cancelled["status"] == "cancelled"
    assert cancelled["progress"] == {"queued": 0, "running": 0, "completed": 0, "failed": 1,
                                     "cancelled": 2}
