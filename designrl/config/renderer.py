"""The renderer workers' config: what ``services.renderer`` reads from ``DESIGNRL_``
variables."""

from __future__ import annotations

from pydantic import Field

from designrl.config.common import (
    DatasetsConfig,
    EpisodeLimits,
    InferenceClientConfig,
    MetricsConfig,
    PromptStyle,
    QueueConfig,
    RedisConfig,
    ScoringConfig,
    StoreConfig,
    VersionKeyConfig,
)


class RendererConfig(StoreConfig, RedisConfig, QueueConfig, EpisodeLimits, DatasetsConfig,
                     InferenceClientConfig, VersionKeyConfig, MetricsConfig, ScoringConfig):
    """A Celery worker: its queue, limits, heartbeat, inference client and browser pool.
    ``metrics_port`` is served from the worker's main process; a ``vllm:latest`` episode
    samples the version announced at ``version_key`` (the learner's)."""

    # An unacknowledged task comes back after this long if its worker vanished; longer
    # than any episode, or a slow episode would run twice.
    visibility_timeout_s: int = Field(900, ge=1, description=(
        "seconds before a vanished worker's unacknowledged task is delivered again "
        "(longer than episode_time_limit_s)"))
    restore_interval_s: int = Field(10, ge=1, description=(
        "seconds between a worker's sweeps for such abandoned tasks"))
    # A Redis restarted at another address (a container's) leaves the old one silent: without
    # a limit a connection attempt there waits for TCP to give up (about 2 min), holding the
    # worker's main loop (no episode taken) or its heartbeat (a live worker looks dead).
    redis_timeout_s: float = Field(5.0, gt=0, description=(
        "seconds a worker waits to connect to Redis or for its reply (the broker's "
        "connections and the worker's own, heartbeat included)"))
    # When a process dies its key expires and the API's reconciler takes its running
    # episode back (the API's lost_worker_after_s waits at least this long).
    heartbeat_s: float = Field(10.0, gt=0, description=(
        "seconds between a worker process's heartbeats (a Redis key)"))
    heartbeat_ttl_s: float = Field(30.0, gt=0, description="how long one heartbeat lives")
    # A worker sends a transaction's statements back to back: one whose host vanished
    # while it held its job's row lock would otherwise stall that job's other episodes,
    # and the API's reconciler, for as long as TCP takes to notice (hours).
    idle_in_transaction_s: float = Field(60.0, gt=0, description=(
        "Postgres ends a worker's session that sits this long inside a transaction"))
    inference_base_model: str = Field("policy", min_length=1, description=(
        "served name of the learner's starting weights"))
    inference_prompt_style: PromptStyle = Field(
        "compact", description="the layout prompt `vllm:` policies ask in (as trained)")
    # Each worker process's Chromium pool for the render-scored families, started on its
    # first such episode (an html episode renders the reference and the candidate together).
    browser_pages: int = Field(2, ge=1, le=16, description="pages one worker renders at once")
    render_timeout_s: float = Field(15.0, gt=0, description="time cap of one page's render")
