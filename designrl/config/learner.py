"""The learner service's config: what ``services.learner`` reads from
``DESIGNRL_LEARNER_`` variables (``DESIGNRL_LEARNER_GRPO__MAX_STEPS`` for a nested one)."""

from __future__ import annotations

from pydantic import Field

from designrl.config.common import AdapterConfig, MetricsConfig, RedisConfig
from designrl.config.training import GRPOSettings


class LearnerConfig(RedisConfig, AdapterConfig, MetricsConfig):
    """Scored groups in from the Redis stream, GRPO updates, policy-vN versions out."""

    consumer_group: str = Field("learner", min_length=1,
                                description="the Redis consumer group reading the stream")
    consumer: str = Field("learner-0", min_length=1, description=(
        "this learner's consumer name; keep it across restarts: the pending groups are its own"))
    claim_idle_s: float = Field(300.0, gt=0, description=(
        "take over groups another consumer has held this long"))
    model_dir: str = Field(min_length=1, description=(
        "the starting weights (a model directory, e.g. `designrl sft`'s output)"))
    output_dir: str = Field("out/learner", min_length=1, description="checkpoints and curves")
    inference_url: str | None = Field(None, description=(
        "a vLLM server to load each version into as a LoRA adapter (needs grpo.lora_r)"))
    keep_versions: int = Field(3, ge=1, description="versions left loaded in inference")
    grpo: GRPOSettings = Field(default_factory=GRPOSettings, description="how it trains")
