"""Every setting says what it is: each field of each component's config has a
description (the CLI's help and the example configs read them)."""

from __future__ import annotations

from pydantic import BaseModel

from designrl.config import COMPONENTS


def _undocumented(model: type[BaseModel], prefix: str = "") -> list[str]:
    missing = []
    for name, field in model.model_fields.items():
        if not field.description:
            missing.append(prefix + name)
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            missing += _undocumented(field.annotation, f"{prefix}{name}.")
    return missing


def test_every_field_of_every_component_has_a_description():
    assert {name: _undocumented(model) for name, model in COMPONENTS.items()} == \
        {name: [] for name in COMPONENTS}
