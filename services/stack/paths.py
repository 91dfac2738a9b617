"""Every path ``stack up`` hands its services made absolute before anything starts:
relative ones are the caller's (against its working directory), since the services run
elsewhere and would otherwise open a different SQLite file or folder."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.stack.launcher import StackConfig


def absolute_database_url(url: str, base: Path) -> str:
    """A SQLite URL with a relative file made absolute against ``base``; other URLs as given."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") \
            or parsed.database.startswith("file:"):
        return url
    path = Path(parsed.database).expanduser()
    if path.is_absolute():
        return url
    return parsed.set(database=str((base / path).resolve())).render_as_string(
        hide_password=False)


def resolve_paths(config: StackConfig) -> StackConfig:
    """``config`` with every path absolute (relative ones against ``config.workdir``, by
    default the working directory): the database file, the output, adapter and log folders,
    the registered datasets and vLLM's interpreter and model folder; the folders also set in
    ``env`` for the services. Raises ``VLLMNotFound`` for a vLLM interpreter that does not
    exist."""
    base = Path(config.workdir or Path.cwd()).resolve()

    def absolute(path: str | os.PathLike) -> str:
        return str((base / Path(path).expanduser()).resolve())

    given = {**config.base_env, **config.env}
    env = {**config.env}
    out = absolute(config.out_dir or given.get("DESIGNRL_TRAINING_RUNS_DIR") or "out")
    adapters = absolute(config.adapter_store or given.get("DESIGNRL_ADAPTER_STORE")
                        or Path(out) / "adapters")
    env |= {"DESIGNRL_TRAINING_RUNS_DIR": out, "DESIGNRL_ADAPTER_STORE": adapters}
    datasets = given.get("DESIGNRL_DATASETS")
    if datasets:
        try:
            named = json.loads(datasets)
        except ValueError:
            named = None  # the services report it as they read their settings
        if isinstance(named, dict):
            env["DESIGNRL_DATASETS"] = json.dumps(
                {k: absolute(v) if isinstance(v, str) else v for k, v in named.items()})
    return replace(config, database_url=absolute_database_url(config.database_url, base),
                   out_dir=out, adapter_store=adapters, env=env, workdir=str(base),
                   log_dir=absolute(config.log_dir) if config.log_dir else None,
                   **_absolute_vllm(config, base))


def _absolute_vllm(config: StackConfig, base: Path) -> dict:
    """vLLM's config with its interpreter found (``config.vllm_python``) and absolute, and a
    model folder given relatively made absolute (a hub id stays as it is)."""
    from designrl.inference.vllm_server import find_vllm_python

    if config.vllm is None:
        return {}
    python = find_vllm_python(config.vllm_python, base, config.base_env.get("PATH"))
    model = base / Path(config.vllm.model).expanduser()
    return {"vllm_python": python, "vllm": config.vllm.model_copy(update={
        "python": python, "model": str(model.resolve()) if model.exists() else config.vllm.model})}
