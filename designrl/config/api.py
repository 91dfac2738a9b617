"""The API's config: what ``services.api`` reads from ``DESIGNRL_`` variables."""

from __future__ import annotations

from pydantic import Field

from designrl.config.common import (
    AdapterConfig,
    DatasetsConfig,
    EpisodeLimits,
    InferenceClientConfig,
    QueueConfig,
    RedisConfig,
    ScoringConfig,
    StoreConfig,
)


class ApiConfig(StoreConfig, RedisConfig, QueueConfig, EpisodeLimits, DatasetsConfig,
                InferenceClientConfig, AdapterConfig, ScoringConfig):
    """The REST API, its limits and quotas, its reconciler and the web UI's sources.

    Quotas are per key (admin keys too): over one the answer is 429 with Retry-After; a
    Redis outage lifts the rate quotas rather than refusing everyone. Keep
    ``episode_time_limit_s`` and ``max_attempts`` equal to the workers' (the same
    variables). A job naming ``vllm:NAME`` is refused (422, listing the served models)
    unless ``inference_url`` serves NAME; a server that does not answer is a 503 with
    Retry-After; ``vllm:latest`` needs it to answer but no name check."""

    migrate_on_start: bool = Field(True, description=(
        "bring the schema to the newest migration at start-up"))
    max_body_bytes: int = Field(1_000_000, ge=1, description="largest request body (else 413)")
    max_prediction_set_bytes: int = Field(16 * 1024 * 1024, ge=1, description=(
        "largest prediction set body (POST /v1/prediction-sets)"))
    max_episodes_per_job: int = Field(20_000, ge=1, description=(
        "a bigger job is refused (422) for every key"))
    key_episodes_per_job: int = Field(5_000, ge=1, description=(
        "episodes in one job per key: a bigger job is refused; split it (Retry-After says "
        "when the key may submit again, but only a smaller job will pass)"))
    key_jobs_per_minute: int = Field(30, ge=1, description=(
        "jobs (and web UI runs) a key submits in a calendar minute"))
    key_event_streams: int = Field(8, ge=1, description=(
        "event streams (/v1/episodes/{id}/events) a key holds open at once"))
    reconcile_every_s: float = Field(30.0, ge=0, description=(
        "seconds between reconciler passes; 0 turns the reconciler off"))
    requeue_after_s: float = Field(900.0, gt=0, description=(
        "a queued episode enqueued this long ago lost its task and is queued again"))
    # The reconciler takes back running episodes (queues again, or fails after
    # max_attempts starts): one whose worker's heartbeat (the renderer's heartbeat_ttl_s)
    # is gone once it has run lost_worker_after_s, and any still running 90 s past
    # episode_time_limit_s (by then Celery killed it).
    lost_worker_after_s: float = Field(60.0, gt=0, description=(
        "seconds a running episode without a worker heartbeat waits before it is taken "
        "back (at least the workers' heartbeat_ttl_s)"))
    stream_poll_s: float = Field(0.25, gt=0, description=(
        "how often the web UI's live episode stream looks for new steps"))
    stream_max_s: float = Field(600.0, gt=0, description=(
        "how long one live stream stays open (the page reconnects after that)"))
    # Both read only: the learner's output folders and the adapter store's policy-vN folders.
    training_runs_dir: str = Field("out", min_length=1, description=(
        "the Training page's learner runs: subfolders holding curves.jsonl (the learner's "
        "output_dir, `designrl train --out`)"))
