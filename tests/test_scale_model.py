"""The scale model's simulation (``bench/scale_sim.py``, issue 21) against answers known in
closed form: no services, a few seconds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import simpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # its scripts' imports

from processor_sharing import Host  # noqa: E402
from scale_inputs import Costs, Hardware, Workload  # noqa: E402
from scale_sim import simulate, simulate_run  # noqa: E402

ZERO_FAMILY = {"run_cpu_s": 0.0, "run_parallel": 1.0, "finish_client_s": 0.0,
               "finish_pg_s": 0.0, "finish_wal_bytes": 0.0, "finish_client_noart_s": 0.0,
               "finish_pg_noart_s": 0.0, "finish_wal_noart_bytes": 0.0}
ZERO = {"claim_client_s": 0.0, "claim_pg_s": 0.0, "claim_wait_s": 0.0, "finish_wait_s": 0.0,
        "submit_api_job_s": 0.0, "submit_api_episode_s": 0.0, "submit_pg_job_s": 0.0,
        "submit_pg_episode_s": 0.0, "submit_client_job_s": 0.0, "submit_wait_s": 0.0,
        "poll_api_s": 0.0, "poll_pg_s": 0.0, "poll_client_s": 0.0, "redis_episode_s": 0.0,
        "worker_overhead_s": 0.0}
MIX = {"svg": 1.0}


def costs(family: dict | None = None, **stages: float) -> Costs:
    return Costs.from_dict({"families": {"svg": {**ZERO_FAMILY, **(family or {})}},
                            **ZERO, **stages})


def finish_times(cores: float, tasks: list[tuple[float, float]]) -> list[float]:
    """When each (work, weight) task started at 0 on a host of ``cores`` ends."""
    env = simpy.Environment()
    host = Host(env, cores, "h")
    ends: list[float] = [0.0] * len(tasks)
    for i, (work, weight) in enumerate(tasks):
        host.run(work, weight).callbacks.append(lambda _e, i=i: ends.__setitem__(i, env.now))
    env.run()
    return ends


def test_processor_sharing_splits_cores_and_caps_each_task():
    # Two 1 s tasks on one core share it: both end at 2 s; on two cores, at 1 s.
    assert finish_times(1, [(1.0, 1.0), (1.0, 1.0)]) == pytest.approx([2.0, 2.0])
    assert finish_times(2, [(1.0, 1.0), (1.0, 1.0)]) == pytest.approx([1.0, 1.0])
    # One thread cannot use two cores: alone on two, a 1 s task still takes 1 s.
    assert finish_times(2, [(1.0, 1.0)]) == pytest.approx([1.0])
    # Three on two cores: 2/3 core each until the short one ends at 0.75 s (0.5 s of work),
    # then one core each: the others have 0.5 s left and end at 1.25 s.
    assert finish_times(2, [(0.5, 1), (1.0, 1), (1.0, 1)]) == pytest.approx([0.75, 1.25, 1.25])


def test_one_stage_gives_cores_over_its_cost():
    """Workers whose only cost is 0.5 s of CPU, on a machine of 2 cores: 4 episodes/s
    once there are workers enough to keep both cores busy."""
    model = costs({"run_cpu_s": 0.5})
    one = simulate(model, Hardware(shared_cores=2), Workload(MIX), workers=1)
    four = simulate(model, Hardware(shared_cores=2), Workload(MIX), workers=4)
    assert one.episodes_per_s == pytest.approx(2.0, rel=0.02)  # one thread: one core
    assert four.episodes_per_s == pytest.approx(4.0, rel=0.02)
    assert four.utilisation["the machine's CPU"] == pytest.approx(1.0, abs=0.01)


def test_two_cpu_bound_workers_on_one_core_give_one_core_rate():
    model = costs({"run_cpu_s": 0.25})
    one = simulate(model, Hardware(shared_cores=1), Workload(MIX), workers=1)
    two = simulate(model, Hardware(shared_cores=1), Workload(MIX), workers=2)
    assert one.episodes_per_s == pytest.approx(4.0, rel=0.02)
    assert two.episodes_per_s == pytest.approx(one.episodes_per_s, rel=0.02)


def test_the_bottleneck_flips_from_workers_to_postgres():
    """1 s of worker CPU and 20 ms of Postgres CPU an episode, Postgres on one core:
    workers bound it until 50 episodes/s, Postgres after."""
    model = costs({"run_cpu_s": 1.0, "finish_pg_s": 0.01}, claim_pg_s=0.01)
    hardware = Hardware(pg_cores=1, worker_host_cores=8, workers_per_host=8,
                        api_processes=4)
    workload = Workload(MIX, job_size=1, job_lock=False)
    few = simulate(model, hardware, workload, workers=8)
    many = simulate(model, hardware, workload, workers=200)
    assert few.bottleneck == "workers"
    assert few.episodes_per_s == pytest.approx(8.0, rel=0.05)
    assert many.bottleneck == "Postgres CPU"
    assert many.episodes_per_s == pytest.approx(50.0, rel=0.05)


def test_one_big_job_is_bound_by_its_row_lock():
    """Claim and write each hold the job's row 5 ms: one job completes at most 100
    episodes a second however many workers take them, unless the lock goes."""
    model = costs({"run_cpu_s": 1.0}, claim_wait_s=0.005, finish_wait_s=0.005)
    hardware = Hardware(worker_host_cores=16, workers_per_host=16, api_processes=4)
    locked = simulate(model, hardware, Workload(MIX, job_size=100_000), workers=300)
    free = simulate(model, hardware, Workload(MIX, job_size=100_000, job_lock=False),
                    workers=300)
    assert locked.bottleneck == "job-row lock"
    assert locked.episodes_per_s == pytest.approx(100.0, rel=0.05)
    assert free.episodes_per_s == pytest.approx(300 / 1.01, rel=0.05)


def test_a_finite_run_is_timed_to_the_poll_that_sees_it_done():
    """One worker, ten 0.1 s episodes, polls 50 ms apart: done at 1.0 s, seen by 1.05 s."""
    run = simulate_run(costs({"run_cpu_s": 0.1}), Hardware(shared_cores=2), workers=1,
                       jobs=[("svg", 10)])
    assert 1.0 <= run.seconds <= 1.05 + 1e-9
    assert run.episodes == 10


def test_a_full_wal_calls_for_the_artifact_store_and_then_scales():
    """1 MB of WAL per episode on 100 MB/s: 100 episodes/s at most, whatever the workers;
    without the PNGs in the rows (10 kB), the workers bound it again."""
    from scale_model import scale_rows

    model = costs({"run_cpu_s": 1.0, "run_cv": 0.3, "finish_wal_bytes": 1e6,
                   "finish_wal_noart_bytes": 1e4})
    hardware = Hardware(pg_wal_mb_s=100, worker_host_cores=16, workers_per_host=16,
                        api_processes=4)
    [row] = scale_rows(model, hardware, Workload(MIX, job_size=10, job_lock=False), [300])
    assert row["bottleneck"] == "Postgres WAL"
    assert row["episodes_per_s"] == pytest.approx(100.0, rel=0.05)
    [change] = row["changes"]
    assert change["change"].startswith("PNGs to an artifact store")
    assert change["bottleneck"] == "workers"
    assert change["episodes_per_s"] == pytest.approx(300.0, rel=0.05)
