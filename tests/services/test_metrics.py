"""Every service's /metrics, as Prometheus reads it: Debian's ``promtool check metrics``
accepts the API's and a multiprocess worker's, and the counts are right."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import httpx
import pytest
from db_support import postgres_schema
from stack_support import Stack, free_port

from designrl.store import upgrade

pytestmark = pytest.mark.integration


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get("CI"):
            raise AssertionError("promtool is missing: `make setup` installs prometheus")
        pytest.skip("promtool is missing (`make setup` installs Debian's prometheus)")
    return found


def check_metrics(text: str) -> None:
    run = subprocess.run([promtool(), "check", "metrics"], input=text, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def sample(text: str, name: str, labels: str = "") -> float:
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.M)
    assert found, f"{name}{labels} not in the metrics"
    return float(found.group(1))


def test_promtool_accepts_the_api_and_worker_metrics(tmp_path):
    tool = promtool()
    assert tool
    worker_port = free_port()
    multiproc = tmp_path / "prom"
    multiproc.mkdir()
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, PROMETHEUS_MULTIPROC_DIR=str(multiproc),
                      DESIGNRL_METRICS_PORT=str(worker_port))
        try:
            stack.start_worker("w1")
            stack.start_api()
            body = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": [1, 2, 3],
                    "policies": ["rule"]}
            with stack.client() as client:
                job_id = client.post("/v1/jobs", json=body).json()["id"]
                assert stack.wait_for(job_id).status == "completed"
                api_metrics = client.get("/metrics").text
            worker_metrics = httpx.get(f"http://127.0.0.1:{worker_port}/metrics").text
        finally:
            stack.close()
    check_metrics(api_metrics)
    check_metrics(worker_metrics)
    assert sample(api_metrics, "designrl_jobs_submitted_total", '{kind="benchmark"}') == 1
    assert sample(api_metrics, "designrl_episodes", '{status="completed"}') == 3
    assert sample(worker_metrics, "designrl_episodes_finished_total",
                  '{family="layout",outcome="ok"}') == 3
    assert sample(worker_metrics, "designrl_episode_seconds_count", '{family="layout"}') == 3
    assert sample(worker_metrics, "designrl_valid_action_rate_count", '{family="layout"}') == 3
