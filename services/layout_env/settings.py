"""The layout env server's settings: ``ScoringConfig``'s fields read from ``DESIGNRL_``
variables (``DESIGNRL_PURE_PYTHON``), as the API and the workers read theirs."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.config.common import ScoringConfig


class LayoutEnvSettings(ScoringConfig, BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore",
                                      populate_by_name=True)
