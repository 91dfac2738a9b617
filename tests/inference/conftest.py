"""Real vLLMs shared by every module here (about 60 s to start and 3 GB each: started once,
when a test first asks): ``server`` serves the tiny model as ``tiny``; ``svg_server`` the
tiny model fine-tuned on svg answers (``svg_model``) as ``tiny-svg``, with LoRA adapters
loaded at runtime, for the svg rollout and training tests."""

from __future__ import annotations

import pytest
from vllm_support import require_vllm, serve


@pytest.fixture(scope="package")
def server(tiny_model, tmp_path_factory):
    require_vllm()
    with serve(tiny_model, "tiny", tmp_path_factory) as running:
        yield running


@pytest.fixture(scope="package")
def svg_model(request) -> str:
    """``svg_sft_model`` (tests/conftest.py), where vLLM can serve it: the fine-tune is
    full, so it gets a vLLM of its own (a LoRA adapter on the raw tiny model cannot get
    there; ``svg_sft_support`` says why)."""
    require_vllm()
    return request.getfixturevalue("svg_sft_model")


@pytest.fixture(scope="package")
def svg_server(svg_model, tmp_path_factory):
    with serve(svg_model, "tiny-svg", tmp_path_factory) as running:
        yield running
