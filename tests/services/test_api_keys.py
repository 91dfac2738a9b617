"""Keys: ``designrl api-key list`` and ``revoke`` through the real CLI (a subprocess on the
API's database), a revoked key refused with 401, and reader keys reading what the README
says: the jobs of the key they were made for (``*``: every job), never submitting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import designrl
from designrl.store.keys import create_api_key

pytestmark = pytest.mark.integration

BENCH = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": [1], "policies": ["rule"]}
ROOT = Path(designrl.__file__).resolve().parents[1]


def cli(api, *args: str) -> subprocess.CompletedProcess:
    url = api.sessions.kw["bind"].url.render_as_string(hide_password=False)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.run([sys.executable, "-m", "designrl.cli", "api-key", *args,
                           "--db", url], capture_output=True, text=True, env=env,
                          timeout=60, check=False)


def test_keys_are_listed_and_a_revoked_key_gets_401(api):
    assert api.call("GET", "/v1/jobs", key="bob").status_code == 200
    listed = cli(api, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    keys = {k["name"]: k for k in json.loads(listed.stdout)}
    assert {n: k["role"] for n, k in keys.items()} == {
        "alice": "user", "bob": "user", "root": "admin", "viewer": "reader"}
    assert all(k["revoked_at"] is None for k in keys.values())
    assert not any(api.keys["bob"] in str(k) for k in keys.values())  # only hashes stored

    revoked = cli(api, "revoke", "bob")
    assert revoked.returncode == 0 and "revoked 'bob'" in revoked.stdout, revoked.stderr
    reply = api.call("GET", "/v1/jobs", key="bob")
    assert reply.status_code == 401 and "revoked" in reply.json()["message"]
    assert api.call("GET", "/v1/jobs", key="alice").status_code == 200  # others unaffected

    table = cli(api, "list")
    line, = [row for row in table.stdout.splitlines() if row.startswith("bob ")]
    assert "revoked" in line
    again = cli(api, "revoke", "bob")
    assert again.returncode == 1 and "no live key named 'bob'" in again.stderr


def test_a_reader_key_reads_the_jobs_of_the_key_it_reads(api):
    job = api.call("POST", "/v1/jobs", json=BENCH).json()  # alice's
    bobs = api.call("POST", "/v1/jobs", key="bob", json=BENCH).json()
    with api.sessions() as session:
        api.keys["dash"] = create_api_key(session, "dash", "reader", reads="alice")
        api.keys["all"] = create_api_key(session, "all", "reader", reads="*")
    listed = api.call("GET", "/v1/jobs", key="dash").json()["items"]
    assert [j["id"] for j in listed] == [job["id"]]
    assert api.call("GET", f"/v1/jobs/{job['id']}", key="dash").status_code == 200
    episodes = api.call("GET", f"/v1/jobs/{job['id']}/episodes", key="dash").json()["items"]
    assert len(episodes) == 1
    assert api.call("GET", f"/v1/episodes/{episodes[0]['id']}", key="dash").status_code == 200
    assert api.call("GET", f"/v1/jobs/{bobs['id']}", key="dash").status_code == 403
    assert api.call("POST", "/v1/jobs", key="dash", json=BENCH).status_code == 403
    assert api.call("POST", f"/v1/jobs/{job['id']}/cancel", key="dash").status_code == 403
    every = api.call("GET", "/v1/jobs", key="all").json()["items"]
    assert {j["id"] for j in every} == {job["id"], bobs["id"]}
    # a reader made for no one reads nothing (the fixture's "viewer")
    assert api.call("GET", "/v1/jobs", key="viewer").json()["items"] == []


def test_the_cli_makes_a_reader_name_whose_jobs_it_reads(api):
    made = cli(api, "create", "dash", "--role", "reader")
    assert made.returncode == 2 and "--reads" in made.stderr
    made = cli(api, "create", "dash", "--role", "reader", "--reads", "alice", "--json")
    assert made.returncode == 0, made.stderr
    api.keys["dash"] = json.loads(made.stdout)["key"]
    job = api.call("POST", "/v1/jobs", json=BENCH).json()
    assert api.call("GET", f"/v1/jobs/{job['id']}", key="dash").status_code == 200
