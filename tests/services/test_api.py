"""The REST API against the running Postgres (a fresh schema, reached through a proxy a test
can cut) and Redis (a private queue): keys, validation, limits, submission, pagination,
cancel, a lost enqueue, a database outage, health, metrics and the mounted layout env."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from designrl.render.modes import isolation_modes
from designrl.store.models import Episode, Job
from services.api.main import reconcile_once

pytestmark = pytest.mark.integration

BENCH = {"kind": "benchmark", "tasks": ["gen-poster", "gen-slide"], "seeds": [1, 2],
         "policies": ["rule", "random"]}


def test_keys_are_required_and_scoped(api):
    assert api.call("GET", "/v1/jobs", key=None).status_code == 401
    bad = api.client.get("/v1/jobs", headers={"Authorization": "Bearer drl_nope"})
    assert bad.status_code == 401 and "unknown" in bad.json()["detail"]
    assert api.call("POST", "/v1/jobs", key="viewer", json=BENCH).status_code == 403
    job = api.call("POST", "/v1/jobs", json=BENCH).json()
    assert api.call("GET", f"/v1/jobs/{job['id']}", key="bob").status_code == 403
    assert api.call("GET", f"/v1/jobs/{job['id']}", key="root").status_code == 200
    assert api.call("GET", f"/v1/jobs/{job['id']}", key="viewer").status_code == 403
    assert [j["id"] for j in api.call("GET", "/v1/jobs", key="bob").json()["items"]] == []
    assert api.call("GET", "/v1/jobs/nope").status_code == 404


@pytest.mark.parametrize(("body", "says"), [
    ({**BENCH, "tasks": ["no-such-task"]}, "tasks: Value error, unknown task 'no-such-task'"),
    ({**BENCH, "tasks": ["svg-prompts"]}, "seeds were given, but svg-prompts name items by id"),
    ({**BENCH, "policies": ["oracle"]}, "unknown policy 'oracle'"),
    ({**BENCH, "policies": ["llm:/etc"]}, "unknown policy 'llm:/etc'"),  # no client paths
    ({**BENCH, "policies": ["vllm:../x y"]}, "unknown policy"),
    ({"kind": "rollout", "tasks": ["gen-poster"], "seeds": [1], "policy": "vllm:latest",
      "group_size": 2, "temperature": 9}, "temperature: Input should be less than or equal"),
    ({**BENCH, "profile": "designgym"}, "runs DesignGym's tasks only"),
    ({**BENCH, "seeds": [-1]}, "seeds.0: Input should be greater than or equal to 0"),
    ({**BENCH, "surprise": 1}, "surprise: Extra inputs are not permitted"),
    ({"kind": "rollout", "tasks": ["gen-poster"], "seeds": [1], "policy": "rule"},
     "group_size: Field required"),
    ({"kind": "nonsense"}, "field 'kind' must be one of: 'benchmark', 'rollout'"),
    ({k: v for k, v in BENCH.items() if k != "tasks"}, "give tasks (task ids) or families"),
    ({**BENCH, "families": ["layout"]}, "give tasks or families, not both"),
    ({**{k: v for k, v in BENCH.items() if k != "tasks"}, "families": ["svg"]},
     "svg-prompts: items are named by id; give items"),
])
def test_bad_jobs_get_a_readable_422_and_store_nothing(api, body, says):
    reply = api.call("POST", "/v1/jobs", json=body)
    assert reply.status_code == 422
    assert says in reply.json()["message"], reply.json()["message"]
    with api.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Job)) == 0


def test_a_rollout_of_the_newest_policy_is_stored_for_the_workers_to_resolve(api, served):
    body = {"kind": "rollout", "tasks": ["gen-poster"], "seeds": [1, 2],
            "policy": "vllm:latest", "group_size": 3, "temperature": 0.7}
    reply = api.call("POST", "/v1/jobs", json=body)
    assert reply.status_code == 202, reply.json()
    assert reply.json()["spec"]["temperature"] == 0.7
    with api.sessions() as session:
        episodes = session.scalars(select(Episode)).all()
        assert len(episodes) == 6 and {e.policy for e in episodes} == {"vllm:latest"}
        assert {e.policy_version for e in episodes} == {None}  # chosen when each starts


def test_malformed_and_oversized_bodies(api):
    reply = api.call("POST", "/v1/jobs", content=b"{not json",
                     headers={"Content-Type": "application/json"})
    assert reply.status_code == 422 and "JSON" in reply.json()["message"]
    big = {**BENCH, "tasks": ["gen-poster" + " " * 30_000]}  # over this app's 20 kB
    reply = api.call("POST", "/v1/jobs", json=big)
    assert reply.status_code == 413 and "20000 bytes" in reply.json()["message"]
    too_many = {**BENCH, "seeds": list(range(900)), "tasks": ["gen-poster"] * 20}
    reply = api.call("POST", "/v1/jobs", json=too_many)  # 36,000 episodes
    assert reply.status_code == 422 and "the limit is 20000" in reply.json()["detail"]


def test_submit_enqueues_every_episode_and_reports_progress(api):
    reply = api.call("POST", "/v1/jobs", json=BENCH)
    assert reply.status_code == 202
    job = reply.json()
    assert job["episodes_total"] == 8 and job["progress"]["queued"] == 8
    assert job["owner"] == "alice" and job["status"] == "queued"
    assert api.redis.llen(api.queue) == 8
    with api.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Episode)
                              .where(Episode.enqueued_at.is_not(None))) == 8
    first = api.call("GET", f"/v1/jobs/{job['id']}/episodes", params={"limit": 5}).json()
    rest = api.call("GET", f"/v1/jobs/{job['id']}/episodes",
                    params={"after": first["next_after"]}).json()
    episodes = first["items"] + rest["items"]
    assert [e["position"] for e in episodes] == list(range(8)) and rest["next_after"] is None
    assert (episodes[0]["task_id"], episodes[0]["seed"], episodes[0]["policy"]) == (
        "gen-poster", 1, "rule")
    detail = api.call("GET", f"/v1/episodes/{episodes[0]['id']}").json()
    assert detail["status"] == "queued" and detail["steps"] == []
    cancelled = api.call("POST", f"/v1/jobs/{job['id']}/cancel").json()
    assert cancelled["status"] == "cancelled" and cancelled["progress"]["cancelled"] == 8


def test_a_family_means_all_its_tasks(api):
    body = {**{k: v for k, v in BENCH.items() if k != "tasks"}, "families": ["layout"],
            "seeds": [0], "policies": ["rule"], "profile": "designgym"}
    job = api.call("POST", "/v1/jobs", json=body).json()
    assert job["episodes_total"] == 3  # the designgym profile runs DesignGym's three tasks
    assert job["spec"]["tasks"] == ["poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1"]


def test_rollout_jobs_make_groups(api):
    body = {"kind": "rollout", "tasks": ["gen-poster"], "seeds": [5, 6], "policy": "random",
            "group_size": 3, "policy_version": 2}
    job = api.call("POST", "/v1/jobs", json=body).json()
    with api.sessions() as session:
        groups = session.execute(select(Episode.group_id, func.count())
                                 .where(Episode.job_id == job["id"])
                                 .group_by(Episode.group_id)).all()
    assert sorted(n for _, n in groups) == [3, 3]
    episodes = api.call("GET", f"/v1/jobs/{job['id']}/episodes").json()["items"]
    assert [e["policy_version"] for e in episodes] == [2] * 6  # which version samples each


def test_jobs_page_through_cursors(api):
    ids = [api.call("POST", "/v1/jobs", json=BENCH).json()["id"] for _ in range(5)]
    seen, cursor = [], None
    while True:
        page = api.call("GET", "/v1/jobs", params={"limit": 2, **(
            {"cursor": cursor} if cursor else {})}).json()
        seen += [j["id"] for j in page["items"]]
        if not (cursor := page["next_cursor"]):
            break
    assert seen == ids[::-1]
    assert api.call("GET", "/v1/jobs", params={"cursor": "%%%"}).status_code == 422


def test_a_lost_enqueue_is_repaired_by_the_reconciler(api):
    def broker_down(ids):
        raise ConnectionError("broker unreachable")

    real = api.client.app.state.enqueue
    api.client.app.state.enqueue = broker_down
    reply = api.call("POST", "/v1/jobs", json=BENCH)
    assert reply.status_code == 202  # the rows are safe
    assert api.redis.llen(api.queue) == 0
    api.client.app.state.enqueue = real
    assert reconcile_once(api.client.app).requeued == 8
    assert api.redis.llen(api.queue) == 8
    assert reconcile_once(api.client.app).requeued == 0  # enqueued now: left alone


def test_database_down_at_submit_is_a_clear_503_and_writes_nothing(api):
    api.proxy.cut()
    try:
        reply = api.call("POST", "/v1/jobs", json=BENCH)
        assert reply.status_code == 503
        assert reply.json()["error"] == "database_unavailable"
        ready = api.client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["database"].startswith("unavailable")
    finally:
        api.proxy.restore()
    with api.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Job)) == 0
        assert session.scalar(select(func.count()).select_from(Episode)) == 0
    assert api.redis.llen(api.queue) == 0
    assert api.call("POST", "/v1/jobs", json=BENCH).status_code == 202  # and it recovers


def test_health_metrics_docs_and_the_mounted_env(api):
    assert api.client.get("/healthz").json() == {"status": "ok"}
    ready = api.client.get("/readyz").json()
    sandbox = ready.pop("render_sandbox")
    assert ready == {"status": "ready", "database": "ok", "broker": "ok"}
    assert sandbox == isolation_modes() and sandbox["network"] in ("netns", "routing-only")
    api.call("POST", "/v1/jobs", json=BENCH)
    text = api.client.get("/metrics").text
    assert 'designrl_jobs_submitted_total{kind="benchmark"}' in text
    assert "designrl_queue_depth 8.0" in text
    assert 'designrl_episodes{status="queued"}' in text
    assert "designrl_http_request_seconds_bucket" in text
    spec = api.client.get("/openapi.json").json()
    assert {"/v1/jobs", "/v1/jobs/{job_id}", "/v1/jobs/{job_id}/episodes",
            "/v1/jobs/{job_id}/cancel", "/v1/episodes/{episode_id}"} <= set(spec["paths"])
    assert api.call("GET", "/env/health").status_code == 200
