"""Every checked-in example config loads through its component's model, and a mistake in
one is an error naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from designrl.config import COMPONENTS, load_config

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.toml"))


def test_there_is_an_example_per_component():
    assert sorted(p.stem for p in CONFIGS) == sorted(COMPONENTS)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_every_example_config_loads(path):
    config = load_config(path)
    assert isinstance(config, COMPONENTS[path.stem])
    assert config.model_fields_set  # the file set something, and it was read


def test_a_typo_or_a_bad_value_names_the_field(tmp_path):
    (tmp_path / "renderer.toml").write_text("heartbeat_s = 0\nbrowser_page = 2\n")
    with pytest.raises(ValidationError) as error:
        load_config(tmp_path / "renderer.toml")
    assert {e["loc"][0] for e in error.value.errors()} == {"heartbeat_s", "browser_page"}


def test_a_file_not_named_after_a_component_is_refused(tmp_path):
    (tmp_path / "workers.toml").write_text("")
    with pytest.raises(ValueError, match="name the file after one of: api, renderer"):
        load_config(tmp_path / "workers.toml")
