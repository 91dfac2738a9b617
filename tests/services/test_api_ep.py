"""The ``/ep`` routes Eval Protocol's ``RemoteRolloutProcessor`` calls, with httpx against the
in-process API on real Postgres and Redis: ``/init`` starts a one-episode job (keys by
header or by the body's ``api_key``, extra keys and nulls accepted, a retried init answered
with the same rollout, by this API process or another), the 4xx a row fails with, and
status, logs and traces before and after the episode's record is written (by the store's
own ``finish_episode``, as a worker writes it)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import finish_episode
from designrl.tasks import FAMILIES, find_item
from services.api.main import create_app

pytestmark = pytest.mark.integration

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'


def init_body(rollout: str = "r1", row_id: str = "gen-svg:1000003", model: str = "expert",
              api_key: str | None = None, **extra) -> dict:
    return {"completion_params": {"model": model}, "messages": None, "tools": None,
            "model_base_url": None, "api_key": api_key,
            "metadata": {"invocation_id": "inv", "experiment_id": "exp", "rollout_id": rollout,
                         "run_id": "run", "row_id": row_id}, **extra}


def bearer(api, name: str) -> dict:
    return {"Authorization": f"Bearer {api.keys[name]}"}


def start(api, body: dict, name: str = "alice"):
    """POST /ep/init as the client does: no header, the key in the body."""
    return api.call("POST", "/ep/init", key=None, json={**body, "api_key": api.keys[name]})


def finish(api, episode_id: str, record: EpisodeRecord) -> None:
    with api.sessions() as session:
        assert finish_episode(session, episode_id, record).written


def test_init_starts_one_episode_and_a_retry_returns_it(api):
    body = init_body(extra_top="kept out", messages=None)
    body["completion_params"].update(temperature=0.7, max_tokens=None, extra_body={"x": 1})
    body["metadata"]["future_field"] = None
    started = start(api, body)
    assert started.status_code == 202, started.text
    reply = started.json()
    assert reply["rollout_id"] == "r1" and reply["status"]["code"] == 101
    job = api.call("GET", f"/v1/jobs/{reply['job_id']}").json()
    assert (job["episodes_total"], job["owner"]) == (1, "alice")
    episode = api.call("GET", f"/v1/episodes/{reply['episode_id']}").json()
    assert (episode["task_id"], episode["item_key"], episode["seed"], episode["policy"]) == (
        "gen-svg", "1000003", 1000003, "expert")
    assert api.redis.llen(api.queue) == 1  # enqueued for a worker

    again = start(api, body)
    assert again.status_code == 200 and again.json()["episode_id"] == reply["episode_id"]
    assert api.redis.llen(api.queue) == 1  # nothing started twice
    assert api.call("POST", "/ep/init", key="bob", json=body).status_code == 409

    # Another API process (a replica, or this one restarted) knows the rollout: it is stored.
    with TestClient(create_app(api.client.app.state.settings)) as replica:
        status = replica.get("/ep/v1/status", params={"rollout_id": "r1"},
                             headers=bearer(api, "alice"))
        assert status.status_code == 200 and status.json()["status"]["code"] == 101
        assert replica.post("/ep/init", json={**body, "api_key": api.keys["alice"]}
                            ).json()["episode_id"] == reply["episode_id"]


def test_keys_by_bearer_header_or_body_and_the_4xx_a_row_fails_with(api):
    by_header = api.client.post("/ep/init", json=init_body("h1"), headers=bearer(api, "bob"))
    assert by_header.status_code == 202, by_header.text
    by_x_key = api.call("POST", "/ep/init", key="bob", json=init_body("h2"))
    assert by_x_key.status_code == 202

    none = api.client.post("/ep/init", json=init_body("n1"),
                           headers={"Authorization": "Bearer None"})
    assert none.status_code == 401 and "FIREWORKS_API_KEY" in none.json()["message"]
    wrong = api.call("POST", "/ep/init", key=None, json=init_body("w1", api_key="drl_wrong"))
    assert wrong.status_code == 401 and "unknown" in wrong.json()["message"]
    assert start(api, init_body("v1"), name="viewer").status_code == 403

    status = api.client.get("/ep/v1/status", params={"rollout_id": "h1"},
                            headers={"Authorization": "Bearer None"})
    assert status.status_code == 401
    assert api.client.get("/ep/v1/status", params={"rollout_id": "h1"},
                          headers=bearer(api, "alice")).status_code == 404  # bob's
    assert api.client.get("/ep/v1/status", params={"rollout_id": "h1"},
                          headers=bearer(api, "root")).status_code == 200  # an admin's view


@pytest.mark.parametrize(("change", "says"), [
    ({"model": "gpt-4o"}, "unknown policy 'gpt-4o' for svg tasks; known: expert, random"),
    ({"model": None}, "completion_params.model names the policy"),
    ({"row_id": "row-7f3a"}, "gen-svg items are seeds; name one as 'gen-svg:<seed>'"),
    ({"row_id": "svg-prompts:no-such"}, "svg-prompts has no item 'no-such'"),
    ({"row_id": "gen-poster:3"}, "names a layout task"),
    ({"row_id": "gen-html:3"}, "names a html task"),
    ({"task": "nope"}, "completion_params.task 'nope' is not a task"),
    ({"row_id": "svgbench:q1"}, "task svgbench reads"),
    ({"messages": [{"role": "user", "content": "Draw a cat."}]},
     "the row's user message is not the prompt of gen-svg item '1000003'"),
])
def test_a_row_that_names_no_runnable_item_or_policy_is_a_422(api, change, says):
    body = init_body("bad", row_id=change.get("row_id", "gen-svg:1000003"))
    if "model" in change:
        body["completion_params"]["model"] = change["model"]
    if "task" in change:
        body["completion_params"]["task"] = change["task"]
    body["messages"] = change.get("messages")
    reply = start(api, body)
    assert reply.status_code == 422, reply.text
    assert says in reply.json()["message"]
    assert api.redis.llen(api.queue) == 0


def test_a_body_without_metadata_is_a_422(api):
    body = init_body()
    del body["metadata"]
    reply = start(api, body)
    assert reply.status_code == 422 and "metadata" in reply.json()["message"]


def test_status_logs_and_traces_follow_the_episode(api):
    item = find_item("svg-prompts", "traffic-light")
    messages = FAMILIES["svg"].messages(item, None)
    body = init_body("t1", row_id="svg-prompts:traffic-light")
    body["messages"] = [{"role": "user", "content": messages[-1]["content"] + "\n",
                         "name": None}]  # the item's prompt, as the client sends it
    reply = start(api, body)
    assert reply.status_code == 202, reply.text
    episode_id = reply.json()["episode_id"]
    headers, tags = bearer(api, "alice"), {"tags": ["rollout_id:t1"], "limit": 100}
    running = api.client.get("/ep/v1/status", params={"rollout_id": "t1"}, headers=headers)
    assert running.json()["status"]["code"] == 101
    assert api.client.get("/ep/v1/traces/pointwise", params=tags, headers=headers
                          ).json()["traces"][0]["output"] is None

    finish(api, episode_id, EpisodeRecord(
        total_reward=0.8, final_score=0.8, completion=f"```svg\n{SVG}\n```",
        rewards={"requirements": 0.75, "format": 1.0}))
    for path in ("/ep/v1/status", "/ep/status"):
        done = api.client.get(path, params={"rollout_id": "t1"}, headers=headers).json()
        assert done["status"]["code"] == 100 and "0.8000" in done["status"]["message"]
    for path in ("/ep/logs", "/ep/v1/logs"):
        entry, = api.client.get(path, params=tags, headers=headers).json()["entries"]
        assert entry["status"]["code"] == 100
        assert entry["extras"]["reward"] == 0.8 and entry["extras"]["episode_id"] == episode_id
        assert entry["extras"]["reward_components"] == {"requirements": 0.75, "format": 1.0}
    trace, = api.client.get("/ep/v1/traces/pointwise", params=tags,
                            headers=headers).json()["traces"]
    assert trace["tags"] == ["invocation_id:inv", "experiment_id:exp", "rollout_id:t1",
                             "run_id:run", "row_id:svg-prompts:traffic-light"]
    assert trace["input"] == {"messages": messages}
    assert trace["output"] == {"role": "assistant", "content": f"```svg\n{SVG}\n```"}
    nothing = api.client.get("/ep/logs", params={"tags": ["rollout_id:other"]}, headers=headers)
    assert nothing.status_code == 200 and nothing.json() == {"entries": []}


def test_an_episode_that_gives_no_result_is_code_13(api):
    episode_id = start(api, init_body("e1")).json()["episode_id"]
    finish(api, episode_id, EpisodeRecord(outcome="error", error="the server said no"))
    status = api.client.get("/ep/v1/status", params={"rollout_id": "e1"},
                            headers=bearer(api, "alice")).json()["status"]
    assert status["code"] == 13 and "the server said no" in status["message"]
