"""The learner's settings: ``LearnerConfig``'s fields read from ``DESIGNRL_LEARNER_``
variables (the only place the service reads them), and below them the file
``DESIGNRL_LEARNER_CONFIG`` names (``configs/learner.toml``; ``services.config_file``);
``REDIS_URL`` and the groups stream are named as the other services name them."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import SettingsConfigDict

from designrl.config import LearnerConfig
from services.config_file import FileSettings

_STREAM = LearnerConfig.model_fields["groups_stream"]


class LearnerSettings(LearnerConfig, FileSettings):
    config_variable = "DESIGNRL_LEARNER_CONFIG"
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_LEARNER_", env_nested_delimiter="__",
                                      extra="ignore", populate_by_name=True)

    # DESIGNRL_GROUPS_STREAM, as the API and workers read it (not DESIGNRL_LEARNER_...).
    groups_stream: str = Field(_STREAM.default, min_length=1, description=_STREAM.description,
                               validation_alias=AliasChoices("groups_stream",
                                                             "DESIGNRL_GROUPS_STREAM"))
