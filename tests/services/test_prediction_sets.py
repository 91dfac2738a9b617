"""Prediction sets over the REST API: stored by a key, read back as metadata by that key
(or an admin) only, refused with a clear message when empty, malformed or over the size
limit (which is their own, not the API's general body limit)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

SVG = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4" fill="red"/></svg>'


def test_a_set_is_stored_and_read_back_as_metadata_by_its_owner(api):
    reply = api.call("POST", "/v1/prediction-sets",
                     json={"name": "my model, epoch 3", "items": {"house": SVG, "smiley": "é"}})
    assert reply.status_code == 201, reply.text
    made = reply.json()
    assert (made["name"], made["owner"], made["items"]) == ("my model, epoch 3", "alice", 2)
    assert made["bytes"] == len(b"house") + len(SVG) + len(b"smiley") + len("é".encode())
    assert made["policy"] == f"predictions:{made['id']}"
    read = api.call("GET", f"/v1/prediction-sets/{made['id']}")
    assert read.status_code == 200 and read.json() == made
    assert SVG not in read.text  # metadata only: never the completions
    assert api.call("GET", f"/v1/prediction-sets/{made['id']}", key="bob").status_code == 403
    assert api.call("GET", f"/v1/prediction-sets/{made['id']}", key="root").status_code == 200
    assert api.call("GET", "/v1/prediction-sets/nope").status_code == 404
    assert api.call("GET", f"/v1/prediction-sets/{made['id']}", key=None).status_code == 401


@pytest.mark.parametrize(("body", "says"), [
    ({"items": {}}, "items: Dictionary should have at least 1 item"),
    ({"items": {"house": 3}}, "items.house: Input should be a valid string"),
    ({"items": ["house"]}, "items: Input should be a valid dictionary"),
    ({"items": {"": SVG}}, "String should have at least 1 character"),
    ({"items": {"house": SVG}, "surprise": 1}, "surprise: Extra inputs are not permitted"),
    ({"name": "", "items": {"house": SVG}}, "name: String should have at least 1 character"),
])
def test_malformed_sets_are_a_readable_422(api, body, says):
    reply = api.call("POST", "/v1/prediction-sets", json=body)
    assert reply.status_code == 422 and says in reply.json()["message"], reply.text


def test_sets_have_a_size_limit_of_their_own(api):
    settings = api.client.app.state.settings
    settings.max_prediction_set_bytes = 60_000  # the fixture's general limit is 20 kB
    page = "x" * 30_000
    big = api.call("POST", "/v1/prediction-sets", json={"items": {"a": page}})
    assert big.status_code == 201, big.text  # over the general limit, under the sets' own
    too_big = api.call("POST", "/v1/prediction-sets", json={"items": {"a": page, "b": page}})
    assert too_big.status_code == 413
    assert too_big.json()["message"] == "prediction sets are limited to 60000 bytes"
    # other routes keep the general limit
    assert api.call("POST", "/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-poster"],
                                              "seeds": [1], "policies": ["rule"],
                                              "profile": "x" * 30_000}).status_code == 413


def test_a_set_of_too_many_items_is_refused_by_the_store(api):
    items = {f"item-{i}": "x" for i in range(10_001)}
    reply = api.call("POST", "/v1/prediction-sets", json={"items": items})
    assert reply.status_code == 422
    assert reply.json()["message"] == "10001 items; a set holds at most 10000"


def test_readers_may_not_store_sets(api):
    reply = api.call("POST", "/v1/prediction-sets", key="viewer", json={"items": {"a": SVG}})
    assert reply.status_code == 403
