"""``designrl stack up``: the API and workers as local processes, serving a job end to end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
from db_support import REDIS_URL, postgres_schema
from stack_support import free_port

from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.keys import create_api_key

pytestmark = pytest.mark.integration


def test_stack_up_serves_a_job_and_stops_on_sigterm():
    with postgres_schema() as url:
        upgrade(url)
        with make_sessionmaker(make_engine(url))() as session:
            key = create_api_key(session, "ops", "admin")
        port = free_port()
        stack = subprocess.Popen(
            [sys.executable, "-m", "designrl.cli", "stack", "up", "--db", url, "--redis",
             REDIS_URL, "--workers", "2", "--port", str(port), "--queue", f"test-stack-{port}",
             "--json"], stdout=subprocess.PIPE, text=True, start_new_session=True)
        try:
            endpoints = json.loads(stack.stdout.readline())
            assert endpoints["api"] == f"http://127.0.0.1:{port}"
            assert len(endpoints["metrics"]) == 3  # the API and two workers
            with httpx.Client(base_url=endpoints["api"], headers={"X-API-Key": key},
                              timeout=30) as client:
                job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-flyer"],
                                                    "seeds": [1, 2], "policies": ["rule"]}).json()
                deadline = time.monotonic() + 120
                while client.get(f"/v1/jobs/{job['id']}").json()["status"] != "completed":
                    assert time.monotonic() < deadline, "the job did not complete"
                    time.sleep(0.3)
            for metrics in endpoints["metrics"]:
                assert httpx.get(metrics, timeout=5).status_code == 200
            stack.send_signal(signal.SIGTERM)
            assert stack.wait(60) == 0
        finally:
            if stack.poll() is None:
                os.killpg(stack.pid, signal.SIGKILL)


def _stack_env(argv: list[str], environ: dict[str, str]) -> dict[str, str]:
    """The environment ``designrl stack up ARGV`` hands its services, run in ``environ``."""
    from designrl.cli import build_parser
    from services.stack.command import stack_config
    from services.stack.launcher import LocalStack

    args = build_parser().parse_args(["stack", "up", *argv])
    args.environ = environ
    stack = LocalStack(stack_config(args))
    try:
        return stack.env
    finally:
        stack.stop()  # nothing started: only its temporary folders go


def test_stack_up_hands_its_services_the_stream_and_version_key_asked_for(tmp_path):
    """The workers publish to the stream, and sample the version announced at the key, that
    the learner is started with: a flag, else ``$DESIGNRL_GROUPS_STREAM`` /
    ``$DESIGNRL_VERSION_KEY`` (which the stack once overwrote with the defaults), else the
    defaults."""
    from designrl.config import GROUPS_STREAM, VERSION_KEY

    base = {"PATH": os.environ.get("PATH", ""), "DESIGNRL_TRAINING_RUNS_DIR": str(tmp_path)}
    names = ("DESIGNRL_GROUPS_STREAM", "DESIGNRL_VERSION_KEY")
    env = _stack_env([], base)
    assert (env[names[0]], env[names[1]]) == (GROUPS_STREAM, VERSION_KEY)
    env = _stack_env([], base | {names[0]: "env-stream", names[1]: "env-key"})
    assert (env[names[0]], env[names[1]]) == ("env-stream", "env-key")
    env = _stack_env(["--groups-stream", "flag-stream", "--version-key", "flag-key"],
                     base | {names[0]: "env-stream", names[1]: "env-key"})
    assert (env[names[0]], env[names[1]]) == ("flag-stream", "flag-key")
