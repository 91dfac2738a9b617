"""Services started from a checked-in config file (``services.config_file``): each reads
the file its own variable names, below the environment and above the defaults, and a
file that does not fit its component is an error naming the field."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from db_support import REDIS_URL, postgres_schema
from stack_support import free_port

from designrl.config import load_config
from designrl.store import make_engine, make_sessionmaker
from designrl.store.keys import create_api_key
from services.api.settings import ApiSettings
from services.config_file import ConfigFileError
from services.learner.settings import LearnerSettings
from services.renderer.settings import RendererSettings

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs"
SERVICES = {"api": (ApiSettings, "DESIGNRL_API_CONFIG"),
            "renderer": (RendererSettings, "DESIGNRL_RENDERER_CONFIG"),
            "learner": (LearnerSettings, "DESIGNRL_LEARNER_CONFIG")}


def _bare_environment() -> dict[str, str]:
    """This process's environment without any service setting."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("DESIGNRL_") and k not in ("DATABASE_URL", "REDIS_URL")}


@pytest.fixture
def bare_env(monkeypatch):
    for name in set(os.environ) - set(_bare_environment()):
        monkeypatch.delenv(name)
    return monkeypatch


@pytest.mark.parametrize("component", SERVICES)
def test_a_service_reads_the_checked_in_config_its_variable_names(bare_env, component):
    settings_cls, variable = SERVICES[component]
    example = load_config(CONFIGS / f"{component}.toml")
    bare_env.setenv(variable, str(CONFIGS / f"{component}.toml"))
    settings = settings_cls()
    assert example.model_fields_set  # every value the file sets reaches the service
    assert {name: getattr(settings, name) for name in example.model_fields_set} == \
        {name: getattr(example, name) for name in example.model_fields_set}
    bare_env.delenv(variable)
    if component != "learner":  # model_dir has no default: the learner needs a file or a variable
        assert settings_cls().model_dump() == settings_cls.model_validate({}).model_dump()


def test_the_environment_overrides_the_file_and_the_file_the_defaults(bare_env, tmp_path):
    (tmp_path / "learner.toml").write_text(
        'redis_url = "redis://file:6379/0"\ngroups_stream = "file-stream"\n'
        'model_dir = "file-model"\n[grpo]\nbeta = 0.3\nlora_r = 8\n')
    bare_env.setenv("DESIGNRL_LEARNER_CONFIG", str(tmp_path / "learner.toml"))
    bare_env.setenv("REDIS_URL", "redis://env:6379/0")
    bare_env.setenv("DESIGNRL_GROUPS_STREAM", "env-stream")
    bare_env.setenv("DESIGNRL_LEARNER_GRPO__BETA", "0.5")
    settings = LearnerSettings()
    assert (settings.redis_url, settings.groups_stream, settings.model_dir) == \
        ("redis://env:6379/0", "env-stream", "file-model")
    assert (settings.grpo.beta, settings.grpo.lora_r, settings.grpo.max_steps) == \
        (0.5, 8, LearnerSettings.model_fields["grpo"].default_factory().max_steps)
    assert LearnerSettings(model_dir="given").model_dir == "given"  # an argument over both


def test_a_typo_a_bad_value_or_another_components_file_is_an_error(bare_env, tmp_path):
    (tmp_path / "api.toml").write_text("max_body_byte = 10\nreconcile_every_s = -1\n")
    bare_env.setenv("DESIGNRL_API_CONFIG", str(tmp_path / "api.toml"))
    with pytest.raises(ConfigFileError) as error:
        ApiSettings()
    message = str(error.value)
    assert "DESIGNRL_API_CONFIG=" in message and "does not fit ApiConfig" in message
    assert "max_body_byte: Extra inputs" in message and "reconcile_every_s:" in message
    bare_env.setenv("DESIGNRL_API_CONFIG", str(CONFIGS / "renderer.toml"))
    with pytest.raises(ConfigFileError, match="browser_pages: Extra inputs"):
        ApiSettings()
    bare_env.setenv("DESIGNRL_API_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigFileError, match="cannot read it as TOML"):
        ApiSettings()


def _edited(name: str, folder: Path, edits: dict[str, str]) -> Path:
    """A copy of ``configs/<name>`` with whole lines replaced (each must be there once)."""
    lines = (CONFIGS / name).read_text().splitlines()
    for key, value in edits.items():
        found = [i for i, line in enumerate(lines) if line.split("=")[0].strip() == key]
        assert len(found) == 1, (name, key)
        lines[found[0]] = f"{key} = {value}"
    (folder / name).write_text("\n".join(lines) + "\n")
    return folder / name


@pytest.mark.integration
def test_the_api_and_a_worker_started_from_config_files_alone_serve_a_job(tmp_path):
    """The API (``uvicorn services.api.main:app``) and a worker (``celery -A
    services.renderer.app worker``, no ``-Q``) are started as compose starts them, with no
    setting but their config file: they meet on the queue the files name, the API migrates
    the database its file names, and it reads its runs folder from its file."""
    queue = f"test-config-{uuid.uuid4().hex[:8]}"
    processes = []
    with postgres_schema() as url:
        shared = {"database_url": f'"{url}"', "redis_url": f'"{REDIS_URL}"',
                  "queue": f'"{queue}"', "groups_stream": f'"{queue}-groups"'}
        api_file = _edited("api.toml", tmp_path, shared | {
            "training_runs_dir": f'"{tmp_path / "runs"}"', "reconcile_every_s": "0"})
        worker_file = _edited("renderer.toml", tmp_path, shared | {"metrics_port": "0"})
        env = _bare_environment() | {"PYTHONPATH": str(ROOT)}
        port = free_port()
        try:
            processes.append(subprocess.Popen(
                [sys.executable, "-P", "-m", "uvicorn", "services.api.main:app", "--port",
                 str(port)], env=env | {"DESIGNRL_API_CONFIG": str(api_file)},
                cwd=tmp_path, start_new_session=True))
            processes.append(subprocess.Popen(
                [sys.executable, "-P", "-m", "celery", "-A", "services.renderer.app", "worker",
                 "--pool=solo", "--without-gossip", "--without-mingle", "--loglevel=WARNING"],
                env=env | {"DESIGNRL_RENDERER_CONFIG": str(worker_file)}, cwd=tmp_path,
                start_new_session=True))
            api = f"http://127.0.0.1:{port}"
            _wait_for(lambda: httpx.get(f"{api}/healthz", timeout=2).status_code == 200,
                      processes, "the API to answer")
            with make_sessionmaker(make_engine(url))() as session:  # migrated by the API
                key = create_api_key(session, "ops", "admin")
            with httpx.Client(base_url=api, headers={"X-API-Key": key}, timeout=30) as client:
                assert client.get("/v1/training/sources").json()["runs_dir"] == \
                    str(tmp_path / "runs")
                job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-flyer"],
                                                    "seeds": [1, 2], "policies": ["rule"]})
                assert job.status_code == 202, job.text
                _wait_for(lambda: client.get(f"/v1/jobs/{job.json()['id']}").json()["status"]
                          == "completed", processes, "the job to complete", timeout=120)
        finally:
            for process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


def _wait_for(ready, processes, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert all(p.poll() is None for p in processes), f"a service exited waiting for {what}"
        try:
            if ready():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")
