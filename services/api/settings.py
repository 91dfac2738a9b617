"""The API's settings: ``ApiConfig``'s fields (their defaults, descriptions and checks)
read from ``DESIGNRL_`` variables, and ``DATABASE_URL``/``REDIS_URL`` as named."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.config import ApiConfig
from designrl.config.common import DATASET_NAME, DatasetName  # noqa: F401 - for the API's schemas


class ApiSettings(ApiConfig, BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore",
                                      populate_by_name=True)
