"""Finding, launching and, when it hangs, killing the Chromium the pool drives.

Playwright cannot download its own browser here, so we drive Debian's
``chromium`` through ``executable_path``. Each launch carries a unique marker
flag so a hung browser can be killed by its process ids without touching any
other Chromium on the machine.
"""

from __future__ import annotations

import os
import shutil
import signal
import uuid
from pathlib import Path

CHROMIUM_ENV = "DESIGNRL_CHROMIUM"

LAUNCH_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Keep one renderer per browser context. With site isolation every browser-initiated
    # navigation between about:blank and the page origin (two per job) swaps in a freshly
    # spawned renderer process (a process start-up per navigation). Contexts never share a
    # renderer either way, and pages can reach no other site to isolate from.
    "--disable-site-isolation-trials",
]

# Defence in depth behind the request router: should any request slip past it,
# names resolve nowhere, HTTP goes to a closed local port, and WebRTC gets no UDP.
NO_NETWORK_FLAGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]

MARKER_PREFIX = "--designrl-browser="


class ChromiumNotFound(RuntimeError):
    pass


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium executable: ``explicit``, $DESIGNRL_CHROMIUM, /usr/bin/chromium, then PATH."""
    for candidate in (explicit, os.environ.get(CHROMIUM_ENV), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise ChromiumNotFound(
        f"no Chromium found: set {CHROMIUM_ENV} or install it (`apt-get install -y chromium`)"
    )


def new_marker() -> str:
    """A launch flag Chromium ignores but that names this one browser's processes."""
    return f"{MARKER_PREFIX}{uuid.uuid4().hex}"


def launch_args(marker: str) -> list[str]:
    return [*LAUNCH_FLAGS, *NO_NETWORK_FLAGS, marker]


def browser_pids(marker: str) -> list[int]:
    """Process ids whose command line carries ``marker`` (Linux /proc; empty elsewhere)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    needle = marker.encode()
    pids = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in cmdline.split(b"\0"):
            pids.append(int(entry.name))
    return pids


def kill_browser(marker: str) -> int:
    """SIGKILL every process of the browser launched with ``marker``; returns how many."""
    killed = 0
    for pid in browser_pids(marker):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except (ProcessLookupError, PermissionError):
            pass
    return killed
