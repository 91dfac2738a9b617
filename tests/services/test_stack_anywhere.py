"""``designrl stack up`` from any directory: relative paths are the caller's, each service
logs to a file, and Redis, the database and the port are checked before anything starts."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from db_support import REDIS_URL
from stack_support import free_port

from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.keys import create_api_key
from designrl.store.models import Job

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    """The caller's environment with no database or folder settings of its own, and the
    repository importable from anywhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "DESIGNRL_TRAINING_RUNS_DIR", "DESIGNRL_ADAPTER_STORE")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def _stack_up(cwd: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "designrl.cli", "stack", "up", *args],
                            cwd=cwd, env=_env(), text=True, **popen)


def test_stack_up_from_another_directory_uses_its_sqlite_file_and_logs_to_files(tmp_path):
    # The default database, sqlite:///designrl.db, is the caller's: tmp_path/designrl.db.
    database = tmp_path / "designrl.db"
    url = f"sqlite:///{database}"
    upgrade(url)
    engine = make_engine(url)
    with make_sessionmaker(engine)() as session:
        key = create_api_key(session, "ops", "admin")
    port = free_port()
    stack = _stack_up(tmp_path, "--redis", REDIS_URL, "--workers", "1", "--port", str(port),
                      "--queue", f"test-anywhere-{port}", "--log-dir", "logs", "--json",
                      stdout=subprocess.PIPE, start_new_session=True)
    try:
        endpoints = json.loads(stack.stdout.readline())
        assert endpoints["database"] == f"sqlite:///{database.resolve()}"
        assert endpoints["logs"] == str((tmp_path / "logs").resolve())
        with httpx.Client(base_url=endpoints["api"], headers={"X-API-Key": key},
                          timeout=30) as client:
            reply = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-flyer"],
                                                  "seeds": [1], "policies": ["rule"]})
            assert reply.status_code in (200, 201, 202), reply.text
            job = reply.json()
            deadline = time.monotonic() + 120
            while client.get(f"/v1/jobs/{job['id']}").json()["status"] != "completed":
                assert time.monotonic() < deadline, "the job did not complete"
                time.sleep(0.3)
        with make_sessionmaker(engine)() as session:  # the very file under tmp_path
            assert session.get(Job, job["id"]).status == "completed"
        stack.send_signal(signal.SIGTERM)
        assert stack.wait(60) == 0
    finally:
        if stack.poll() is None:
            os.killpg(stack.pid, signal.SIGKILL)
        engine.dispose()
    logs = {p.name: p.read_text() for p in (tmp_path / "logs").iterdir()}
    assert set(logs) == {"api.log", "worker1.log"}
    assert "uvicorn" in logs["api.log"] and "Uvicorn running" in logs["api.log"]
    assert "celery" in logs["worker1.log"] and len(logs["worker1.log"].splitlines()) > 1
    assert not (tmp_path / "out" / "logs").exists()


def test_stack_up_with_redis_unreachable_exits_naming_redis(tmp_path):
    unreachable = "redis://127.0.0.1:1/0"
    start = time.monotonic()
    done = _stack_up(tmp_path, "--redis", unreachable, "--port", str(free_port()),
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = done.communicate(timeout=60)
    assert done.returncode != 0
    assert "Redis" in err and unreachable in err, err
    assert out == ""  # no endpoints: nothing started
    assert time.monotonic() - start < 30
    assert not (tmp_path / "out" / "logs").exists()


def test_stack_up_on_a_busy_port_exits_naming_the_port(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _stack_up(tmp_path, "--redis", REDIS_URL, "--port", str(port),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = done.communicate(timeout=60)
    assert done.returncode != 0
    assert f"port {port}" in err, err
    assert out == ""
