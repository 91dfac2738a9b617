"""A network namespace of its own for each browser: Chromium then has no route to anything.

The request router answers every request a page makes through Playwright, and the
resolver and proxy switches send anything that slips past it nowhere. Some requests
never pass the router (a SharedWorker's fetch, a Worker's WebSocket, speculation-rules
prefetches, WebRTC's UDP); in a namespace with only a loopback interface, which is down,
those fail too. Playwright drives Chromium over a pipe, so nothing the pool needs
crosses the network.

Modes (``NetworkIsolation.mode``): ``netns`` where ``unshare --net`` works (root, or an
unprivileged user namespace the kernel allows), else ``routing-only``.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import stat
import subprocess
import tempfile
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)

NETNS = "netns"
ROUTING_ONLY = "routing-only"

_WRAPPER = """#!/bin/sh
# Chromium in a network namespace of its own: no interface but a loopback that is down.
exec {unshare} {chromium} "$@"
"""


@cache
def unshare_command() -> tuple[str, ...] | None:
    """The ``unshare`` call that gives a process a new network namespace here, or None."""
    binary = shutil.which("unshare")
    if binary is None:
        return None
    # Not root: a user namespace too, the user mapped to itself (mapped to root, Chromium
    # would refuse its own sandbox).
    for command in ((binary, "--net"), (binary, "--user", "--map-current-user", "--net")):
        try:
            done = subprocess.run([*command, "--", "true"], capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return command
    return None


class NetworkIsolation:
    """Wraps the Chromium executable so each browser starts in its own network namespace."""

    def __init__(self, enabled: bool = True) -> None:
        self.command = unshare_command() if enabled else None
        self._dir: str | None = None
        if self.command is not None:
            self._dir = tempfile.mkdtemp(prefix="designrl-netns-")
            if os.statvfs(self._dir).f_flag & os.ST_NOEXEC:
                log.warning("browser network namespace off: %s is mounted noexec", self._dir)
                self.close()
                self.command = None
        self.mode = NETNS if self.command else ROUTING_ONLY

    def executable(self, chromium: str) -> str:
        """What to launch instead of ``chromium`` (itself, in ``routing-only`` mode)."""
        if self.command is None or self._dir is None:
            return chromium
        script = Path(self._dir) / "chromium.sh"
        script.write_text(_WRAPPER.format(
            unshare=" ".join(shlex.quote(part) for part in (*self.command, "--")),
            chromium=shlex.quote(chromium)))
        script.chmod(stat.S_IRWXU)
        return str(script)

    def close(self) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
