"""Settings that several components share, each declared once.

The API, the renderer workers, the learner and the ``designrl`` command inherit these
fields (default, description and validation) rather than repeating them, so two
components cannot drift apart on, say, the groups stream's name or an episode's time
limit. ``DATABASE_URL`` and ``REDIS_URL`` are accepted as the fields' names too: the
services read those conventional variables.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, StringConstraints

EMBEDDED_URL = "sqlite:///designrl.db"  # the embedded store: a SQLite file here
REDIS_URL = "redis://127.0.0.1:6379/0"  # the local Redis
GROUPS_STREAM = "designrl:groups"  # the Redis stream of scored groups
VERSION_KEY = "designrl:policy_version"  # the Redis key of the newest policy version

# A registered dataset's name: a plain word, so no request can pass for a path.
DATASET_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}"
DatasetName = Annotated[str, StringConstraints(pattern=f"^{DATASET_NAME}$")]


class Section(BaseModel):
    """A config section: an unknown key is an error naming it, not silently ignored."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StoreConfig(Section):
    database_url: str = Field(
        EMBEDDED_URL, min_length=1,
        validation_alias=AliasChoices("database_url", "DATABASE_URL"),
        description="SQLAlchemy URL of the results store: postgresql+psycopg://USER@HOST/DB "
                    "in the stack, or a SQLite file (relative to the working directory)")


class RedisConfig(Section):
    redis_url: str = Field(
        REDIS_URL, min_length=1,
        validation_alias=AliasChoices("redis_url", "REDIS_URL"),
        description="Redis URL: the Celery broker, the scored-groups stream, quotas and the "
                    "newest policy version")
    groups_stream: str = Field(GROUPS_STREAM, min_length=1,
                               description="the Redis stream scored groups go to (the "
                                           "learner reads it)")


class QueueConfig(Section):
    queue: str = Field("episodes", min_length=1,
                       description="the Celery queue the renderer workers take episodes from")


class EpisodeLimits(Section):
    """Both the workers (which enforce them) and the API's reconciler (which takes back
    what they lost) read these: one value for both."""

    episode_time_limit_s: float = Field(300.0, gt=0, description=(
        "seconds one episode may run; then it is a recorded time-out"))
    max_attempts: int = Field(3, ge=1, description=(
        "deliveries (starts) of one episode before it is recorded as failed"))


class DatasetsConfig(Section):
    datasets: dict[DatasetName, str] = Field(default_factory=dict, description=(
        "dataset files the operator registered, by name, e.g. {\"svgbench\": "
        "\"/data/svgbench/questions.json\"}; a job names one as `dataset` for its dataset "
        "tasks, and clients never pass a path. Give the API and the workers the same names"))


class InferenceClientConfig(Section):
    inference_url: str | None = Field(None, description=(
        "the OpenAI-compatible (vLLM) server `vllm:` policies sample on; none: `vllm:` jobs "
        "are refused by the API and recorded as errors by workers"))
    inference_api_key: str = Field("EMPTY", description="the inference server's API key")


class VersionKeyConfig(Section):
    """The learner announces each policy version here; the workers' ``vllm:latest``
    episodes and the API's Training page read it: one key for all of them."""

    version_key: str = Field(VERSION_KEY, min_length=1, description=(
        "the Redis key where the learner announces its newest policy version"))


class AdapterConfig(VersionKeyConfig):
    adapter_store: str = Field("out/adapters", min_length=1, description=(
        "the folder of policy-vN adapter versions the learner writes and inference loads"))


class ScoringConfig(Section):
    pure_python: bool = Field(False, description=(
        "score layouts in pure Python even where the C extension is built (identical "
        "results, slower): for comparisons and debugging"))


class MetricsConfig(Section):
    metrics_port: int = Field(0, ge=0, le=65535, description=(
        "serve Prometheus /metrics on this port; 0: off"))


# The layout prompt a model is asked in (designrl.tasks.layout.prompt writes each).
PromptStyle = Literal["direct", "compact", "state"]
