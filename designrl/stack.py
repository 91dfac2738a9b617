"""``LocalStack``: the compose stack's API and renderer workers as local processes.

Where Docker is absent, ``designrl stack up`` runs the very commands the compose
file runs (``uvicorn services.api.main:app``, ``celery -A services.renderer.app
worker``) against the local Redis and Postgres. The services are started as
processes by module name, never imported: the library does not depend on them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class StackConfig:
    database_url: str
    redis_url: str = "redis://127.0.0.1:6379/0"
    workers: int = 2
    api_port: int = 0  # 0: a free port
    queue: str = "episodes"
    groups_stream: str = "designrl:groups"
    worker_metrics: bool = True  # each worker serves /metrics on its own port
    env: dict[str, str] = field(default_factory=dict)  # more settings (DESIGNRL_...)


class LocalStack:
    def __init__(self, config: StackConfig) -> None:
        self.config = config
        self.processes: dict[str, subprocess.Popen] = {}
        self.api_url: str | None = None
        self.worker_metrics: dict[str, str] = {}
        self._metrics_dir = tempfile.TemporaryDirectory(prefix="designrl-metrics-")
        self.env = {**os.environ, "DATABASE_URL": config.database_url,
                    "REDIS_URL": config.redis_url, "DESIGNRL_QUEUE": config.queue,
                    "DESIGNRL_GROUPS_STREAM": config.groups_stream,
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                                os.environ.get("PYTHONPATH")])),
                    **config.env}

    def __enter__(self) -> LocalStack:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def start(self) -> None:
        """Migrate the database, start the API, then the workers; waits until they answer."""
        from designrl.store import upgrade

        upgrade(self.config.database_url)
        self.start_api()
        for i in range(self.config.workers):
            self.start_worker(f"worker{i + 1}")
        # A worker's /metrics answers once its main process is up: the endpoints we
        # hand out then serve (a worker still booting would refuse them).
        for name, url in self.worker_metrics.items():
            self._wait_healthy(url, name, timeout=120.0)

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None
               ) -> subprocess.Popen:
        process = subprocess.Popen(args, cwd=ROOT, env=env or self.env, start_new_session=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes[name] = process
        return process

    def start_api(self) -> str:
        port = self.config.api_port or free_port()
        self._spawn("api", [sys.executable, "-m", "uvicorn", "services.api.main:app",
                            "--host", "127.0.0.1", "--port", str(port),
                            "--log-level", "warning"],
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
            port = free_port()
            folder = Path(self._metrics_dir.name) / name
            folder.mkdir(exist_ok=True)
            env |= {"DESIGNRL_METRICS_PORT": str(port), "PROMETHEUS_MULTIPROC_DIR": str(folder)}
            self.worker_metrics[name] = f"http://127.0.0.1:{port}/metrics"
        return self._spawn(name, [*launcher, sys.executable, "-m", "celery",
                                  "-A", "services.renderer.app", "worker",
                                  "--pool=prefork", "--concurrency=1",
                                  "-Q", self.config.queue, "-n", f"{name}@%h",
                                  "--without-gossip", "--without-mingle",
                                  "--loglevel=WARNING"], env)

    def _wait_healthy(self, url: str, name: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise RuntimeError(f"{name} exited with {self.processes[name].returncode}")
            try:
                with urllib.request.urlopen(url, timeout=1) as reply:
                    if reply.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{name} did not answer {url} within {timeout:g}s")

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
        self._metrics_dir.cleanup()
