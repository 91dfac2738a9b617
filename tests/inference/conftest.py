"""One real vLLM serving the tiny model as ``tiny``, shared by every module here (about
60 s to start and 3 GB: started once)."""

from __future__ import annotations

import pytest
from vllm_support import require_vllm, serve


@pytest.fixture(scope="package")
def server(tiny_model, tmp_path_factory):
    require_vllm()
    with serve(tiny_model, "tiny", tmp_path_factory) as running:
        yield running
