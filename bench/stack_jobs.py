"""Jobs through a local stack, for the benches: the API and Celery workers as local
processes (``LocalStack``) on a throwaway Postgres schema, an API key, a client; submit
jobs and wait for them.

Shared by ``pipeline_overhead.py`` (wall time through the stack) and
``scale_calibrate.py`` (what each process spends on the same episodes).
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from redis import Redis
from sqlalchemy.engine import make_url

from designrl.store import make_engine, make_sessionmaker
from designrl.store.engine import normalize_url
from designrl.store.keys import create_api_key
from designrl.store.scratch import scratch_schema
from services.stack import LocalStack, StackConfig

ROOT = Path(__file__).resolve().parents[1]  # the stack runs this checkout's services
FINISHED = ("completed", "completed_with_errors", "failed", "cancelled")


def add_service_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--redis``: the machine's Postgres and Redis unless the environment
    names others."""
    parser.add_argument("--db", default=os.environ.get(
        "DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
        help="Postgres (a throwaway schema is made in it)")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL",
                                                          "redis://127.0.0.1:6379/0"))


@dataclass
class StackRun:
    stack: LocalStack
    client: httpx.Client  # the API, with the run's key
    database_url: str  # the scratch schema (every connection tagged ``application_name``)
    queue: str


def tagged_url(url: str, application_name: str) -> str:
    """``url`` with ``application_name`` set, so ``pg_stat_activity`` tells our backends."""
    parsed = make_url(normalize_url(url))
    return parsed.update_query_dict({"application_name": application_name}).render_as_string(
        hide_password=False)


@contextmanager
def bench_stack(db: str, redis: str, workers: int, *, env: dict[str, str] | None = None,
                application_name: str = "designrl-bench") -> Iterator[StackRun]:
    """A fresh stack of ``workers`` workers (the reconciler off, a private queue) on a
    scratch schema of ``db``; stopped and dropped after."""
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    with scratch_schema(db) as url:
        url = tagged_url(url, application_name)
        config = StackConfig(url, redis, workers=workers, worker_metrics=False, queue=queue,
                             env={"DESIGNRL_RECONCILE_EVERY_S": "0", **(env or {})},
                             base_env=dict(os.environ), import_paths=[str(ROOT)])
        with LocalStack(config) as stack:
            engine = make_engine(url)
            with make_sessionmaker(engine)() as session:
                key = create_api_key(session, "bench", "user")
            engine.dispose()
            with httpx.Client(base_url=stack.api_url, headers={"X-API-Key": key},
                              timeout=60) as client:
                yield StackRun(stack, client, url, queue)
        Redis.from_url(redis).delete(queue)  # what no worker took (a stack of none)


def submit_jobs(client: httpx.Client, jobs: list[tuple[dict, int]]) -> list[str]:
    """Submit each benchmark job body; their ids."""
    ids = []
    for body, _ in jobs:
        reply = client.post("/v1/jobs", json={"kind": "benchmark", **body})
        reply.raise_for_status()
        ids.append(reply.json()["id"])
    return ids


def wait_jobs(client: httpx.Client, ids: list[str], poll_s: float = 0.05) -> int:
    """Poll each job until it has completed (every episode); how many polls it took."""
    polls = 0
    for job_id in ids:
        while True:
            state = client.get(f"/v1/jobs/{job_id}").json()
            polls += 1
            if state["status"] in FINISHED:
                break
            time.sleep(poll_s)
        assert state["status"] == "completed", state
        assert state["progress"]["completed"] == state["episodes_total"], state
    return polls


def run_jobs(client: httpx.Client, jobs: list[tuple[dict, int]]) -> None:
    """Submit every job, then wait until each has completed."""
    wait_jobs(client, submit_jobs(client, jobs))
