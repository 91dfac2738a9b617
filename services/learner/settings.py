"""The learner's settings, from the environment (the only place the service reads it)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.learner.grpo import GRPOSettings
from designrl.learner.versions import VERSION_KEY
from designrl.rollout.groups import GROUPS_STREAM


class LearnerSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_LEARNER_", env_nested_delimiter="__",
                                      extra="ignore", populate_by_name=True)

    redis_url: str = Field("redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    groups_stream: str = Field(GROUPS_STREAM, validation_alias="DESIGNRL_GROUPS_STREAM")
    consumer_group: str = "learner"
    consumer: str = "learner-0"  # keep it across restarts: the pending groups are its own
    claim_idle_s: float = 300.0  # take over groups another consumer has held this long
    model_dir: str  # the starting weights (e.g. the SFT model)
    output_dir: str = "out/learner"  # checkpoints and curves
    adapter_store: str = "out/adapters"  # policy-vN folders that inference loads
    inference_url: str | None = None  # a vLLM server to load each version into (LoRA)
    keep_versions: int = 3  # versions left loaded in inference
    version_key: str = VERSION_KEY  # where workers read the newest version
    metrics_port: int = 0  # serve /metrics here; 0: off
    grpo: GRPOSettings = GRPOSettings()
