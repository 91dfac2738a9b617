"""API under load: job submissions from concurrent clients on loopback.

    python bench/api_load.py [--requests 1000] [--concurrency 32] [--big 20000] [--db URL]
                             [--redis URL] [--json]

Starts the API as a process (``LocalStack``, no workers: the submitted episodes
wait in a private queue) on a throwaway schema of the Postgres at ``--db``
(default ``$DATABASE_URL``, else the machine's ``test`` database), then sends
``--requests`` job submissions (each a benchmark of 1 task × 2 seeds × 2
policies: a job row, 4 episode rows, 4 enqueued tasks) with at most
``--concurrency`` in flight. The baseline, measured in the same run with the same
concurrency: ``GET /healthz`` (no database, no broker). Prints p50/p99 latency of
both, their ratio, throughput, and every status code. Then one big job, alone
(``--big`` episodes, default 20,000: a rollout of 5 tasks × 1,000 seeds × groups of
``--big / 5,000``): its time from request to reply (every row committed, every task in
Redis) and the ratio to the 2 s target. Exits 1 on any 5xx or a task missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter

import httpx
from redis import Redis
from stack_jobs import add_service_arguments, bench_stack  # this folder: run as a script

JOB = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": [1, 2],
       "policies": ["rule", "random"]}
BIG_TASKS = ["gen-poster", "gen-editorial", "gen-flyer", "gen-slide", "gen-banner"]
BIG_TARGET_S = 2.0  # issue 21: a 20,000-episode job in at most 2 s of API time


def big_job(episodes: int) -> dict:
    """A rollout job of ``episodes`` (a multiple of 5,000, up to 1,280,000)."""
    return {"kind": "rollout", "tasks": BIG_TASKS, "seeds": list(range(1000)),
            "policy": "rule", "group_size": episodes // 5000}


def submit_once(base: str, key: str, body: dict) -> dict:
    started = time.perf_counter()
    reply = httpx.post(f"{base}/v1/jobs", json=body, headers={"X-API-Key": key}, timeout=300)
    seconds = time.perf_counter() - started
    return {"status": reply.status_code, "seconds": seconds,
            "episodes": reply.json().get("episodes_total")}


async def hammer(base: str, key: str, method: str, path: str, body: dict | None, count: int,
                 concurrency: int) -> dict:
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, headers={"X-API-Key": key}, timeout=60,
                                 limits=limits) as client:
        async def one() -> None:
            async with gate:
                started = time.perf_counter()
                try:
                    reply = await client.request(method, path, json=body)
                    statuses[reply.status_code] += 1
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(count)))
        seconds = time.perf_counter() - started
    ordered = sorted(latencies)
    return {"requests": count, "seconds": seconds, "per_second": count / seconds,
            "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            "max_ms": 1000 * ordered[-1], "statuses": {str(k): v for k, v in statuses.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--big", type=int, default=20_000,
                        help="episodes of the one big job (a multiple of 5,000; 0: none)")
    add_service_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    limits = {"DESIGNRL_KEY_EPISODES_PER_JOB": str(max(args.big, 5000)),
              "DESIGNRL_MAX_EPISODES_PER_JOB": str(max(args.big, 20_000)),
              "DESIGNRL_KEY_JOBS_PER_MINUTE": str(10 * args.requests + 10)}
    with bench_stack(args.db, args.redis, 0, env=limits) as run:
        base, key = run.stack.api_url, run.client.headers["X-API-Key"]
        baseline = asyncio.run(hammer(base, key, "GET", "/healthz", None, args.requests,
                                      args.concurrency))
        submit = asyncio.run(hammer(base, key, "POST", "/v1/jobs", JOB, args.requests,
                                    args.concurrency))
        redis = Redis.from_url(args.redis)
        enqueued = redis.llen(run.queue)
        big = submit_once(base, key, big_job(args.big)) if args.big else None
        big_enqueued = redis.llen(run.queue) - enqueued
    server_errors = sum(v for k, v in submit["statuses"].items() if k.startswith("5"))
    result = {"concurrency": args.concurrency, "submit": submit, "healthz": baseline,
              "p50_ratio": submit["p50_ms"] / baseline["p50_ms"],
              "enqueued_tasks": enqueued, "server_errors": server_errors}
    if big is not None:
        result["big_job"] = {**big, "enqueued_tasks": big_enqueued,
                             "ratio_to_target": big["seconds"] / BIG_TARGET_S}
        server_errors += big["status"] >= 500
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"{args.requests} requests, {args.concurrency} at a time, loopback")
        for col in ("request", "p50 ms", "p99 ms", "max ms", "req/s", "statuses"):
            table.add_column(col, justify="right")
        for name, row in (("POST /v1/jobs (4 episodes)", submit), ("GET /healthz", baseline)):
            table.add_row(name, f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}",
                          f"{row['max_ms']:.1f}", f"{row['per_second']:.0f}",
                          json.dumps(row["statuses"]))
        console = Console()
        console.print(table)
        console.print(f"submission p50 is {result['p50_ratio']:.1f}x /healthz's; "
                      f"{enqueued} tasks enqueued (expected {4 * submit['statuses'].get('202', 0)}); "
                      f"5xx: {server_errors}")
        if big is not None:
            console.print(f"one job of {args.big} episodes: {big['seconds']:.2f} s "
                          f"(HTTP {big['status']}), {big_enqueued} tasks enqueued; "
                          f"{result['big_job']['ratio_to_target']:.2f}x the {BIG_TARGET_S:.0f} s "
                          "target")
    missing = big is not None and big_enqueued != args.big
    return 1 if server_errors or missing else 0


if __name__ == "__main__":
    sys.exit(main())
