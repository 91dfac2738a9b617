"""The scale model's calibration: what each stage of an episode costs on this machine, in
CPU seconds, measured in one run (``scale_model.py`` calls it).

1. Embedded, one family at a time (``pipeline_overhead``'s render mix): the worker's CPU
   for an episode's run, render and reward, its browsers' included; the records kept.
2. A stack with no workers: the API's CPU (and its Postgres backends', the client's and
   Redis's) per job and per episode of a submission, from jobs of 1 and of ``k``
   episodes; per status poll; then the worker's two transactions called here on those
   episodes, with those records: the claim of an episode row and the write of its record,
   with and without its PNGs (what an artifact store would take out), and their WAL.
3. Stacks of 1 and then 2 workers on the same episodes: episodes a second, and every
   process's CPU per episode. The 1-worker run gives what the worker spends beside the
   run and its transactions (Celery, delivery, acks) and Redis's share per episode; the
   2-worker run is what the model must predict.

Redis is a redis-server of our own for the run (the machine's serves other sessions'
tests: its counters would be theirs too); Postgres backends are ours by their
``application_name``; what the machine's other processes used meanwhile is recorded
beside every figure (``others_cores``).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline_overhead import RENDER, render_cases, render_jobs  # this folder: run as a script
from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy import select, text
from stack_jobs import StackRun, bench_stack, run_jobs, submit_jobs, wait_jobs
from stage_cpu import (
    CpuMeter,
    machine_cpu_s,
    redis_calls,
    redis_cpu_s,
    thread_cpu_s,
    tree_cpu_s,
)

from designrl.bench import case_spec
from designrl.rollout.episode import run_episode_spec
from designrl.rollout.record import EpisodeRecord
from designrl.rollout.stored import stored_spec
from designrl.store import make_engine, make_sessionmaker
from designrl.store.jobs import claim_episode, finish_episode
from designrl.store.models import Episode
from services.stack import free_port

TAG = "designrl-scale"  # our Postgres backends' application_name
FAMILIES = [family for family, _, _ in RENDER]


def embedded_costs(count: int) -> tuple[dict, dict[str, EpisodeRecord]]:
    """Per family: CPU and wall seconds of a run (this process and its browsers), and
    one record of the family to write later."""
    cases = render_cases(count)
    run_episode_spec(case_spec(cases[0]))  # the browser pool starts, off the clock
    out, records = {}, {}
    for family in FAMILIES:
        mine = [c for c in cases if c.family == family]
        walls = []
        cpu0, machine0 = tree_cpu_s(os.getpid()), machine_cpu_s()
        for case in mine:
            started = time.perf_counter()
            records[family] = run_episode_spec(case_spec(case))
            walls.append(time.perf_counter() - started)
        cpu = (tree_cpu_s(os.getpid()) - cpu0) / len(mine)
        wall = statistics.fmean(walls)
        others = others_cores(machine0, machine_cpu_s(), cpu * len(mine), sum(walls))
        # More CPU than wall time: the browser's processes ran beside ours; less: the
        # run waited (page loads, timers) for the difference.
        out[family] = {"run_cpu_s": cpu, "run_wall_s": wall,
                       "run_parallel": max(1.0, cpu / wall), "run_wait_s": max(0.0, wall - cpu),
                       "run_cv": statistics.pstdev(walls) / wall,
                       "png_bytes": sum(map(len, records[family].images.values())),
                       "others_cores": others}
    return out, records


def others_cores(start: dict, end: dict, ours: float, wall: float) -> float:
    """Cores the machine's other processes used meanwhile (other sessions' jobs; niced
    ones too: what they got, we did not)."""
    return max(0.0, end["busy"] - start["busy"] - ours) / wall


def _window(meter: CpuMeter, action) -> dict[str, float]:
    start = meter.read()
    action()
    return meter.read().minus(start)


def submit_costs(run: StackRun, meter: CpuMeter, rounds: int, k: int) -> dict:
    """Per job and per episode of a submission (jobs of 1 and of ``k`` episodes)."""
    submit_jobs(run.client, render_jobs(3))  # first requests warm the API, off the clock
    small = _window(meter, lambda: [submit_jobs(run.client, render_jobs(3))
                                    for _ in range(rounds)])
    big = _window(meter, lambda: [submit_jobs(run.client, render_jobs(3 * k))
                                  for _ in range(rounds)])
    jobs = 3 * rounds
    out = {"submit_client_job_s": small["client"] / jobs}  # the client's: per request
    for part, name in (("api", "api"), ("pg", "postgres")):
        per_small, per_big = small[name] / jobs, big[name] / jobs
        episode = max(0.0, (per_big - per_small) / (k - 1))
        out[f"submit_{part}_episode_s"] = episode
        out[f"submit_{part}_job_s"] = max(0.0, per_small - episode)
    busy = sum(small[n] for n in ("api", "postgres", "client")) / jobs
    out["submit_wait_s"] = max(0.0, small["wall"] / jobs - busy)
    return out


def poll_costs(run: StackRun, meter: CpuMeter, polls: int, poll_s: float = 0.05) -> dict:
    """One GET /v1/jobs/{id} of a job of ``pipeline_overhead``'s size, ``poll_s`` apart as
    ``wait_jobs`` sends them (back to back, each costs the API half as much: warm caches)."""
    job_id = submit_jobs(run.client, render_jobs(12)[:1])[0]

    def poll() -> None:
        for _ in range(polls):
            run.client.get(f"/v1/jobs/{job_id}")
            time.sleep(poll_s)

    spent = _window(meter, poll)
    return {"poll_api_s": spent["api"] / polls, "poll_pg_s": spent["postgres"] / polls,
            "poll_client_s": spent["client"] / polls}


class Transactions:
    """The worker's claim and write, called here on one pooled connection whose backend
    is read directly: client CPU, backend CPU, wall time and WAL per call."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url, pool_size=1, max_overflow=0)
        self.sessions = make_sessionmaker(self.engine)
        with self.engine.connect() as connection:
            self.backend = connection.scalar(text("SELECT pg_backend_pid()"))

    def _lsn(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.scalar(text(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")))

    def measure(self, ids: list[str], call) -> dict[str, float]:
        lsn, client, backend = self._lsn(), time.process_time(), thread_cpu_s(self.backend)
        started = time.perf_counter()
        for episode_id in ids:
            with self.sessions() as session:
                call(session, episode_id)
        wall = time.perf_counter() - started
        n = len(ids)
        out = {"client_s": (time.process_time() - client) / n,
               "pg_s": (thread_cpu_s(self.backend) - backend) / n}
        out["wait_s"] = max(0.0, wall / n - out["client_s"] - out["pg_s"])
        out["wal_bytes"] = (self._lsn() - lsn) / n
        return out


def _claim(session, episode_id: str) -> None:
    stored_spec(claim_episode(session, episode_id, "calibration:1"))  # as the task reads it


def store_costs(url: str, records: dict[str, EpisodeRecord], per_family: int) -> dict:
    """Claim and write ``per_family`` queued episodes of each family: half written with
    their PNGs, half without."""
    tx = Transactions(url)
    with tx.sessions() as session:
        queued = session.execute(select(Episode.id, Episode.family)
                                 .where(Episode.status == "queued")).all()
    ids = defaultdict(list)
    for episode_id, family in queued:
        ids[family].append(episode_id)
    claims, families = [], {}
    for family in FAMILIES:
        mine = ids[family][:per_family]
        claims.append(tx.measure(mine, _claim))
        half = len(mine) // 2
        record = records[family]
        bare = record.model_copy(update={"images": {}})
        art = tx.measure(mine[:half], lambda s, e, r=record: finish_episode(s, e, r))
        noart = tx.measure(mine[half:], lambda s, e, r=bare: finish_episode(s, e, r))
        families[family] = {
            "finish_client_s": art["client_s"], "finish_pg_s": art["pg_s"],
            "finish_wait_s": art["wait_s"], "finish_wal_bytes": art["wal_bytes"],
            "finish_client_noart_s": noart["client_s"], "finish_pg_noart_s": noart["pg_s"],
            "finish_wal_noart_bytes": noart["wal_bytes"]}
    tx.engine.dispose()
    claim = {k: statistics.fmean(c[k] for c in claims) for k in claims[0]}
    return {"claim_client_s": claim["client_s"], "claim_pg_s": claim["pg_s"],
            "claim_wait_s": claim["wait_s"], "families": families}


def redis_call_cost(redis: Redis, rounds: int = 1000) -> float:
    """redis-server's CPU seconds per command, from a burst shaped like Celery's traffic
    (a 1.5 kB message pushed and popped, then its unacked entry added and removed, each
    pair in a MULTI/EXEC): an episode's dozen commands cost less than redis-server's idle
    timers over its second, so they are counted, and priced here."""
    key, message = f"scale-calibration-{os.getpid()}", b"m" * 1500
    calls, cpu = redis_calls(redis), redis_cpu_s(redis)
    for i in range(rounds):
        redis.lpush(key, message)
        redis.brpop([key], timeout=1)
        redis.pipeline().zadd(f"{key}:z", {str(i): i}).hset(f"{key}:h", str(i), message).execute()
        redis.pipeline().zrem(f"{key}:z", str(i)).hdel(f"{key}:h", str(i)).execute()
    spent, count = redis_cpu_s(redis) - cpu, redis_calls(redis) - calls
    redis.delete(key, f"{key}:z", f"{key}:h")
    return spent / count


def meter_for(run: StackRun, admin, redis: Redis) -> CpuMeter:
    trees = {name: process.pid for name, process in run.stack.processes.items()}
    return CpuMeter(trees, admin, TAG, redis)


def idle_stack_costs(db: str, redis_url: str, records: dict[str, EpisodeRecord],
                     rounds: int = 5, k: int = 12) -> dict:
    """Submission, polls, claim and write: a stack with no worker, so nothing else runs."""
    admin, redis = make_engine(db), Redis.from_url(redis_url)
    quota = {"DESIGNRL_KEY_JOBS_PER_MINUTE": "100000"}  # 6 * rounds + 4 jobs in seconds
    with bench_stack(db, redis_url, 0, env=quota, application_name=TAG) as run:
        meter = meter_for(run, admin, redis)
        out = submit_costs(run, meter, rounds, k)
        out |= poll_costs(run, meter, polls=100)
        out |= store_costs(run.database_url, records, per_family=min(2 * k, rounds * k))
    out["redis_call_s"] = redis_call_cost(redis)
    admin.dispose()
    return out


def stack_run(db: str, redis_url: str, workers: int, count: int, idle_s: float = 3.0) -> dict:
    """The render episodes through a stack of ``workers`` workers (after one warm-up
    episode each, as ``pipeline_overhead`` does): episodes a second and CPU per episode
    of every process. Redis's CPU while the stack idles ``idle_s`` first (its timers, the
    machine's other clients) is taken off its share."""
    admin, redis = make_engine(db), Redis.from_url(redis_url)
    jobs = render_jobs(count)
    episodes = sum(n for _, n in jobs)
    with bench_stack(db, redis_url, workers, application_name=TAG) as run:
        time.sleep(2.0)  # let the workers connect before the clock starts
        run_jobs(run.client, render_jobs(3)[:1] * workers)
        meter = meter_for(run, admin, redis)
        idle = _window(meter, lambda: time.sleep(idle_s))
        polls = []
        spent = _window(meter, lambda: polls.append(wait_jobs(
            run.client, submit_jobs(run.client, jobs))))
    admin.dispose()
    parts = ("api", "postgres", "redis", "client")
    spent["redis"] = max(0.0, spent["redis"] - idle["redis"] / idle["wall"] * spent["wall"])
    spent["redis_calls"] -= idle["redis_calls"] / idle["wall"] * spent["wall"]
    worker_cpu = sum(v for k, v in spent.items() if k.startswith("worker"))
    ours = worker_cpu + sum(spent[n] for n in parts)
    others = max(0.0, spent["machine"] - ours) / spent["wall"]
    return {"workers": workers, "episodes": episodes, "seconds": spent["wall"],
            "episodes_per_s": episodes / spent["wall"], "polls": polls[0],
            "cpu_per_episode": {"worker": worker_cpu / episodes,
                                **{n: spent[n] / episodes for n in parts}},
            "others_cores": others, "niced_cores": spent["machine_niced"] / spent["wall"],
            "redis_idle_cpu_per_s": idle["redis"] / idle["wall"],
            "redis_calls_per_episode": spent["redis_calls"] / episodes}


@contextmanager
def private_redis(fallback: str) -> Iterator[str]:
    """A redis-server of our own on a free port, so that its CPU and command counts are
    only the stack's (the machine's Redis serves other sessions' tests too); ``fallback``
    where there is no redis-server binary."""
    binary = shutil.which("redis-server")
    if binary is None:
        yield fallback
        return
    port = free_port()
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(100):
            try:
                Redis.from_url(url).ping()
                break
            except RedisError:
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def machine() -> dict:
    return {"cores": os.cpu_count(), "load": list(os.getloadavg()),
            "uptime_s": float(Path("/proc/uptime").read_text().split()[0])}


def calibrate(db: str, redis_url: str, count: int) -> dict:
    """Every stage's cost, and the 1- and 2-worker runs, measured now (a few minutes)."""
    started = machine()
    embedded, records = embedded_costs(count)
    with private_redis(redis_url) as redis_url:
        idle = idle_stack_costs(db, redis_url, records)
        runs = {str(w): stack_run(db, redis_url, w, count) for w in (1, 2)}
    families = {f: {**idle["families"][f],
                    **{k: embedded[f][k] for k in ("run_cpu_s", "run_parallel", "run_cv",
                                                 "run_wait_s")}}
                for f in FAMILIES}
    mean = {k: statistics.fmean(families[f][k] for f in FAMILIES)  # a third each
            for k in ("run_cpu_s", "finish_client_s", "finish_wait_s")}
    one = runs["1"]
    overhead = (one["cpu_per_episode"]["worker"] - mean["run_cpu_s"] - idle["claim_client_s"]
                - mean["finish_client_s"])
    costs = {k: v for k, v in idle.items() if k not in ("families", "redis_call_s")} | {
        "families": {f: {k: v for k, v in fam.items() if k != "finish_wait_s"}
                     for f, fam in families.items()},
        "finish_wait_s": mean["finish_wait_s"],
        "worker_overhead_s": max(0.0, overhead),
        "redis_episode_s": one["redis_calls_per_episode"] * idle["redis_call_s"]}
    return {"costs": costs, "embedded": embedded, "runs": runs,
            "redis_call_s": idle["redis_call_s"],
            "jobs": [[family, n] for (family, _, _), (_, n) in zip(RENDER, render_jobs(count),
                                                                   strict=True)],
            "machine": {"before": started, "after": machine()}}
