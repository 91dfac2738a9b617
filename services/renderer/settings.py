"""The renderer's settings: ``RendererConfig``'s fields read from ``DESIGNRL_`` variables,
and ``DATABASE_URL``/``REDIS_URL`` as named (the only place the workers read them)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.config import RendererConfig


class RendererSettings(RendererConfig, BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore", populate_by_name=True)
