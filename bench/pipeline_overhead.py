"""What the distributed path costs per episode, and what a second worker buys.

    python bench/pipeline_overhead.py [--episodes 24] [--heavy 12] [--render 12]
                                      [--db URL] [--redis URL] [--json]

Same run, same machine, same episodes:

* overhead: ``--episodes`` cheap episodes (the ``rule`` policy on generated
  layouts) run embedded (``run_case``, one after another, in this warm process) and
  through the stack (REST submit -> Postgres -> Redis -> one Celery worker ->
  Postgres), timed from submit to the job's completion, after a warm-up episode; the
  difference per episode is the pipeline's overhead;
* scaling: ``--heavy`` expert episodes (about a second of CPU each) through the
  stack with 1 worker, then with 2 (on this machine's cores);
* render families: ``--render`` episodes of the html, svg and webpage families
  (their model-free teachers on generated and shipped items, each rendered in
  Chromium) embedded in one process, then through the stack with 1 and with 2
  workers (each worker process starts its own browser pool, once; the clock starts
  after one warm-up episode per worker).

The stack runs as local processes on a throwaway schema (``LocalStack``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from stack_jobs import add_service_arguments, bench_stack, run_jobs  # this folder: run as a script

from designrl.bench import BenchCase, run_case
from designrl.tasks import TASKS, load_items

LAYOUT_TASKS = ["gen-poster", "gen-slide", "gen-banner", "gen-flyer"]


def seeds(count: int) -> list[int]:
    return [1_000_000 + i for i in range(-(-count // len(LAYOUT_TASKS)))]


def embedded_seconds(policy: str, count: int) -> float:
    cases = [BenchCase("layout", t, policy, s, str(s), "default")
             for s in seeds(count) for t in LAYOUT_TASKS][:count]
    started = time.perf_counter()
    for case in cases:
        run_case(case)
    return time.perf_counter() - started


RENDER = (("svg", "gen-svg", "expert"), ("html", "gen-html", "reference"),
          ("webpage", "webpage-prompts", "template"))  # a third of the episodes each


def render_items(task_id: str, n: int) -> list[tuple[int | None, str]]:
    """(seed, key) of a task's first ``n`` test items."""
    if TASKS[task_id].seeded:
        return [(1_000_000 + i, str(1_000_000 + i)) for i in range(n)]
    return [(None, item.id) for item in load_items(task_id, limit=n)]


def render_cases(count: int) -> list[BenchCase]:
    return [BenchCase(family, task_id, policy, seed, key)
            for family, task_id, policy in RENDER
            for seed, key in render_items(task_id, -(-count // 3))]


def render_jobs(count: int) -> list[tuple[dict, int]]:
    """The same episodes as ``render_cases``, as one benchmark request per family."""
    jobs = []
    for _, task_id, policy in RENDER:
        items = render_items(task_id, -(-count // 3))
        seeded = TASKS[task_id].seeded
        body = {"tasks": [task_id], "policies": [policy],
                **({"seeds": [s for s, _ in items]} if seeded
                   else {"items": [k for _, k in items]})}
        jobs.append((body, len(items)))
    return jobs


def embedded_render_seconds(count: int) -> tuple[float, int]:
    """One process, one browser pool (started before the clock, as a worker's is)."""
    cases = render_cases(count)
    run_case(cases[0])  # the pool starts
    started = time.perf_counter()
    for case in cases:
        run_case(case)
    return time.perf_counter() - started, len(cases)


def distributed_render_seconds(db: str, redis: str, count: int, workers: int) -> float:
    """The render episodes through a stack of ``workers`` workers, after one warm-up
    episode per worker (each starts its browser pool on its first)."""
    return _through_stack(db, redis, workers, render_jobs(count),
                          warm_up=render_jobs(3)[:1] * workers)


def distributed_seconds(db: str, redis: str, policy: str, count: int, workers: int) -> float:
    """Submit to job completion, through a fresh stack with ``workers`` workers, after a
    warm-up job of one episode per worker (as the embedded side runs in a warm process:
    each worker's first task pays for its imports and connections)."""
    per_seed = len(LAYOUT_TASKS)
    total = len(seeds(count)) * per_seed
    body = {"tasks": LAYOUT_TASKS, "seeds": seeds(count), "policies": [policy]}
    warm_up = {"tasks": LAYOUT_TASKS[:1], "seeds": [2_000_000 + w for w in range(workers)],
               "policies": [policy]}
    seconds = _through_stack(db, redis, workers, [(body, total)], warm_up=[(warm_up, workers)])
    return seconds * count / total  # the job may round up to whole seeds


def _through_stack(db: str, redis: str, workers: int, jobs: list[tuple[dict, int]],
                   warm_up: list[tuple[dict, int]] = ()) -> float:
    """Seconds from submitting ``jobs`` to their completion, through a fresh stack;
    ``warm_up`` jobs run to completion first (untimed)."""
    with bench_stack(db, redis, workers) as run:
        time.sleep(2.0)  # let the workers connect before the clock starts
        run_jobs(run.client, list(warm_up))
        started = time.perf_counter()
        run_jobs(run.client, jobs)
        return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=24)
    parser.add_argument("--heavy", type=int, default=12)
    parser.add_argument("--render", type=int, default=12,
                        help="render-family episodes (a third each of svg, html, webpage)")
    add_service_arguments(parser)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    embedded = embedded_seconds("rule", args.episodes)
    distributed = distributed_seconds(args.db, args.redis, "rule", args.episodes, 1)
    one = distributed_seconds(args.db, args.redis, "expert", args.heavy, 1)
    two = distributed_seconds(args.db, args.redis, "expert", args.heavy, 2)
    render_embedded, rendered = embedded_render_seconds(args.render)
    render_one = distributed_render_seconds(args.db, args.redis, args.render, 1)
    render_two = distributed_render_seconds(args.db, args.redis, args.render, 2)
    result = {
        "cheap_episodes": args.episodes,
        "embedded_ms_per_episode": 1000 * embedded / args.episodes,
        "distributed_ms_per_episode": 1000 * distributed / args.episodes,
        "overhead_ms_per_episode": 1000 * (distributed - embedded) / args.episodes,
        "heavy_episodes": args.heavy,
        "one_worker_episodes_per_s": args.heavy / one,
        "two_workers_episodes_per_s": args.heavy / two,
        "two_vs_one": one / two,
        "render_episodes": rendered,
        "render_embedded_episodes_per_s": rendered / render_embedded,
        "render_one_worker_episodes_per_s": rendered / render_one,
        "render_two_workers_episodes_per_s": rendered / render_two,
        "render_one_worker_vs_embedded": render_embedded / render_one,
        "render_two_vs_one": render_one / render_two,
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
    print(f"render episodes ({rendered}: svg expert, html reference, webpage template): "
          f"embedded {result['render_embedded_episodes_per_s']:.2f}/s, 1 worker "
          f"{result['render_one_worker_episodes_per_s']:.2f}/s "
          f"({result['render_one_worker_vs_embedded']:.2f}x embedded), 2 workers "
          f"{result['render_two_workers_episodes_per_s']:.2f}/s "
          f"({result['render_two_vs_one']:.2f}x 1 worker)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
