"""The compose stack run for real with podman-compose on the images `make images` builds:
``docker-compose.yml`` with ``deploy/compose.local.yml`` over it, under a project name of
its own and on free host ports, taken down with its volumes at the end.

podman-compose 1.6 on Debian's podman 4.3 ignores ``depends_on`` health conditions (it
warns "podman 4.3.1 doesn't support healthy") and then will not start a container whose
one-shot dependency (``migrate``) has exited; so ``up`` keeps compose's order itself:
Redis and Postgres healthy, the migration done, then the rest with ``--no-deps``. Its
``down`` leaves scaled replicas and volumes behind, so ``down`` removes them by label.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import httpx

from services.stack import free_port

ROOT = Path(__file__).resolve().parents[1]
FILES = ["-f", "docker-compose.yml", "-f", "deploy/compose.local.yml"]
IMAGES = ["localhost/designrl:latest", "localhost/designrl-redis:bookworm",
          "localhost/designrl-postgres:bookworm", "localhost/designrl-prometheus:bookworm"]


def podman_compose() -> str:
    """podman-compose from the project's .venv-compose (``make images`` makes it) or PATH."""
    found = ROOT / ".venv-compose" / "bin" / "podman-compose"
    path = str(found) if found.exists() else shutil.which("podman-compose")
    if not path or not shutil.which("podman"):
        raise RuntimeError("podman and podman-compose are missing: run `make images`")
    missing = [i for i in IMAGES if subprocess.run(["podman", "image", "exists", i]).returncode]
    if missing:
        raise RuntimeError(f"images {missing} are missing: run `make images`")
    return path


class ComposeStack:
    def __init__(self) -> None:
        self.project = f"designrl-test-{uuid.uuid4().hex[:6]}"
        self.api_port, self.prometheus_port = free_port(), free_port()
        self.api = f"http://127.0.0.1:{self.api_port}"
        self.prometheus = f"http://127.0.0.1:{self.prometheus_port}"
        self.env = {**os.environ, "API_PORT": str(self.api_port),
                    "PROMETHEUS_PORT": str(self.prometheus_port)}
        self.command = [podman_compose(), "--env-file", "deploy/env.example",
                        "-p", self.project, *FILES]

    def compose(self, *args: str, timeout: float = 600) -> str:
        run = subprocess.run([*self.command, *args], cwd=ROOT, env=self.env, text=True,
                             capture_output=True, timeout=timeout)
        if run.returncode:
            raise RuntimeError(f"podman-compose {' '.join(args)} failed:\n"
                               f"{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
        return run.stdout

    def up(self, renderers: int) -> None:
        self.compose("up", "-d", "redis", "postgres")
        self.wait_healthy("redis", "postgres")
        self.compose("up", "-d", "--no-deps", "migrate")
        migrate = self.containers("migrate", every=True)[0]
        code = subprocess.run(["podman", "wait", migrate], capture_output=True, text=True,
                              timeout=300).stdout.strip()
        if code != "0":
            logs = subprocess.run(["podman", "logs", migrate], capture_output=True, text=True)
            raise RuntimeError(f"the migration exited {code}:\n{logs.stderr[-3000:]}")
        self.compose("up", "-d", "--no-deps", "--scale", f"renderer={renderers}", "api",
                     "renderer", "prometheus")

    def wait_healthy(self, *services: str, timeout: float = 120) -> None:
        """Run each service's compose healthcheck (podman runs none on its own without
        systemd) until it passes."""
        deadline = time.monotonic() + timeout
        for service in services:
            name = self.containers(service)[0]
            while subprocess.run(["podman", "healthcheck", "run", name],
                                 capture_output=True).returncode:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{service} not healthy after {timeout} s")
                time.sleep(1)

    def containers(self, service: str | None = None, every: bool = False) -> list[str]:
        """The containers of the project (of one service), by name; ``every``: stopped too."""
        filters = ["--filter", f"label=com.docker.compose.project={self.project}"]
        if service:
            filters += ["--filter", f"label=com.docker.compose.service={service}"]
        out = subprocess.run(["podman", "ps", *(["-a"] if every else []), "--format", "json",
                              *filters], capture_output=True, text=True, check=True).stdout
        return sorted(c["Names"][0] for c in json.loads(out or "[]"))

    def exec(self, service: str, *args: str) -> str:
        name = self.containers(service)[0]
        return subprocess.run(["podman", "exec", name, *args], capture_output=True, text=True,
                              check=True, timeout=120).stdout

    def wait_ready(self, timeout: float = 300) -> dict:
        """/readyz's answer once it is 200 (the database migrated and reachable, Redis up)."""
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(f"{self.api}/readyz", timeout=5)
                if reply.status_code == 200:
                    return reply.json()
                last = reply.text
            except httpx.HTTPError as exc:
                last = repr(exc)
            time.sleep(2)
        raise TimeoutError(f"/readyz not ready after {timeout} s: {last}")

    def renderer_targets(self) -> list[dict]:
        reply = httpx.get(f"{self.prometheus}/api/v1/targets", timeout=10).json()
        return [t for t in reply["data"]["activeTargets"] if t["labels"]["job"] == "renderer"]

    def down(self) -> None:
        names = self.containers(every=True)
        if names:
            subprocess.run(["podman", "rm", "-f", "-t", "10", *names], capture_output=True,
                           timeout=300)
        volumes = subprocess.run(["podman", "volume", "ls", "-q"], capture_output=True,
                                 text=True).stdout.split()
        ours = [v for v in volumes if v.startswith(f"{self.project}_")]
        if ours:
            subprocess.run(["podman", "volume", "rm", "-f", *ours], capture_output=True)
        subprocess.run(["podman", "network", "rm", "-f", f"{self.project}_default"],
                       capture_output=True)
