"""``LocalStack``: the compose stack's API and renderer workers (and, if asked, vLLM) as
local processes.

Where Docker is absent, ``designrl stack up`` runs the very commands the compose file runs
(``uvicorn services.api.main:app``, ``celery -A services.renderer.app worker``) against the
local Redis and Postgres. Everything it needs from outside comes in ``StackConfig``: the
database, the folders, the interpreter, where the services' code is imported from, the
directory they run in; relative paths are made absolute against that directory before
anything starts (``paths.resolve_paths``), and Redis, the database and the ports are checked
first (``preflight``). Each service's output goes to ``<log_dir>/<name>.log``, rotated,
and, when ``console`` is set, to it with the service's name in front (``service_log``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from designrl.config.common import GROUPS_STREAM, REDIS_URL, VERSION_KEY, QueueConfig
from designrl.config.inference import VLLMConfig
from services.stack import preflight
from services.stack.paths import resolve_paths
from services.stack.preflight import StackError, free_port
from services.stack.service_log import ServiceLog

__all__ = ["LocalStack", "StackConfig", "StackError", "free_port"]


@dataclass
class StackConfig:
    database_url: str
    redis_url: str = REDIS_URL
    workers: int = 2
    api_port: int = 0  # 0: a free port
    queue: str = QueueConfig.model_fields["queue"].default
    groups_stream: str = GROUPS_STREAM
    version_key: str = VERSION_KEY  # where the learner announces versions (workers read it)
    worker_metrics: bool = True  # each worker serves /metrics on its own port
    # The first worker's /metrics port, the next ones counting up; 0: free ports.
    metrics_port: int = 0
    env: dict[str, str] = field(default_factory=dict)  # more settings (DESIGNRL_...)
    # The environment the services inherit (PATH, HOME, ...): the caller's, which
    # ``designrl stack up`` passes on; its DESIGNRL_ variables are settings ``env`` overrides.
    base_env: dict[str, str] = field(default_factory=dict)
    # Each service's output goes to <log_dir>/<name>.log (at log_max_bytes it moves to
    # <name>.log.1, and so on, log_backups of them); None: a temporary folder, removed when
    # the stack stops. ``console``: each line also goes there, after the service's name.
    log_dir: str | None = None
    log_level: str = "info"
    log_max_bytes: int = 10 * 1024 * 1024
    log_backups: int = 3
    console: TextIO | None = None
    # The learner runs and adapter versions the API's Training page reads; None: the
    # DESIGNRL_TRAINING_RUNS_DIR / DESIGNRL_ADAPTER_STORE in env or base_env, else out
    # and <out>/adapters.
    out_dir: str | None = None
    adapter_store: str | None = None
    # The inference server `vllm:` policies sample on (DESIGNRL_INFERENCE_URL), or ``vllm``:
    # start vLLM too, under ``vllm_python`` (a path or a command; None: .venv-vllm/bin/python
    # in workdir where it exists, else this interpreter), and point the services at it.
    inference_url: str | None = None
    vllm: VLLMConfig | None = None
    vllm_python: str | None = None
    # Where relative paths are resolved and the services run; None: the working directory.
    workdir: str | None = None
    python: str = sys.executable  # the services' interpreter
    # Folders put first on the services' PYTHONPATH: where ``services`` is imported from.
    import_paths: Sequence[str] = ()


class LocalStack:
    def __init__(self, config: StackConfig) -> None:
        self.config = config = resolve_paths(config)
        self.processes: dict[str, subprocess.Popen] = {}
        self.service_logs: dict[str, ServiceLog] = {}
        self.api_url: str | None = None
        self.inference_url = config.inference_url
        self.worker_metrics: dict[str, str] = {}
        self._metrics_dir = tempfile.TemporaryDirectory(prefix="designrl-metrics-")
        self._temporary_logs = None if config.log_dir else \
            tempfile.TemporaryDirectory(prefix="designrl-logs-")
        self.log_dir = Path(config.log_dir or self._temporary_logs.name)
        if config.vllm is not None:
            self.inference_url = f"http://{config.vllm.host}:{config.vllm.port}"
        pythonpath = [*config.import_paths, config.base_env.get("PYTHONPATH")]
        self.env = {**config.base_env, "DATABASE_URL": config.database_url,
                    "REDIS_URL": config.redis_url, "DESIGNRL_QUEUE": config.queue,
                    "DESIGNRL_GROUPS_STREAM": config.groups_stream,
                    "DESIGNRL_VERSION_KEY": config.version_key,
                    "PYTHONPATH": os.pathsep.join(filter(None, pythonpath)),
                    **({"DESIGNRL_INFERENCE_URL": self.inference_url}
                       if self.inference_url else {}),
                    **config.env}

    @property
    def logs(self) -> dict[str, Path]:
        """Each service's log file, by name."""
        return {name: log.path for name, log in self.service_logs.items()}

    def __enter__(self) -> LocalStack:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def check(self) -> None:
        """Raise ``StackError`` unless Redis answers, the database opens, the ports that are
        fixed are free and vLLM's interpreter has vLLM: a clear reason before anything
        starts."""
        config = self.config
        if config.api_port:
            preflight.check_port(config.api_port, "the API's", "--port")
        if config.worker_metrics and config.metrics_port:
            for i in range(config.workers):
                preflight.check_port(config.metrics_port + i, f"worker{i + 1}'s metrics",
                                     "--metrics-port")
        if config.vllm is not None:
            preflight.check_port(config.vllm.port, "vLLM's", "--inference-port")
            preflight.check_vllm_python(config.vllm.python)
        preflight.check_redis(config.redis_url)
        preflight.check_database(config.database_url)

    def start(self) -> None:
        """Check Redis, the database and the ports; migrate the database, start vLLM (when
        asked), the API, then the workers; waits until they answer."""
        from designrl.store import upgrade

        self.check()
        upgrade(self.config.database_url)
        if self.config.vllm is not None:
            self.start_inference()
        self.start_api()
        for i in range(self.config.workers):
            self.start_worker(f"worker{i + 1}")
        # A worker's /metrics answers once its main process is up: the endpoints we
        # hand out then serve (a worker still booting would refuse them).
        for name, url in self.worker_metrics.items():
            self._wait_healthy(url, name, timeout=120.0)

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None
               ) -> subprocess.Popen:
        width = max(len(name), *map(len, self._names()))
        log = ServiceLog(self.log_dir / f"{name}.log", f"{name:<{width}} | ",
                         self.config.console, self.config.log_max_bytes,
                         self.config.log_backups)
        log.write(f"--- designrl stack {time.strftime('%Y-%m-%dT%H:%M:%S')}: "
                  f"{' '.join(args)}")
        process = subprocess.Popen(args, cwd=self.config.workdir, env=env or self.env,
                                   start_new_session=True, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        log.follow(process.stdout)
        self.processes[name] = process
        self.service_logs[name] = log
        return process

    def _names(self) -> list[str]:
        """The services ``start`` runs (their prefixes line up on the console)."""
        workers = [f"worker{i + 1}" for i in range(self.config.workers)]
        return ["api", *workers, *(["inference"] if self.config.vllm else [])]

    def log_tail(self, name: str, lines: int = 15) -> str:
        """The last ``lines`` lines of a service's log ('' when there is none)."""
        log = self.service_logs.get(name)
        return log.tail(lines) if log else ""

    def _python(self) -> list[str]:
        # -P: the working directory is not put on sys.path, so a folder of the caller's
        # named ``services`` cannot stand in for ours (import_paths say where ours is).
        return [self.config.python, "-P"]

    def start_inference(self) -> str:
        """vLLM's OpenAI-compatible server, under its own interpreter; waits for /health."""
        vllm = self.config.vllm
        self._spawn("inference", vllm.command(), {**self.config.base_env, **vllm.environment()})
        self._wait_healthy(f"{self.inference_url}/health", "inference", timeout=600.0)
        return self.inference_url

    def start_api(self) -> str:
        port = self.config.api_port or free_port()
        self._spawn("api", [*self._python(), "-m", "uvicorn", "services.api.main:app",
                            "--host", "127.0.0.1", "--port", str(port),
                            "--log-level", self.config.log_level.lower()],
                    {**self.env, "DESIGNRL_MIGRATE_ON_START": "false"})
        self.api_url = f"http://127.0.0.1:{port}"
        self._wait_healthy(f"{self.api_url}/healthz", "api")
        return self.api_url

    def start_worker(self, name: str, launcher: Sequence[str] = (),
                     env: dict[str, str] | None = None) -> subprocess.Popen:
        """A worker; ``launcher`` is a command it runs under (e.g. ``ip netns exec NS``,
        to run it on another host) and ``env`` overrides settings for it (the
        ``DATABASE_URL`` and ``REDIS_URL`` that host reaches them at)."""
        env = {**self.env, **(env or {})}
        if self.config.worker_metrics:
            port = self._metrics_port()
            folder = Path(self._metrics_dir.name) / name
            folder.mkdir(exist_ok=True)
            env |= {"DESIGNRL_METRICS_PORT": str(port), "PROMETHEUS_MULTIPROC_DIR": str(folder)}
            self.worker_metrics[name] = f"http://127.0.0.1:{port}/metrics"
        return self._spawn(name, [*launcher, *self._python(), "-m", "celery",
                                  "-A", "services.renderer.app", "worker",
                                  "--pool=prefork", "--concurrency=1",
                                  "-Q", self.config.queue, "-n", f"{name}@%h",
                                  "--without-gossip", "--without-mingle",
                                  f"--loglevel={self.config.log_level.upper()}"], env)

    def _metrics_port(self) -> int:
        if not self.config.metrics_port:
            return free_port()
        return self.config.metrics_port + len(self.worker_metrics)

    def _wait_healthy(self, url: str, name: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise StackError(self._exited(name))
            try:
                with urllib.request.urlopen(url, timeout=1) as reply:
                    if reply.status == 200 and self.processes[name].poll() is None:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise StackError(f"{name} did not answer {url} within {timeout:g}s (its log: "
                         f"{self.logs.get(name)})")

    def _exited(self, name: str) -> str:
        self.service_logs[name].close(timeout=2.0)  # its last words, before the tail is read
        tail = self.log_tail(name)
        return (f"{name} exited with {self.processes[name].returncode} (its log: "
                f"{self.logs.get(name)})" + (f":\n{tail}" if tail else ""))

    def exited(self) -> str | None:
        """Why the stack is down (a service that exited, with its log's tail); None: all run."""
        for name, process in self.processes.items():
            if process.poll() is not None:
                return self._exited(name)
        return None

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Signal a service's whole process group (a worker and its pool children)."""
        os.killpg(self.processes[name].pid, sig)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        for log in self.service_logs.values():
            log.close()
        self._metrics_dir.cleanup()
        if self._temporary_logs is not None:
            self._temporary_logs.cleanup()
