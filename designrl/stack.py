"""``LocalStack``: the compose stack's API and renderer workers as local processes.

Where Docker is absent, ``designrl stack up`` runs the very commands the compose
file runs (``uvicorn services.api.main:app``, ``celery -A services.renderer.app
worker``) against the local Redis and Postgres. The services are started as
processes by module name, never imported: the library does not depend on them.
"""

from __future__ import annotations

import json
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

from designrl.config.common import GROUPS_STREAM, REDIS_URL, QueueConfig

ROOT = Path(__file__).resolve().parents[1]


class StackError(RuntimeError):
    """A service cannot start: Redis or the database unreachable, a port busy, a service
    that exited or never answered (the message says which, and where its log is)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class StackConfig:
    database_url: str
    redis_url: str = REDIS_URL
    workers: int = 2
    api_port: int = 0  # 0: a free port
    queue: str = QueueConfig.model_fields["queue"].default
    groups_stream: str = GROUPS_STREAM
    worker_metrics: bool = True  # each worker serves /metrics on its own port
    env: dict[str, str] = field(default_factory=dict)  # more settings (DESIGNRL_...)
    # The environment the services inherit (PATH, HOME, ...): the caller's, which
    # ``designrl stack up`` passes on; its DESIGNRL_ variables are settings ``env`` overrides.
    base_env: dict[str, str] = field(default_factory=dict)
    # Each service's output goes to <log_dir>/<name>.log; None: a temporary folder,
    # removed when the stack stops.
    log_dir: str | None = None
    log_level: str = "info"
    # The learner runs and adapter versions the API's Training page reads; None: the
    # DESIGNRL_TRAINING_RUNS_DIR / DESIGNRL_ADAPTER_STORE in env or base_env, else out
    # and <out>/adapters.
    out_dir: str | None = None
    adapter_store: str | None = None


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


def resolve_paths(config: StackConfig, base: Path | None = None) -> StackConfig:
    """``config`` with every path absolute (relative ones against ``base``, by default the
    working directory), the folders' paths also set in ``env`` for the services."""
    from dataclasses import replace

    base = Path.cwd() if base is None else Path(base)

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
                   out_dir=out, adapter_store=adapters, env=env,
                   log_dir=absolute(config.log_dir) if config.log_dir else None)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


class LocalStack:
    def __init__(self, config: StackConfig) -> None:
        self.config = config = resolve_paths(config)
        self.processes: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}
        self.api_url: str | None = None
        self.worker_metrics: dict[str, str] = {}
        self._metrics_dir = tempfile.TemporaryDirectory(prefix="designrl-metrics-")
        self._temporary_logs = None if config.log_dir else \
            tempfile.TemporaryDirectory(prefix="designrl-logs-")
        self.log_dir = Path(config.log_dir or self._temporary_logs.name)
        self.env = {**config.base_env, "DATABASE_URL": config.database_url,
                    "REDIS_URL": config.redis_url, "DESIGNRL_QUEUE": config.queue,
                    "DESIGNRL_GROUPS_STREAM": config.groups_stream,
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                                config.base_env.get("PYTHONPATH")])),
                    **config.env}

    def __enter__(self) -> LocalStack:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def check(self) -> None:
        """Raise ``StackError`` unless Redis answers, the database opens and the API port
        (when one is fixed) is free: a clear reason before anything starts."""
        from redis import Redis
        from sqlalchemy import text
        from sqlalchemy.engine import make_url

        from designrl.store import make_engine

        port = self.config.api_port
        if port and not port_is_free(port):
            raise StackError(f"port {port} (the API's) is busy: another process listens on "
                             "it; stop it or choose another --port")
        redis_url = self.config.redis_url
        try:
            client = Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3)
            try:
                client.ping()
            finally:
                client.close()
        except Exception as exc:  # noqa: BLE001 - any failure means "unreachable"
            raise StackError(f"Redis is unreachable at {_hide_password(redis_url)}: {exc}") \
                from exc
        url = self.config.database_url
        if make_url(url).get_backend_name() == "sqlite":
            database = make_url(url).database
            if database and database != ":memory:" and not database.startswith("file:") \
                    and not Path(database).parent.is_dir():
                raise StackError(f"the database's folder {Path(database).parent} does not "
                                 "exist")
        engine = make_engine(url)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as exc:  # noqa: BLE001 - any failure means "unreachable"
            raise StackError(f"the database at {_hide_password(url)} cannot be opened: "
                             f"{str(exc).splitlines()[0]}") from exc
        finally:
            engine.dispose()

    def start(self) -> None:
        """Check Redis, the database and the port; migrate the database, start the API, then
        the workers; waits until they answer."""
        from designrl.store import upgrade

        self.check()
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
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_dir / f"{name}.log"
        with log.open("a") as out:
            out.write(f"--- designrl stack {time.strftime('%Y-%m-%dT%H:%M:%S')}: "
                      f"{' '.join(args)}\n")
            out.flush()
            process = subprocess.Popen(args, cwd=ROOT, env=env or self.env,
                                       start_new_session=True, stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=subprocess.STDOUT)
        self.processes[name] = process
        self.logs[name] = log
        return process

    def log_tail(self, name: str, lines: int = 15) -> str:
        """The last ``lines`` lines of a service's log ('' when there is none)."""
        try:
            return "\n".join(self.logs[name].read_text(errors="replace").splitlines()[-lines:])
        except (KeyError, OSError):
            return ""

    def start_api(self) -> str:
        port = self.config.api_port or free_port()
        self._spawn("api", [sys.executable, "-m", "uvicorn", "services.api.main:app",
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
                                  f"--loglevel={self.config.log_level.upper()}"], env)

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
        self._metrics_dir.cleanup()
        if self._temporary_logs is not None:
            self._temporary_logs.cleanup()


def _hide_password(url: str) -> str:
    """``url`` with its password, if any, shown as ***."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
