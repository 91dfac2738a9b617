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
