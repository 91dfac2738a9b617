"""A bad request gets a 422 in plain words that names the field and says what to send, in
the standard ``detail`` list (one ``msg`` per problem) under a one-line ``message``."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from designrl.store.models import Job
from designrl.tasks import TASKS

pytestmark = pytest.mark.integration

BENCH = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": [1], "policies": ["rule"]}


def refused(api, **kwargs) -> dict:
    reply = api.call("POST", "/v1/jobs", **kwargs)
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["detail"] and all(isinstance(d["msg"], str) and "loc" in d and "type" in d
                                  for d in body["detail"])
    with api.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Job)) == 0
    return body


def test_a_missing_kind_lists_the_kinds(api):
    body = refused(api, json={k: v for k, v in BENCH.items() if k != "kind"})
    assert body["message"] == ("field 'kind' is required and must be one of: "
                               "'benchmark', 'rollout'")
    assert "Unable to extract tag" not in str(body)


def test_an_unknown_kind_lists_the_kinds(api):
    body = refused(api, json={**BENCH, "kind": "bench"})
    assert body["message"] == ("field 'kind' must be one of: 'benchmark', 'rollout' "
                               "(got 'bench')")
    assert body["detail"][0]["msg"] == body["message"]


def test_a_body_sent_without_a_json_content_type_says_to_send_one(api):
    body = refused(api, content=b'{"kind": "benchmark"}')  # no Content-Type
    assert body["message"] == ("the body was not read as JSON: send a JSON object with "
                               "Content-Type: application/json")
    assert "valid dictionary" not in str(body)
    list_body = refused(api, json=[BENCH])
    assert list_body["message"].startswith("the body must be a JSON object, not a list")


def test_an_empty_list_names_the_field_and_what_it_needs(api):
    body = refused(api, json={**BENCH, "tasks": [], "policies": []})
    assert body["message"] == ("'tasks' needs at least one task; "
                               "'policies' needs at least one policy")
    assert [d["loc"] for d in body["detail"]] == [["body", "tasks"], ["body", "policies"]]
    assert "after validation" not in str(body)


def test_an_unknown_task_lists_the_known_ones(api):
    body = refused(api, json={**BENCH, "tasks": ["gen-postr"]})
    assert "unknown task 'gen-postr'; known: " in body["message"]
    assert all(task in body["message"] for task in TASKS)
    assert body["detail"][0]["loc"] == ["body", "tasks"]
