"""The renderer's settings, from the environment (the only place services read it)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints
from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.rollout.groups import GROUPS_STREAM

# A registered dataset's name: a plain word (the API's DATASET_NAME), never a path.
DatasetName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")]


class RendererSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore", populate_by_name=True)

    database_url: str = Field("sqlite:///designrl.db", validation_alias="DATABASE_URL")
    redis_url: str = Field("redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    queue: str = "episodes"
    groups_stream: str = GROUPS_STREAM
    episode_time_limit_s: float = 300.0  # then the episode is a recorded time-out
    max_attempts: int = 3  # deliveries of one episode before it is recorded as failed
    # An unacknowledged task comes back after this long if its worker vanished; longer
    # than any episode, or a slow episode would run twice.
    visibility_timeout_s: int = 900
    # How often a worker sweeps for such abandoned tasks.
    restore_interval_s: int = 10
    # Each worker process sets a key in Redis every heartbeat_s that lives heartbeat_ttl_s:
    # when a process dies its key expires and the API's reconciler takes its running
    # episode back (the API's DESIGNRL_LOST_WORKER_AFTER_S waits at least this long).
    heartbeat_s: float = Field(10.0, gt=0)
    heartbeat_ttl_s: float = Field(30.0, gt=0)
    # Postgres ends a worker's session that sits this long inside a transaction (a worker
    # sends a transaction's statements back to back): a worker whose host vanished while
    # it held its job's row lock would otherwise stall that job's other episodes, and the
    # API's reconciler, for as long as TCP takes to notice (hours).
    idle_in_transaction_s: float = Field(60.0, gt=0)
    metrics_port: int = 0  # serve /metrics here from the worker's main process; 0: off
    # Where ``vllm:`` policies sample (vLLM's OpenAI-compatible server); None: nowhere,
    # and such episodes are recorded as errors.
    inference_url: str | None = None
    inference_base_model: str = "policy"  # served name of the learner's starting weights
    inference_api_key: str = "EMPTY"
    inference_prompt_style: Literal["direct", "compact", "state"] = "compact"  # as trained
    # Dataset files by name (DESIGNRL_DATASETS, a JSON object: '{"svgbench":
    # "/data/svgbench/questions.json"}'): an episode of a dataset task reads the file its job
    # named; a name not registered here is a recorded error, and no path is ever taken from
    # a job. Give the API the same names (its DESIGNRL_DATASETS).
    datasets: dict[DatasetName, str] = Field(default_factory=dict)
    # Each worker process's Chromium pool for render-scored families (html, svg, webpage),
    # started on its first such episode: pages rendered at once (an html episode renders
    # the reference and the candidate together) and the time cap of one page.
    browser_pages: int = Field(2, ge=1, le=16)
    render_timeout_s: float = Field(15.0, gt=0)
