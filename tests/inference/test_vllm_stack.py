"""``designrl stack up --inference-url`` against a real vLLM (the package's ``server``, the
tiny model served as ``tiny``): the API lists what the server serves, a job whose policy is
``vllm:tiny`` runs on the stack's worker, and its episode completes with what the model
wrote, turn by turn."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from db_support import REDIS_URL
from stack_support import admin_key, free_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
JOB = {"kind": "benchmark", "tasks": ["gen-banner"], "seeds": [1_000_000],
       "policies": ["vllm:tiny"]}


def stack_up(cwd: Path, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DESIGNRL_INFERENCE_URL", "DESIGNRL_TRAINING_RUNS_DIR")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", "designrl.cli", "stack", "up", *args],
                            cwd=cwd, env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def requests_served(url: str) -> float:
    """The chat requests vLLM has finished, by its own count (``/metrics``)."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("vllm:request_success_total{"))


def wait_finished(client: httpx.Client, job_id: str, timeout: float = 240.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} still {job['status']} after {timeout} s")


def test_a_job_on_the_stack_samples_the_vllm_its_inference_url_names(server, tmp_path):
    url = f"sqlite:///{tmp_path / 'designrl.db'}"
    key, port = admin_key(url), free_port()
    before = requests_served(server.url)
    stack = stack_up(tmp_path, "--db", url, "--redis", REDIS_URL, "--workers", "1",
                     "--port", str(port), "--queue", f"test-vllm-{port}",
                     "--inference-url", server.url, "--log-dir", "logs", "--json")
    try:
        endpoints = json.loads(stack.stdout.readline())
        assert endpoints["inference"] == server.url
        with httpx.Client(base_url=endpoints["api"], headers={"X-API-Key": key},
                          timeout=30) as client:
            assert client.get("/v1/catalog").json()["served_models"] == ["tiny"]
            refused = client.post("/v1/jobs", json=JOB | {"policies": ["vllm:policy"]})
            assert refused.status_code == 422 and "tiny" in refused.json()["message"]
            submitted = client.post("/v1/jobs", json=JOB)
            assert submitted.status_code == 202, submitted.text
            job = wait_finished(client, submitted.json()["id"])
            assert job["status"] == "completed", job
            (listed,) = client.get(f"/v1/jobs/{job['id']}/episodes").json()["items"]
            episode = client.get(listed["links"]["self"]).json()
    finally:
        stack.send_signal(signal.SIGTERM)
        try:
            stack.wait(60)
        finally:
            if stack.poll() is None:
                os.killpg(stack.pid, signal.SIGKILL)
    assert episode["status"] == "completed" and episode["policy"] == "vllm:tiny"
    turns = episode["summary"]["policy_stats"]["turns"]
    assert turns and len(turns) == episode["steps_count"]
    assert all(turn["completion"] for turn in turns)  # the model's own text, every turn
    assert all(len(turn["token_ids"]) == len(turn["logprobs"]) > 0 for turn in turns)
    # and vLLM answered each of those turns
    assert requests_served(server.url) - before == len(turns)
