"""What the distributed path costs per episode, and what a second worker buys.

    python bench/pipeline_overhead.py [--episodes 24] [--heavy 12] [--db URL] [--redis URL] [--json]

Same run, same machine, same episodes:

* overhead: ``--episodes`` cheap episodes (the ``rule`` policy on generated
  layouts) run embedded (``run_case``, one after another) and through the stack
  (REST submit -> Postgres -> Redis -> one Celery worker -> Postgres), timed from
  submit to the job's completion; the difference per episode is the pipeline's
  overhead;
* scaling: ``--heavy`` expert episodes (about a second of CPU each) through the
  stack with 1 worker, then with 2 (on this machine's cores).

The stack runs as local processes on a throwaway schema (``LocalStack``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid

import httpx

from designrl.bench import BenchCase, run_case
from designrl.stack import LocalStack, StackConfig
from designrl.store import make_engine, make_sessionmaker
from designrl.store.keys import create_api_key
from designrl.store.scratch import scratch_schema

TASKS = ["gen-poster", "gen-slide", "gen-banner", "gen-flyer"]


def seeds(count: int) -> list[int]:
    return [1_000_000 + i for i in range(-(-count // len(TASKS)))]


def embedded_seconds(policy: str, count: int) -> float:
    cases = [BenchCase("default", t, s, policy) for s in seeds(count) for t in TASKS][:count]
    started = time.perf_counter()
    for case in cases:
        run_case(case)
    return time.perf_counter() - started


def distributed_seconds(db: str, redis: str, policy: str, count: int, workers: int) -> float:
    """Submit to job completion, through a fresh stack with ``workers`` workers."""
    per_seed = len(TASKS)
    with scratch_schema(db) as url:
        config = StackConfig(url, redis, workers=workers, worker_metrics=False,
                             queue=f"bench-overhead-{uuid.uuid4().hex[:8]}",
                             env={"DESIGNRL_RECONCILE_EVERY_S": "0"})
        with LocalStack(config) as stack:
            with make_sessionmaker(make_engine(url))() as session:
                key = create_api_key(session, "bench", "user")
            time.sleep(2.0)  # let the workers connect before the clock starts
            body = {"kind": "benchmark", "tasks": TASKS, "seeds": seeds(count),
                    "policies": [policy]}
            with httpx.Client(base_url=stack.api_url, headers={"X-API-Key": key},
                              timeout=60) as client:
                started = time.perf_counter()
                job = client.post("/v1/jobs", json=body).json()
                while (state := client.get(f"/v1/jobs/{job['id']}").json())["status"] not in (
                        "completed", "failed", "cancelled"):
                    time.sleep(0.05)
                seconds = time.perf_counter() - started
    assert state["status"] == "completed", state
    total = len(seeds(count)) * per_seed
    return seconds * count / total  # the job may round up to whole seeds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=24)
    parser.add_argument("--heavy", type=int, default=12)
    parser.add_argument("--db", default=os.environ.get(
        "DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL",
                                                          "redis://127.0.0.1:6379/0"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    embedded = embedded_seconds("rule", args.episodes)
    distributed = distributed_seconds(args.db, args.redis, "rule", args.episodes, 1)
    one = distributed_seconds(args.db, args.redis, "expert", args.heavy, 1)
    two = distributed_seconds(args.db, args.redis, "expert", args.heavy, 2)
    result = {
        "cheap_episodes": args.episodes,
        "embedded_ms_per_episode": 1000 * embedded / args.episodes,
        "distributed_ms_per_episode": 1000 * distributed / args.episodes,
        "overhead_ms_per_episode": 1000 * (distributed - embedded) / args.episodes,
        "heavy_episodes": args.heavy,
        "one_worker_episodes_per_s": args.heavy / one,
        "two_workers_episodes_per_s": args.heavy / two,
        "two_vs_one": one / two,
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"cheap episodes ({args.episodes}, rule): embedded "
          f"{result['embedded_ms_per_episode']:.1f} ms, distributed (1 worker) "
          f"{result['distributed_ms_per_episode']:.1f} ms per episode: overhead "
          f"{result['overhead_ms_per_episode']:.1f} ms per episode "
          f"({result['distributed_ms_per_episode'] / result['embedded_ms_per_episode']:.1f}x)")
    print(f"heavy episodes ({args.heavy}, expert): 1 worker "
          f"{result['one_worker_episodes_per_s']:.2f}/s, 2 workers "
          f"{result['two_workers_episodes_per_s']:.2f}/s: {result['two_vs_one']:.2f}x "
          f"on {result['cpus']} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
