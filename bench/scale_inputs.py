"""What the scale model (``scale_sim.py``) is given: the calibrated cost of each stage
(``Costs``, one ``Family`` each), where the processes run (``Hardware``) and what the
clients ask for (``Workload``). ``scale_calibrate.py`` measures the costs; the
hardware's GPU figures come from bench/RESULTS.md (``scale_model.py`` says which).
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Family:
    """One family's calibrated costs per episode (CPU seconds, bytes)."""

    run_cpu_s: float  # the worker's CPU for the run: policy, render, reward (browsers too)
    run_parallel: float  # cores one run keeps busy when alone (its CPU / its wall time)
    finish_client_s: float  # the worker's side of writing the record
    finish_pg_s: float  # Postgres's side
    finish_wal_bytes: float  # WAL the write makes (the PNGs are most of it)
    finish_client_noart_s: float  # the same three without the PNGs (an artifact store)
    finish_pg_noart_s: float
    finish_wal_noart_bytes: float
    run_cv: float = 0.0  # spread of run_cpu_s between episodes (standard deviation / mean)
    run_wait_s: float = 0.0  # the run's wall time beyond its CPU when alone (I/O, timers)


@dataclass(frozen=True)
class Costs:
    families: dict[str, Family]
    claim_client_s: float
    claim_pg_s: float
    claim_wait_s: float  # claim's wall time beyond the CPU (round trips, the commit's flush)
    finish_wait_s: float
    submit_api_job_s: float
    submit_api_episode_s: float
    submit_pg_job_s: float
    submit_pg_episode_s: float
    submit_client_job_s: float
    submit_wait_s: float
    poll_api_s: float  # one GET /v1/jobs/{id}
    poll_pg_s: float
    poll_client_s: float
    redis_episode_s: float  # redis-server's CPU per episode (enqueue, delivery, ack, beats)
    worker_overhead_s: float  # the worker's CPU per episode beside run, claim and write

    @classmethod
    def from_dict(cls, data: dict) -> Costs:
        names = {f.name for f in fields(cls)} - {"families"}
        return cls(families={k: Family(**v) for k, v in data["families"].items()},
                   **{k: float(data[k]) for k in names})


@dataclass(frozen=True)
class Hardware:
    """Where the processes run. ``shared_cores``: all of them on one machine of that many
    cores (this one: no WAL or GPU limit beyond what was measured). Otherwise workers on
    hosts of ``worker_host_cores``, ``workers_per_host`` each; each API process and each
    Redis shard a core of its own; Postgres ``pg_cores`` and ``pg_wal_mb_s`` of WAL."""

    shared_cores: float | None = None
    background_cores: float = 0.0  # on the shared machine: what other processes want
    worker_host_cores: int = 16
    workers_per_host: int = 12
    api_processes: int = 1
    pg_cores: int = 16
    pg_wal_mb_s: float = 400.0
    pg_max_connections: int = 100
    redis_shards: int = 1
    gpus: int = 0
    gpu_turns_per_s: float = 153.0  # one GPU's sampled turns a second (see scale_model.py)
    gpu_batch: int = 36  # turns sampled at once at that rate


@dataclass(frozen=True)
class Workload:
    mix: dict[str, float]  # family -> share of the episodes
    job_size: int = 4  # episodes per submitted job
    poll_every_s: float = 0.0  # each job's client reads its status this often (0: never)
    turns_per_episode: float = 0.0  # sampled on the GPU (0: model-free policies)
    job_lock: bool = True  # claim and write lock the job's row (the store today)
    artifacts_in_pg: bool = True  # the PNGs are rows (today) or in an artifact store
    reads_on_replica: bool = False  # status polls read a replica
