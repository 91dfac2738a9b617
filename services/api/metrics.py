"""The API's Prometheus metrics (names prefixed ``designrl_``), multiprocess-safe.

With several server processes set ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's
multiprocess mode); ``/metrics`` then sums every process's samples. Queue depth and
episodes by status are read when scraped.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

JOBS_SUBMITTED = Counter("designrl_jobs_submitted", "Jobs accepted, by kind", ["kind"])
HTTP_REQUESTS = Counter("designrl_http_requests", "HTTP requests answered",
                        ["method", "route", "status"])
HTTP_SECONDS = Histogram("designrl_http_request_seconds", "Time to answer an HTTP request",
                         ["method", "route"])


class StoreCollector:
    """Gauges read at scrape time: queue depth (Redis) and episodes by status (database)."""

    def __init__(self, app) -> None:
        self.app = app

    def collect(self):
        state = self.app.state
        depth = GaugeMetricFamily("designrl_queue_depth", "Episode tasks waiting in the queue")
        try:
            depth.add_metric([], float(state.redis.llen(state.settings.queue)))
        except Exception:  # noqa: BLE001 - a scrape must not fail because Redis is down
            pass
        yield depth
        episodes = GaugeMetricFamily("designrl_episodes", "Episodes by status",
                                     labels=["status"])
        try:
            from designrl.store.reads import episode_status_counts

            with state.sessions() as session:
                for status_, count in episode_status_counts(session).items():
                    episodes.add_metric([status_], float(count))
        except Exception:  # noqa: BLE001
            pass
        yield episodes


def render(app) -> tuple[bytes, str]:
    """This process's metrics (or every process's, in multiprocess mode), then the gauges
    read from Redis and the database."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    scraped = CollectorRegistry()
    scraped.register(StoreCollector(app))
    return generate_latest(registry) + generate_latest(scraped), CONTENT_TYPE_LATEST
