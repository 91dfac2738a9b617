"""The API's settings, from the environment."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints
from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.learner.versions import VERSION_KEY
from designrl.rollout.groups import GROUPS_STREAM

# A registered dataset's name: a plain word, so no request can pass for a path.
DATASET_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}"
DatasetName = Annotated[str, StringConstraints(pattern=f"^{DATASET_NAME}$")]


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore",
                                      populate_by_name=True)

    database_url: str = Field("sqlite:///designrl.db", validation_alias="DATABASE_URL")
    redis_url: str = Field("redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    queue: str = "episodes"  # the renderer workers' queue
    groups_stream: str = GROUPS_STREAM
    migrate_on_start: bool = True  # bring the schema to the newest migration at start-up
    max_body_bytes: int = 1_000_000
    # A prediction set's request body (POST /v1/prediction-sets) may be this big instead.
    max_prediction_set_bytes: int = 16 * 1024 * 1024
    max_episodes_per_job: int = 20_000  # a bigger job is refused (422) for every key
    # Per-key quotas (admin keys too). Over one the answer is 429 with Retry-After; a
    # Redis outage lifts the rate quotas rather than refusing everyone.
    # - episodes in one job: a bigger job is refused; split it (Retry-After says when the
    #   key may submit again, but only a smaller job will pass).
    key_episodes_per_job: int = Field(5_000, ge=1)
    # - jobs (and web UI runs) submitted per key in a calendar minute.
    key_jobs_per_minute: int = Field(30, ge=1)
    # - event streams (/v1/episodes/{id}/events) a key holds open at once.
    key_event_streams: int = Field(8, ge=1)
    reconcile_every_s: float = 30.0  # 0 turns the reconciler off
    requeue_after_s: float = 900.0  # a queued episode enqueued this long ago lost its task
    # Running episodes the reconciler takes back (queues again, or fails after max_attempts
    # starts): one whose worker's heartbeat (the renderer's DESIGNRL_HEARTBEAT_TTL_S) is gone
    # once it has run lost_worker_after_s, and any still running 90 s past the workers'
    # time limit (by then Celery killed it). Keep max_attempts and episode_time_limit_s
    # equal to the renderer's (the same DESIGNRL_ variables).
    lost_worker_after_s: float = Field(60.0, gt=0)
    episode_time_limit_s: float = Field(300.0, gt=0)
    max_attempts: int = Field(3, ge=1)
    # Dataset files the operator registered, by name (DESIGNRL_DATASETS, a JSON object:
    # '{"svgbench": "/data/svgbench/questions.json"}'). A job names one as ``dataset``
    # for its dataset tasks (svgbench, design2code, websight, or webpage-prompts from a
    # file); clients never pass a path. The API reads them to check item ids and resolve
    # item ranges; the workers need the same names (the renderer's DESIGNRL_DATASETS).
    datasets: dict[DatasetName, str] = Field(default_factory=dict)
    # The inference server the workers' ``vllm:`` policies sample on (the renderer's
    # DESIGNRL_INFERENCE_URL): the catalog lists the models it serves, and a job naming
    # ``vllm:NAME`` is refused (422, listing the served models) unless NAME is one of them.
    # None: ``vllm:`` jobs are refused (422: nothing could run them); a server that does
    # not answer: 503 with Retry-After (nothing is stored). ``vllm:latest`` needs the
    # server to answer but no name check (the workers resolve it when an episode starts).
    inference_url: str | None = None
    inference_api_key: str = "EMPTY"
    # The web UI's live episode stream: how often it looks for new steps, and for how long
    # one stream stays open (the page reconnects after that).
    stream_poll_s: float = 0.25
    stream_max_s: float = 600.0
    # The Training page reads learner runs (each a subdirectory holding curves.jsonl: the
    # learner service's output_dir, `designrl train --out`) and the adapter store's policy-vN
    # folders; both are read only.
    training_runs_dir: str = "out"
    adapter_store: str = "out/adapters"
    version_key: str = VERSION_KEY  # where the learner announces its newest version
