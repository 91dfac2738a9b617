"""Which interpreter runs vLLM (``designrl inference serve --python``, ``stack up
--vllm-python``): always an absolute path, found the way a user means it, or a reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from designrl.inference.vllm_server import (
    VLLMNotFound,
    check_vllm_python,
    find_vllm_python,
)


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_a_relative_path_is_the_callers_and_comes_back_absolute(tmp_path):
    python = executable(tmp_path / "env" / "bin" / "python")
    assert find_vllm_python("env/bin/python", tmp_path) == str(python)


def test_by_default_the_local_vllm_venv_else_this_interpreter(tmp_path):
    assert find_vllm_python(None, tmp_path) == sys.executable
    local = executable(tmp_path / ".venv-vllm" / "bin" / "python")
    assert find_vllm_python(None, tmp_path) == str(local)


def test_a_bare_name_is_looked_up_on_the_path_given(tmp_path):
    found = executable(tmp_path / "bin" / "vllm-python")
    assert find_vllm_python("vllm-python", tmp_path / "elsewhere",
                            search_path=str(tmp_path / "bin")) == str(found)
    with pytest.raises(VLLMNotFound, match="no interpreter 'vllm-python' on PATH"):
        find_vllm_python("vllm-python", tmp_path, search_path=str(tmp_path / "nothing"))


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(VLLMNotFound, match=f"{tmp_path / 'venv' / 'bin' / 'python'} does not"):
        find_vllm_python("venv/bin/python", tmp_path)


def test_an_interpreter_without_vllm_is_named(tmp_path):
    if check_would_pass(sys.executable):
        pytest.skip("vLLM is installed for this interpreter")
    with pytest.raises(VLLMNotFound, match="vLLM is not installed for"):
        check_vllm_python(sys.executable)
    with pytest.raises(VLLMNotFound, match="does not run"):
        check_vllm_python(str(tmp_path / "missing"))


def check_would_pass(python: str) -> bool:
    import importlib.util

    return python == sys.executable and importlib.util.find_spec("vllm") is not None
