"""A memory cap per browser: a cgroup the browser and every process it forks are held in.

Modes, first that works at pool start (``MemoryCap.mode``, logged, on ``BrowserPool``):

* ``cgroup2``: a child group of ours with ``memory.max`` (and ``memory.swap.max`` 0);
* ``cgroup1``: a child group of ours in the v1 ``memory`` hierarchy with
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``, so swap is no way round);
* ``v8-heap``: no group can be made (no permission, a v2 memory controller held by a
  v1 mount, no Linux): only ``--max-old-space-size`` bounds each renderer's JS heap;
  ArrayBuffers, canvases and wasm memory are not capped in this mode.

The browser enters its group before it runs: Playwright launches a small shell wrapper
that writes its own pid into the group and then execs Chromium, so zygotes and renderers
are born inside. Over the cap the kernel's OOM killer ends the biggest process in the
group, which is a renderer (Chromium gives renderers the highest ``oom_score_adj``); the
group's OOM-kill counter is how a crash is told apart from any other (``take_oom_kill``).
``RLIMIT_AS`` is not used: V8 and PartitionAlloc reserve tens of GB of address space up
front, so any address-space limit low enough to matter stops Chromium from starting.
"""

from __future__ import annotations

import logging
import os
import shlex
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from designrl.render.launcher import ScriptDir

log = logging.getLogger(__name__)

CGROUP2 = "cgroup2"
CGROUP1 = "cgroup1"
V8_HEAP = "v8-heap"

DEFAULT_MEMORY_CAP_MB = 2048  # per browser, all its processes together
# What the JS heap may take of the cap in v8-heap mode (the rest is Chromium's own).
V8_HEAP_SHARE = 0.5
GROUP_PREFIX = "designrl-browser-"

_WRAPPER = """#!/bin/sh
# Enter the memory group before Chromium starts, so everything it forks is held there too.
echo $$ > {procs} || exit 97
exec {chromium} "$@"
"""


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(root inside its hierarchy, mount point, fs type, super options) of cgroup mounts."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        found.append((fields[3], fields[4], tail[0], set(tail[2].split(","))))
    return found


def _own_cgroups() -> dict[str, str]:
    """Our cgroup path per v1 controller, and under ``""`` the v2 one."""
    paths = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _join(mount_root: str, mount_point: str, path: str) -> Path | None:
    """Our group's directory under a mount, or None if the mount does not show it."""
    if mount_root != "/" and path.startswith(mount_root):
        path = path[len(mount_root):]
    where = Path(mount_point) / path.lstrip("/")
    return where if where.is_dir() else None


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _parent_dirs() -> list[tuple[str, Path]]:
    """Where a group could be made, best first: (mode, our own group's directory)."""
    own = _own_cgroups()
    found = []
    for root, point, fstype, options in _mounts():
        if fstype == "cgroup2" and "" in own:
            where = _join(root, point, own[""])
            if where is not None:
                found.append((CGROUP2, where))
        elif fstype == "cgroup" and "memory" in options and "memory" in own:
            where = _join(root, point, own["memory"])
            if where is not None:
                found.append((CGROUP1, where))
    found.sort(key=lambda item: item[0] != CGROUP2)
    return found


@dataclass
class BrowserGroup:
    """One browser's cgroup: made at its first launch, removed when the pool closes."""

    mode: str
    path: Path
    _kills_seen: int = 0

    def _file(self, v1: str, v2: str) -> Path:
        return self.path / (v1 if self.mode == CGROUP1 else v2)

    def _oom_kills(self) -> int:
        name = "memory.oom_control" if self.mode == CGROUP1 else "memory.events"
        try:
            for line in (self.path / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def take_oom_kill(self) -> bool:
        """Whether the kernel killed a process here over the cap since the last call."""
        kills = self._oom_kills()
        taken, self._kills_seen = kills > self._kills_seen, kills
        return taken

    def usage_bytes(self) -> int:
        return int(self._file("memory.usage_in_bytes", "memory.current").read_text())

    def peak_bytes(self) -> int:
        """The most the group held since it was made or ``reset_peak`` (v2: kernel 5.19+)."""
        return int(self._file("memory.max_usage_in_bytes", "memory.peak").read_text())

    def reset_peak(self) -> None:
        """Start a new peak (v1 always; v2 on kernels that allow writing ``memory.peak``)."""
        _write(self._file("memory.max_usage_in_bytes", "memory.peak"), "0")

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def kill(self) -> None:
        """SIGKILL every process in the group (crashpad handlers too: they leave the
        browser's process tree, so ``kill_browser`` cannot find them)."""
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def remove(self, wait_s: float = 5.0) -> bool:
        """Remove the group, killing whatever is still in it (the browser is closed by now)."""
        deadline = time.monotonic() + wait_s
        while True:
            self.kill()
            try:
                os.rmdir(self.path)
                return True
            except FileNotFoundError:
                return True
            except OSError as exc:  # busy until the killed processes are reaped
                if time.monotonic() > deadline:
                    log.warning("could not remove memory group %s: %s", self.path, exc)
                    return False
                time.sleep(0.05)


class MemoryCap:
    """The cap, its mode, and one group per browser (``executable``) to start Chromium in."""

    def __init__(self, limit_bytes: int, mode: str, parent: Path | None) -> None:
        self.limit_bytes = int(limit_bytes)
        self.mode = mode
        self._parent = parent
        self._groups: dict[str, BrowserGroup] = {}
        self._tag = uuid.uuid4().hex[:8]  # pools in one process never share a group
        self._scripts = ScriptDir("designrl-memcap-") if parent else None

    @classmethod
    def detect(cls, limit_bytes: int) -> MemoryCap:
        """The first mode whose group can be made and limited; else ``v8-heap``."""
        reasons = []
        for mode, parent in _parent_dirs():
            probe = BrowserGroup(mode, parent / f"{GROUP_PREFIX}probe-{uuid.uuid4().hex[:8]}")
            try:
                cls._make(probe, limit_bytes)
            except OSError as exc:
                reasons.append(f"{mode} at {parent}: {exc.strerror or exc}")
                continue
            finally:
                if probe.path.exists():
                    probe.remove(1.0)
            cap = cls(limit_bytes, mode, parent)
            assert cap._scripts is not None
            if not cap._scripts.can_exec():
                reasons.append(f"{mode}: temp dir {cap._scripts.path} is mounted noexec")
                cap.close()
                continue
            log.info("browser memory cap: %s, %d MB per browser, groups under %s",
                     mode, limit_bytes >> 20, parent)
            return cap
        log.warning("browser memory cap: v8-heap only (JS heap %d MB per renderer); "
                    "no memory cgroup could be made: %s", heap_mb(limit_bytes),
                    "; ".join(reasons) or "no cgroup mount")
        return cls(limit_bytes, V8_HEAP, None)

    @staticmethod
    def _make(group: BrowserGroup, limit_bytes: int) -> None:
        os.mkdir(group.path)
        if group.mode == CGROUP2:
            if not (group.path / "memory.max").exists():
                raise OSError(0, "the memory controller is not enabled for our group's children")
            _write(group.path / "memory.max", str(limit_bytes))
            if (group.path / "memory.swap.max").exists():
                _write(group.path / "memory.swap.max", "0")
            return
        _write(group.path / "memory.limit_in_bytes", str(limit_bytes))
        if (group.path / "memory.memsw.limit_in_bytes").exists():  # swap accounting is on
            _write(group.path / "memory.memsw.limit_in_bytes", str(limit_bytes))

    @property
    def enforced(self) -> bool:
        """Whether the whole browser is held under the cap (not only its JS heaps)."""
        return self.mode != V8_HEAP

    def chromium_args(self) -> list[str]:
        """Extra switches: a JS heap bound where nothing else bounds the browser."""
        if self.enforced:
            return []
        return [f"--js-flags=--max-old-space-size={heap_mb(self.limit_bytes)}"]

    def executable(self, name: str, chromium: str) -> str:
        """What to launch for browser ``name``: a wrapper entering its group, or Chromium.

        Whatever is still in the group belongs to a predecessor the pool gave up on: it goes.
        """
        if not self.enforced:
            return chromium
        group = self.group(name)
        group.kill()
        assert self._scripts is not None
        return self._scripts.write(f"{name}.sh", _WRAPPER.format(
            procs=shlex.quote(str(group.path / "cgroup.procs")), chromium=shlex.quote(chromium)))

    def group(self, name: str) -> BrowserGroup:
        """Browser ``name``'s group, made on first use (it outlives relaunches)."""
        group = self._groups.get(name)
        if group is None:
            assert self._parent is not None
            group = BrowserGroup(self.mode, self._parent / f"{GROUP_PREFIX}{self._tag}-{name}")
            try:
                self._make(group, self.limit_bytes)
            except OSError:
                group.remove(1.0)
                raise
            self._groups[name] = group
        return group

    def take_oom_kill(self, name: str) -> bool:
        """Whether browser ``name`` lost a process to the cap since the last call. Two jobs
        failing at once on one browser cannot be told apart: the first to ask takes it."""
        group = self._groups.get(name)
        return group is not None and group.take_oom_kill()

    def close(self) -> None:
        """Remove every group (killing what is left in it) and the wrapper scripts."""
        for group in self._groups.values():
            group.remove()
        self._groups.clear()
        if self._scripts is not None:
            self._scripts.close()
            self._scripts = None


def heap_mb(limit_bytes: int) -> int:
    return max(64, int(limit_bytes * V8_HEAP_SHARE) >> 20)
