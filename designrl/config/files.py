"""Config files: a TOML file per component, validated by that component's model.

A file's name says its component (``configs/api.toml`` is an ``ApiConfig``), so a typo
in a key or a value out of range is an error naming the field, not a setting silently
dropped."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel

from designrl.config.api import ApiConfig
from designrl.config.inference import VLLMConfig
from designrl.config.learner import LearnerConfig
from designrl.config.renderer import RendererConfig
from designrl.config.training import SFTWorkflowConfig, TrainConfig

COMPONENTS: dict[str, type[BaseModel]] = {
    "api": ApiConfig, "renderer": RendererConfig, "learner": LearnerConfig,
    "inference": VLLMConfig, "train": TrainConfig, "sft": SFTWorkflowConfig,
}


def load_config(path: str | Path, model: type[BaseModel] | None = None) -> BaseModel:
    """The config in the TOML file ``path``, as ``model`` (by default the component its
    name says: ``api.toml``, ``renderer.toml``, ...)."""
    path = Path(path)
    if model is None:
        try:
            model = COMPONENTS[path.stem]
        except KeyError:
            raise ValueError(f"{path.name}: no component is named {path.stem!r}; name the "
                             f"file after one of: {', '.join(COMPONENTS)}") from None
    with path.open("rb") as f:
        return model.model_validate(tomllib.load(f))
