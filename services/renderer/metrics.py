"""The workers' Prometheus metrics, multiprocess-safe (names prefixed ``designrl_``).

Pool children record into ``PROMETHEUS_MULTIPROC_DIR``; the worker's main process
serves the sum on ``metrics_port`` (``/metrics``). Without that directory each
process keeps its own, which is enough for a single-process worker.
"""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry, Counter, Histogram, multiprocess
from prometheus_client import start_http_server as _start_http_server

from designrl.rollout.stored import Ran

EPISODES = Counter("designrl_episodes_finished", "Episodes written by workers",
                   ["family", "outcome"])
DELIVERIES = Counter("designrl_episode_deliveries", "Episode task deliveries, by what they did",
                     ["result"])
EPISODE_SECONDS = Histogram("designrl_episode_seconds", "Time to run one episode", ["family"],
                            buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300))
RENDER_SECONDS = Histogram("designrl_render_seconds", "Browser time per rendered page",
                           ["family"], buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10))
REWARD = Histogram("designrl_episode_reward", "Episode reward (total)", ["family"],
                   buckets=(-1, -0.5, -0.25, -0.1, 0, 0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.5))
VALID_ACTION_RATE = Histogram("designrl_valid_action_rate", "Share of an episode's steps "
                              "whose action was valid", ["family"],
                              buckets=(0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1))


def observe(ran: Ran) -> None:
    DELIVERIES.labels(ran.outcome).inc()
    if ran.outcome != "done" or ran.record is None or ran.spec is None:
        return
    family, record = ran.spec.family, ran.record
    EPISODES.labels(family, record.outcome).inc()
    if record.seconds is not None:
        EPISODE_SECONDS.labels(family).observe(record.seconds)
    for seconds in record.summary.get("render_seconds", []):
        RENDER_SECONDS.labels(family).observe(seconds)
    if record.total_reward is not None:
        REWARD.labels(family).observe(record.total_reward)
    if record.valid_action_rate is not None:
        VALID_ACTION_RATE.labels(family).observe(record.valid_action_rate)


def serve(port: int) -> None:
    """Serve /metrics from this process: every pool child's samples in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        _start_http_server(port, registry=registry)
    else:
        _start_http_server(port)


def process_exited(pid: int) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
