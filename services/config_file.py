"""A service's settings from a config file: ``configs/<component>.toml`` checked in, or
the operator's own copy of one.

Each service names the file in a variable of its own, so one process never reads another
component's file (the API builds the workers' Celery settings too):

* the API: ``DESIGNRL_API_CONFIG=configs/api.toml uvicorn services.api.main:app``
* a worker: ``DESIGNRL_RENDERER_CONFIG=configs/renderer.toml celery -A services.renderer.app worker``
* the learner: ``DESIGNRL_LEARNER_CONFIG=configs/learner.toml python -m services.learner.main``

What the file sets is a default the environment can still override, as in any
pydantic-settings app: an argument, then a variable (``DESIGNRL_QUEUE``, ``REDIS_URL``,
...), then the file, then the component's own default (``designrl.config``). The file is
checked against its component's model on its own: an unknown key or a bad value is an
error naming the file, the variable and the field, not a setting silently dropped.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from designrl.config import COMPONENTS


class ConfigFileError(ValueError):
    """The config file a service was given is missing or does not fit its component."""


def component_of(settings_cls: type[BaseSettings]) -> type[BaseModel]:
    """The ``designrl.config`` model a service's settings class inherits."""
    return next(base for base in settings_cls.__mro__ if base in COMPONENTS.values())


def read_config_file(path: str | Path, component: type[BaseModel], variable: str) -> dict:
    """The settings in the TOML file ``path``, checked against ``component`` (fields the
    file leaves out may come from the environment, so only they may be missing)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigFileError(f"{variable}={path}: cannot read it as TOML: {exc}") from None
    try:
        component.model_validate(data)
    except ValidationError as exc:
        wrong = [e for e in exc.errors() if e["type"] != "missing"]
        if wrong:
            raise ConfigFileError(f"{variable}={path} does not fit {component.__name__}: " + "; ".join(
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in wrong)) from None
    return data


class ConfigFileSource(PydanticBaseSettingsSource):
    """The file named by ``settings_cls.config_variable``, if that variable is set."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ reads the whole file at once

    def __call__(self) -> dict[str, Any]:
        variable = self.settings_cls.config_variable
        path = os.environ.get(variable)
        if not path:
            return {}
        return read_config_file(path, component_of(self.settings_cls), variable)


class FileSettings(BaseSettings):
    """Settings that also read a config file, below the environment and above the
    defaults. A subclass names the variable holding the file's path."""

    config_variable: ClassVar[str]

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings,
                                   dotenv_settings, file_secret_settings):
        return (init_settings, env_settings, dotenv_settings, file_secret_settings,
                ConfigFileSource(settings_cls))
