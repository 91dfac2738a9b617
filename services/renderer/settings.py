"""The renderer's settings: ``RendererConfig``'s fields read from ``DESIGNRL_`` variables,
``DATABASE_URL``/``REDIS_URL`` as named (the only place the workers read them), and below
them the file ``DESIGNRL_RENDERER_CONFIG`` names (``configs/renderer.toml``;
``services.config_file``)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from designrl.config import RendererConfig
from services.config_file import FileSettings


class RendererSettings(RendererConfig, FileSettings):
    config_variable = "DESIGNRL_RENDERER_CONFIG"
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore", populate_by_name=True)
