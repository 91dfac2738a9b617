"""A running designrl stack for tests: ``services.stack.LocalStack`` on a private queue and
stream, plus a database session factory, an admin API key, and a Redis of our own
(``PrivateRedis``) for tests that restart it."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from pathlib import Path

import httpx
from db_support import REDIS_URL
from redis import Redis

from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.keys import create_api_key
from designrl.store.models import Job
from services.stack import LocalStack, StackConfig, free_port

__all__ = ["PrivateRedis", "Stack", "free_port"]

ROOT = Path(__file__).resolve().parents[1]  # the services run this checkout's code


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


class Stack(LocalStack):
    """Workers and an API on a fresh schema; ``settings`` are extra DESIGNRL_... variables."""

    def __init__(self, database_url: str, redis_url: str = REDIS_URL, **settings: str) -> None:
        tag = uuid.uuid4().hex[:8]
        # Quotas have tests of their own; these stacks submit and watch freely.
        settings = {"DESIGNRL_KEY_JOBS_PER_MINUTE": "100000",
                    "DESIGNRL_KEY_EVENT_STREAMS": "1000", **settings}
        super().__init__(StackConfig(database_url, redis_url, workers=0,
                                     queue=f"test-episodes-{tag}",
                                     groups_stream=f"test-groups-{tag}",
                                     worker_metrics=False, env=settings,
                                     base_env=dict(os.environ), import_paths=[str(ROOT)]))
        self.database_url, self.redis_url = database_url, redis_url
        self.queue, self.stream = self.config.queue, self.config.groups_stream
        self.sessions = make_sessionmaker(make_engine(database_url))
        self.key: str | None = None

    def start_api(self) -> str:
        url = super().start_api()
        with self.sessions() as session:
            self.key = create_api_key(session, f"test-{uuid.uuid4().hex[:6]}", "admin")
        return url

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
        self.stop()
        try:
            redis = Redis.from_url(self.redis_url)
            redis.delete(self.queue, self.stream)
            redis.close()
        except Exception:  # noqa: BLE001 - a private redis may be gone already
            pass
        self.sessions.kw["bind"].dispose()


def admin_key(url: str) -> str:
    """A new admin API key in the database at ``url`` (migrated first)."""
    upgrade(url)
    engine = make_engine(url)
    with make_sessionmaker(engine)() as session:
        key = create_api_key(session, "ops", "admin")
    engine.dispose()
    return key
