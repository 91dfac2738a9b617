"""The API's settings: ``ApiConfig``'s fields (their defaults, descriptions and checks)
read from ``DESIGNRL_`` variables, ``DATABASE_URL``/``REDIS_URL`` as named, and below them
the file ``DESIGNRL_API_CONFIG`` names (``configs/api.toml``; ``services.config_file``)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from designrl.config import ApiConfig
from designrl.config.common import DATASET_NAME, DatasetName  # noqa: F401 - for the API's schemas
from services.config_file import FileSettings


class ApiSettings(ApiConfig, FileSettings):
    config_variable = "DESIGNRL_API_CONFIG"
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore",
                                      populate_by_name=True)
