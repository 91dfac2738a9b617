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
import shlex
import shutil
import subprocess
from functools import cache

from designrl.render.launcher import ScriptDir

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
        self._scripts: ScriptDir | None = None
        if self.command is not None:
            self._scripts = ScriptDir("designrl-netns-")
            if not self._scripts.can_exec():
                log.warning("browser network namespace off: %s is mounted noexec",
                            self._scripts.path)
                self.close()
                self.command = None
        self.mode = NETNS if self.command else ROUTING_ONLY

    def executable(self, chromium: str) -> str:
        """What to launch instead of ``chromium`` (itself, in ``routing-only`` mode)."""
        if self.command is None or self._scripts is None:
            return chromium
        return self._scripts.write("chromium.sh", _WRAPPER.format(
            unshare=" ".join(shlex.quote(part) for part in (*self.command, "--")),
            chromium=shlex.quote(chromium)))

    def close(self) -> None:
        if self._scripts is not None:
            self._scripts.close()
            self._scripts = None
