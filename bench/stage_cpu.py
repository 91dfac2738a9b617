"""CPU seconds by process, for the scale model's calibration (``scale_calibrate.py``): what
the API, each worker (with its Playwright driver and browsers), our Postgres backends,
redis-server and this process spend over a window, and the whole machine beside them.

A process tree's CPU is read from ``/proc/PID/stat`` with its reaped children's
(``proc_stats.cpu_s``): a browser's renderer that exits inside the tree stays counted.
A Postgres backend (one thread) is read from ``/proc/PID/schedstat`` (nanoseconds: one
claim is about a millisecond, below ``stat``'s 10 ms tick); backends are ours when their
``application_name`` is the run's (``stack_jobs.tagged_url``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from proc_stats import cpu_s, descendants_of, process_commands  # this folder: run as a script
from sqlalchemy import text

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(root: int) -> float:
    """CPU seconds of ``root`` and every process below it (reaped ones included)."""
    table = process_commands()
    return sum(cpu_s(pid) for pid in descendants_of(root, table) | {root})


def thread_cpu_s(pid: int) -> float:
    """CPU seconds of a process's main thread, to the nanosecond (0 if it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def backend_pids(engine, application_name: str) -> list[int]:
    with engine.connect() as connection:
        return list(connection.scalars(text(
            "SELECT pid FROM pg_stat_activity WHERE application_name = :name"),
            {"name": application_name}))


def redis_cpu_s(redis) -> float:
    """redis-server's own CPU seconds (user + system, from ``INFO cpu``)."""
    info = redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def redis_calls(redis) -> int:
    """Commands redis-server has run since it started (every client's)."""
    return sum(int(stats["calls"]) for stats in redis.info("commandstats").values())


def machine_cpu_s() -> dict[str, float]:
    """Busy CPU seconds of the whole machine since boot, and of it the niced share."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return {"busy": (user + nice + system + irq + softirq + steal) / TICK, "niced": nice / TICK}


@dataclass
class Reading:
    """One look at every counter; ``minus`` gives what a window spent. This process's
    clocks are read before and after the look, so that looking is not counted."""

    before: tuple[float, float]  # (wall, this process's CPU) as the look began
    after: tuple[float, float]  # and as it ended
    trees: dict[str, float]  # name -> CPU s of a process tree
    backends: dict[int, float]  # Postgres backend pid -> CPU s
    redis: float
    redis_calls: int
    machine: dict[str, float]

    def minus(self, start: Reading) -> dict[str, float]:
        # A backend that connected inside the window counts whole; one that left is lost
        # (the stack's pools keep theirs open for the run).
        out = {name: cpu - start.trees.get(name, 0.0) for name, cpu in self.trees.items()}
        out |= {"postgres": sum(cpu - start.backends.get(pid, 0.0)
                                for pid, cpu in self.backends.items()),
                "redis": self.redis - start.redis,
                "client": self.before[1] - start.after[1],
                "redis_calls": self.redis_calls - start.redis_calls,
                "machine": self.machine["busy"] - start.machine["busy"],
                "machine_niced": self.machine["niced"] - start.machine["niced"],
                "wall": self.before[0] - start.after[0]}
        return out


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


class CpuMeter:
    """Reads the named process trees, the tagged backends, Redis and the machine."""

    def __init__(self, trees: dict[str, int], engine, application_name: str, redis) -> None:
        self.trees, self.engine, self.redis = trees, engine, redis
        self.application_name = application_name

    def read(self) -> Reading:
        before = clocks()
        pids = backend_pids(self.engine, self.application_name)
        trees = {name: tree_cpu_s(pid) for name, pid in self.trees.items()}
        backends = {pid: thread_cpu_s(pid) for pid in pids}
        return Reading(before, clocks(), trees, backends, redis_cpu_s(self.redis),
                       redis_calls(self.redis), machine_cpu_s())
