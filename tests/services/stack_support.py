"""A running designrl stack for tests: a fresh Postgres schema, a Redis (the machine's, or a
private ``redis-server`` a test may restart), a private queue and stream, worker processes
and an API process, all real."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
from db_support import REDIS_URL
from redis import Redis

from designrl.store import make_engine, make_sessionmaker
from designrl.store.keys import create_api_key
from designrl.store.models import Job

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A ``redis-server`` of our own (nothing on disk), which a test may kill and restart."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                Redis.from_url(self.url).ping()
                return
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


class Stack:
    def __init__(self, database_url: str, redis_url: str = REDIS_URL, **settings: str) -> None:
        tag = uuid.uuid4().hex[:8]
        self.database_url, self.redis_url = database_url, redis_url
        self.queue, self.stream = f"test-episodes-{tag}", f"test-groups-{tag}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                    "DESIGNRL_QUEUE": self.queue, "DESIGNRL_GROUPS_STREAM": self.stream,
                    "PYTHONPATH": str(ROOT), **settings}
        self.sessions = make_sessionmaker(make_engine(database_url))
        self.processes: list[subprocess.Popen] = []
        self.api_url: str | None = None
        self.key: str | None = None

    def _spawn(self, args: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        self.processes.append(process)
        return process

    def start_worker(self, name: str) -> subprocess.Popen:
        return self._spawn([sys.executable, "-m", "celery", "-A", "services.renderer.app",
                            "worker", "--pool=prefork", "--concurrency=1", "-Q", self.queue,
                            "-n", f"{name}@%h", "--without-gossip", "--without-mingle",
                            "--loglevel=WARNING"])

    def start_api(self) -> str:
        port = free_port()
        self._spawn([sys.executable, "-m", "uvicorn", "services.api.main:app", "--host",
                     "127.0.0.1", "--port", str(port), "--log-level", "warning"])
        self.api_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.api_url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise RuntimeError("the API did not start")
        with self.sessions() as session:
            self.key = create_api_key(session, f"test-{uuid.uuid4().hex[:6]}", "admin")
        return self.api_url

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.api_url, headers={"X-API-Key": self.key}, timeout=30)

    def wait_for(self, job_id: str, timeout: float = 180.0) -> Job:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.sessions() as session:
                job = session.get(Job, job_id)
                if job.status in ("completed", "failed", "cancelled"):
                    return job
            time.sleep(0.2)
        raise AssertionError(f"job {job_id} did not finish in {timeout}s")

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        try:
            redis = Redis.from_url(self.redis_url)
            redis.delete(self.queue, self.stream)
            redis.close()
        except Exception:  # noqa: BLE001 - a private redis may be gone already
            pass
        self.sessions.kw["bind"].dispose()
