"""A model of the stack at scale: episodes a second and the first bottleneck for 1 to
1,000 workers, and what to change at each step (issue 21).

    python bench/scale_model.py [--episodes 24] [--calibration FILE] [--save FILE]
                                [--workers 1,2,5,...] [--api-processes 2] [--job-size 4]
                                [--pg-cores 8] [--pg-wal-mb-s 200] [--redis-shards 1]
                                [--worker-host-cores 16] [--workers-per-host 12]
                                [--gpus 0] [--turns-per-episode 0] [--poll-every-s 1]
                                [--db URL] [--redis URL] [--json]

1. Calibration (``scale_calibrate.py``, a few minutes; or read back with
   ``--calibration``): what every stage of ``pipeline_overhead``'s render episodes costs
   on this machine in CPU seconds, and the same episodes through stacks of 1 and 2
   workers, measured in the same run.
2. The check: the simulation (``scale_sim.py``) of those two runs, everything on this
   machine's cores as it was, against the measured episodes a second.
3. The table: the steady state with ``--workers`` workers on hosts of
   ``--worker-host-cores``, ``--api-processes`` API processes, a Postgres of
   ``--pg-cores`` and ``--pg-wal-mb-s``, ``--redis-shards``; for each, the first resource
   to fill (90% busy) and the changes that move it, one after another, each simulated.

GPU sampling (``--gpus``, ``--turns-per-episode``): one GPU samples 153 assistant turns a
second, 36 at a time: bench/RESULTS.md, "The same code path on a GPU", one NVIDIA H100
(80 GB), the tiny 4-layer × 256 model in fp32 through ``TransformersBackend``, three GRPO
runs at once, each 100 updates × 2 groups × 12 episodes × 4 turns (9,600 turns) in
183-194 s with its rollout thread busy 99.8% (so an upper bound on the GPU's share: that
thread also stepped the env). RESULTS records no token counts, so the unit is a turn (one
sampled action), not a token. A real model costs far more per turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from scale_inputs import Costs, Hardware, Workload
from scale_sim import simulate, simulate_run
from stack_jobs import add_service_arguments

WORKERS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]


def fit_background(costs: Costs, cores: float, workers: int, jobs: list, used: float) -> float:
    """The other processes' demand (cores) under which the simulated run leaves them the
    cores they were measured to use beside the real one (bisection)."""
    if used <= 0:
        return 0.0
    low, high = used, 8.0 * cores  # they want at least what they got
    for _ in range(10):
        mid = (low + high) / 2
        run = simulate_run(costs, Hardware(shared_cores=cores, background_cores=mid), workers,
                           jobs)
        got = run.cpu_per_episode.get("other", 0.0) * run.episodes / run.seconds
        low, high = (mid, high) if got < used else (low, mid)
    return (low + high) / 2


def check(calibration: dict) -> list[dict]:
    """The measured 1- and 2-worker runs, simulated on this machine's cores beside the
    load the machine's other processes put on them during each run (what they used: the
    model's other input). Niced processes (a training run at nice 15) are left out: the
    kernel gives them about 3% of a core's weight, so they take what the stack leaves
    idle; counting them too, and the machine to itself, bracket it."""
    costs = Costs.from_dict(calibration["costs"])
    cores = calibration["machine"]["before"]["cores"]
    jobs = [(family, n) for family, n in calibration["jobs"]]
    rows = []
    for workers, measured in calibration["runs"].items():
        count, rate = int(workers), measured["episodes_per_s"]
        predicted = {}
        for name, used in (("beside_others", measured["others_cores"]
                            - measured["niced_cores"]),
                           ("counting_niced", measured["others_cores"]), ("alone", 0.0)):
            demand = fit_background(costs, cores, count, jobs, used)
            predicted[name] = simulate_run(
                costs, Hardware(shared_cores=cores, background_cores=demand), count, jobs)
        main = predicted["beside_others"]
        rows.append({"workers": count, "measured": rate, "predicted": main.episodes_per_s,
                     "ratio": main.episodes_per_s / rate,
                     "others_cores": measured["others_cores"],
                     "niced_cores": measured["niced_cores"],
                     **{f"ratio_{name}": r.episodes_per_s / rate
                        for name, r in predicted.items() if name != "beside_others"},
                     "polls": {"measured": measured["polls"], "predicted": main.extra["polls"]},
                     "cpu_per_episode": {"measured": measured["cpu_per_episode"],
                                         "predicted": main.cpu_per_episode}})
    return rows


def advise(bottleneck: str, hw: Hardware, load: Workload) -> tuple[str, Hardware, Workload]:
    """What to change when ``bottleneck`` is full, and the hardware and workload after."""
    if bottleneck == "API":
        return (f"API processes {hw.api_processes} -> {2 * hw.api_processes}",
                replace(hw, api_processes=2 * hw.api_processes), load)
    if bottleneck in ("Postgres CPU", "Postgres WAL") and load.artifacts_in_pg:
        return ("PNGs to an artifact store (the row keeps a key)", hw,
                replace(load, artifacts_in_pg=False))
    if bottleneck == "Postgres CPU" and load.poll_every_s and not load.reads_on_replica:
        return "status reads to a read replica", hw, replace(load, reads_on_replica=True)
    if bottleneck in ("Postgres CPU", "Postgres replica"):
        return (f"Postgres {hw.pg_cores} -> {2 * hw.pg_cores} cores (or batch the "
                "per-episode writes)", replace(hw, pg_cores=2 * hw.pg_cores), load)
    if bottleneck == "Postgres WAL":
        return (f"WAL disk {hw.pg_wal_mb_s:g} -> {2 * hw.pg_wal_mb_s:g} MB/s",
                replace(hw, pg_wal_mb_s=2 * hw.pg_wal_mb_s), load)
    if bottleneck == "Redis":
        return (f"Redis cluster: queue and groups stream partitioned over "
                f"{2 * hw.redis_shards} shards", replace(hw, redis_shards=2 * hw.redis_shards),
                load)
    if bottleneck == "job-row lock":
        return ("no job-row lock per episode (progress counted per group), or smaller jobs",
                hw, replace(load, job_lock=False))
    if bottleneck == "GPU":
        return f"GPUs {hw.gpus} -> {2 * hw.gpus}", replace(hw, gpus=2 * hw.gpus), load
    raise ValueError(f"no advice for {bottleneck!r}")


def step(result) -> dict:
    busy = result.utilisation.get(result.bottleneck, result.utilisation["workers"])
    return {"episodes_per_s": result.episodes_per_s, "bottleneck": result.bottleneck,
            "busy": busy, "utilisation": result.utilisation,
            "pg_connections": result.extra["pg_connections"]}


def scale_rows(costs: Costs, hw: Hardware, load: Workload, workers: list[int],
               max_changes: int = 5) -> list[dict]:
    """Per worker count: the steady state, then each change the bottleneck calls for."""
    rows = []
    for count in workers:
        result = simulate(costs, hw, load, count)
        row = {"workers": count, **step(result), "changes": []}
        now_hw, now_load = hw, load
        for _ in range(max_changes):
            if result.bottleneck == "workers":
                break
            change, now_hw, now_load = advise(result.bottleneck, now_hw, now_load)
            result = simulate(costs, now_hw, now_load, count)
            row["changes"].append({"change": change, **step(result)})
        rows.append(row)
    return rows


def hardware_from(args: argparse.Namespace) -> tuple[Hardware, Workload]:
    hw = Hardware(worker_host_cores=args.worker_host_cores,
                  workers_per_host=args.workers_per_host, api_processes=args.api_processes,
                  pg_cores=args.pg_cores, pg_wal_mb_s=args.pg_wal_mb_s,
                  redis_shards=args.redis_shards, gpus=args.gpus)
    load = Workload(mix={f: 1.0 for f in ("svg", "html", "webpage")}, job_size=args.job_size,
                    poll_every_s=args.poll_every_s, turns_per_episode=args.turns_per_episode)
    return hw, load


def also_busy(row: dict) -> str:
    """The shared resources past half busy, beside the bottleneck."""
    return ", ".join(f"{name} {100 * busy:.0f}%" for name, busy in row["utilisation"].items()
                     if busy >= 0.5 and name not in (row["bottleneck"], "workers",
                                                     "worker hosts' CPU")) or "-"


def print_report(out: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=160)
    cal = out["calibration"]
    table = Table(title="Calibration: CPU ms per episode on this machine")
    for col in ("family", "run (worker)", "run cores", "write: worker", "write: Postgres",
                "write: WAL kB", "without PNGs: Postgres", "WAL kB"):
        table.add_column(col, justify="right")
    for family, f in cal["costs"]["families"].items():
        table.add_row(family, f"{1e3 * f['run_cpu_s']:.0f}", f"{f['run_parallel']:.2f}",
                      f"{1e3 * f['finish_client_s']:.1f}", f"{1e3 * f['finish_pg_s']:.1f}",
                      f"{f['finish_wal_bytes'] / 1e3:.0f}",
                      f"{1e3 * f['finish_pg_noart_s']:.1f}",
                      f"{f['finish_wal_noart_bytes'] / 1e3:.0f}")
    console.print(table)
    c = cal["costs"]
    console.print("per episode: claim worker {:.1f} + Postgres {:.1f} ms; worker beside it "
                  "{:.1f} ms; Redis {:.2f} ms. Submit: API {:.1f} ms a job + {:.2f} an "
                  "episode, Postgres {:.1f} + {:.2f}; a status poll: API {:.1f}, Postgres "
                  "{:.1f} ms".format(*(1e3 * c[k] for k in (
                      "claim_client_s", "claim_pg_s", "worker_overhead_s", "redis_episode_s",
                      "submit_api_job_s", "submit_api_episode_s", "submit_pg_job_s",
                      "submit_pg_episode_s", "poll_api_s", "poll_pg_s"))))
    for row in out["check"]:
        cpu = row["cpu_per_episode"]
        parts = ", ".join(f"{name} {1e3 * cpu['predicted'].get(name, 0):.0f}/"
                          f"{1e3 * value:.0f}" for name, value in cpu["measured"].items())
        console.print(
            f"{row['workers']} worker(s) on {cal['machine']['before']['cores']} cores, others "
            f"using {row['others_cores']:.2f} of them ({row['niced_cores']:.2f} niced): "
            f"measured {row['measured']:.2f} episodes/s, predicted {row['predicted']:.2f} "
            f"(predicted/measured {row['ratio']:.2f}; counting the niced load too "
            f"{row['ratio_counting_niced']:.2f}, the machine to itself "
            f"{row['ratio_alone']:.2f}); CPU ms an episode, predicted/measured: {parts}")
    table = Table(title=out["setting"])
    for col in ("workers", "episodes/s", "first bottleneck", "also busy",
                "what to change, and then"):
        table.add_column(col, justify="left" if col.startswith(("what", "also")) else "right")
    for row in out["scale"]:
        then = "; ".join(f"{c['change']}: {c['episodes_per_s']:,.0f}/s, {c['bottleneck']} "
                         f"{100 * c['busy']:.0f}%" for c in row["changes"])
        table.add_row(str(row["workers"]), f"{row['episodes_per_s']:,.1f}",
                      f"{row['bottleneck']} {100 * row['busy']:.0f}%", also_busy(row),
                      then or "-")
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=24,
                        help="render episodes a run (a third each of svg, html, webpage)")
    parser.add_argument("--calibration", help="read the calibration from this JSON file")
    parser.add_argument("--save", help="write the calibration to this JSON file")
    parser.add_argument("--workers", default=",".join(map(str, WORKERS)))
    parser.add_argument("--api-processes", type=int, default=2,
                        help="uvicorn processes, a core each (deploy/k8s/api.yaml: 2)")
    parser.add_argument("--job-size", type=int, default=4, help="episodes per submitted job")
    parser.add_argument("--pg-cores", type=int, default=8)
    parser.add_argument("--pg-wal-mb-s", type=float, default=200.0,
                        help="WAL the database disk takes a second")
    parser.add_argument("--redis-shards", type=int, default=1)
    parser.add_argument("--worker-host-cores", type=int, default=16)
    parser.add_argument("--workers-per-host", type=int, default=12)
    parser.add_argument("--gpus", type=int, default=0)
    parser.add_argument("--turns-per-episode", type=float, default=0.0)
    parser.add_argument("--poll-every-s", type=float, default=1.0,
                        help="each job's client reads its status this often (0: never)")
    add_service_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    if args.calibration:
        with open(args.calibration) as f:
            calibration = json.load(f)
    else:
        from scale_calibrate import calibrate

        calibration = calibrate(args.db, args.redis, args.episodes)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(calibration, f, indent=1)
    hw, load = hardware_from(args)
    workers = [int(w) for w in args.workers.split(",")]
    out = {"calibration": calibration, "check": check(calibration),
           "setting": (f"{args.api_processes} API processes, Postgres {args.pg_cores} cores "
                       f"and {args.pg_wal_mb_s:g} MB/s of WAL, {args.redis_shards} Redis "
                       f"shard(s), {args.workers_per_host} workers per "
                       f"{args.worker_host_cores}-core host, jobs of {args.job_size}"
                       + (f", {args.gpus} GPU(s), {args.turns_per_episode:g} turns an "
                          "episode" if args.gpus else "")),
           "scale": scale_rows(Costs.from_dict(calibration["costs"]), hw, load, workers)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print_report(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
