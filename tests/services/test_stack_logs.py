"""``designrl stack up``'s output and flags: each service's lines on the console after its
name and in ``<log-dir>/<name>.log``, rotated by size; workers' metrics on the ports
``--metrics-port`` names; the services pointed at ``--inference-url``; a vLLM interpreter
that is missing or has no vLLM named before anything starts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from db_support import REDIS_URL
from json_handler import JsonHandler
from stack_support import free_port

from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.keys import create_api_key

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DESIGNRL_TRAINING_RUNS_DIR", "DESIGNRL_ADAPTER_STORE",
                        "DESIGNRL_INFERENCE_URL")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def _designrl(cwd: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "designrl.cli", *args], cwd=cwd,
                            env=_env(), text=True, **popen)


class Models(JsonHandler):
    """An inference server's model list, as vLLM answers it."""

    def do_GET(self):  # noqa: N802 - http.server's name
        self._send(200, {"object": "list", "data": [{"id": "policy", "object": "model"}]})


def test_stack_up_prefixes_console_lines_rotates_log_files_and_takes_ports_and_urls(tmp_path):
    models = ThreadingHTTPServer(("127.0.0.1", 0), Models)
    threading.Thread(target=models.serve_forever, daemon=True).start()
    inference = f"http://127.0.0.1:{models.server_address[1]}"
    url = f"sqlite:///{tmp_path / 'designrl.db'}"
    upgrade(url)
    engine = make_engine(url)
    with make_sessionmaker(engine)() as session:
        key = create_api_key(session, "ops", "admin")
    engine.dispose()
    port, metrics = free_port(), free_port()
    stack = _designrl(tmp_path, "stack", "up", "--redis", REDIS_URL, "--workers", "1",
                      "--port", str(port), "--metrics-port", str(metrics),
                      "--queue", f"test-logs-{port}", "--inference-url", inference,
                      "--log-dir", "logs", "--log-max-mb", "0.001", "--log-backups", "2",
                      "--json", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      start_new_session=True)
    console: list[str] = []
    reader = threading.Thread(target=lambda: console.extend(stack.stderr), daemon=True)
    reader.start()
    try:
        endpoints = json.loads(stack.stdout.readline())
        assert endpoints["metrics"] == [f"http://127.0.0.1:{port}/metrics",
                                        f"http://127.0.0.1:{metrics}/metrics"]
        assert endpoints["inference"] == inference
        assert httpx.get(endpoints["metrics"][1], timeout=5).status_code == 200
        catalog = httpx.get(f"{endpoints['api']}/v1/catalog", headers={"X-API-Key": key},
                            timeout=30).json()
        assert catalog["served_models"] == ["policy"]  # the API asked --inference-url
        time.sleep(1.0)  # the worker's banner and first lines reach the console
        stack.send_signal(signal.SIGTERM)
        assert stack.wait(60) == 0
    finally:
        if stack.poll() is None:
            os.killpg(stack.pid, signal.SIGKILL)
        models.shutdown()
    reader.join(10)
    lines = [line.rstrip("\n") for line in console]
    assert any(line.startswith("api     | ") and "Uvicorn running" in line for line in lines)
    assert any(line.startswith("worker1 | ") and "ready." in line for line in lines)
    assert all(line.startswith(("api     | ", "worker1 | ")) for line in lines), lines[:5]
    logs = {p.name: p for p in (tmp_path / "logs").iterdir()}
    assert {"api.log", "worker1.log", "worker1.log.1"} <= set(logs)
    assert set(logs) <= {f"{name}.log{n}" for name in ("api", "worker1")
                         for n in ("", ".1", ".2")}  # two backups, no more
    for path in logs.values():
        longest = max(map(len, path.read_bytes().splitlines()), default=0)
        assert path.stat().st_size <= 1048 + longest + 1
    # What the files still hold is what the console showed, line for line.
    worker_console = [line[len("worker1 | "):] for line in lines if line.startswith("worker1")]
    kept = [t for name in ("worker1.log.2", "worker1.log.1", "worker1.log") if name in logs
            for t in logs[name].read_text().splitlines()]
    assert kept == worker_console[-len(kept):]


def test_stack_up_names_a_missing_vllm_interpreter_before_anything_starts(tmp_path):
    done = _designrl(tmp_path, "stack", "up", "--redis", REDIS_URL, "--port", str(free_port()),
                     "--inference-model", "tiny", "--vllm-python", "venv/bin/python",
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 1
    assert str(tmp_path.resolve() / "venv" / "bin" / "python") in err and "does not exist" in err
    assert out == "" and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_stack_up_names_an_interpreter_without_vllm(tmp_path):
    done = _designrl(tmp_path, "stack", "up", "--redis", REDIS_URL, "--port", str(free_port()),
                     "--inference-model", "tiny", "--vllm-python", sys.executable,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 1
    assert f"vLLM is not installed for {sys.executable}" in err, err
    assert out == "" and not (tmp_path / "out").exists()


def test_inference_serve_names_an_interpreter_it_cannot_find(tmp_path):
    done = _designrl(tmp_path, "inference", "serve", "--model", "tiny", "--python",
                     "no-such-python-here", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 1
    assert "no interpreter 'no-such-python-here' on PATH" in err and "Traceback" not in err


def test_stack_up_takes_an_inference_url_or_a_model_not_both(tmp_path):
    done = _designrl(tmp_path, "stack", "up", "--inference-url", "http://127.0.0.1:1",
                     "--inference-model", "tiny", stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 2
    assert "--inference-url and --inference-model" in err and "Traceback" not in err
