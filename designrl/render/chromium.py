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

DEBIAN_CHROMIUM = "/usr/bin/chromium"

LAUNCH_FLAGS = [
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Keep one renderer per browser context. With site isolation a browser-initiated
    # navigation from a fresh page's about:blank to the page origin swaps in a freshly
    # spawned renderer process. Contexts never share a renderer either way, and pages can
    # reach no other site to isolate from.
    "--disable-site-isolation-trials",
]

# Playwright passes its own --disable-features list and Chromium keeps only the last list given,
# so ours repeats Playwright's (a test checks it still covers the installed Playwright's) and adds
# RenderDocument: without it every navigation between two jobs' documents builds a new frame
# host and renderer frame (about 15 ms of CPU per job, measured).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
DISABLED_FEATURES = (*PLAYWRIGHT_DISABLED_FEATURES, "RenderDocument")

# Playwright's defaults we drop: with IPC flooding protection on, Chromium throttles a
# page's navigation flood (``location.hash`` in a loop: each one a same-document
# navigation through the browser process) instead of letting it stall every page of the
# browser.
IGNORED_PLAYWRIGHT_ARGS = ["--disable-ipc-flooding-protection"]

# Defence in depth behind the request router: should any request slip past it, names
# resolve nowhere and HTTP goes to a closed local port (the only proxy WebRTC may use:
# see ``preferences``).
NO_NETWORK_FLAGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
]

MARKER_PREFIX = "--designrl-browser="


class ChromiumNotFound(RuntimeError):
    pass


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium executable: ``explicit`` (a service's setting), /usr/bin/chromium, then PATH."""
    if explicit:
        if Path(explicit).is_file() and os.access(explicit, os.X_OK):
            return explicit
        raise ChromiumNotFound(f"no Chromium executable at {explicit}")
    if os.access(DEBIAN_CHROMIUM, os.X_OK):
        return DEBIAN_CHROMIUM
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise ChromiumNotFound(
        "no Chromium found: install it (`apt-get install -y chromium`) or pass its path"
    )


def own_sandbox_possible() -> bool:
    """Whether Chromium may keep its own sandbox: not as root (it refuses to start so).
    As another user it sandboxes its renderers with user namespaces where the kernel
    allows; where it does not, the pool falls back to ``--no-sandbox`` and logs why."""
    return hasattr(os, "geteuid") and os.geteuid() != 0


def new_marker() -> str:
    """A launch flag Chromium ignores but that names this one browser's processes."""
    return f"{MARKER_PREFIX}{uuid.uuid4().hex}"


def launch_args(marker: str) -> list[str]:
    return [*LAUNCH_FLAGS, f"--disable-features={','.join(DISABLED_FEATURES)}",
            *NO_NETWORK_FLAGS, marker]


def process_table() -> dict[int, tuple[int, list[bytes]]]:
    """pid -> (parent pid, command line) for every process we can read (Linux /proc)."""
    table = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return table
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # the name before ")" may hold spaces
        table[int(entry.name)] = (parent, cmdline.split(b"\0"))
    return table


def browser_pids(marker: str) -> list[int]:
    """The processes of the browser launched with ``marker``: it and all its descendants.

    Only the browser process carries the marker; its zygotes, renderers and GPU
    process are found through their parents, so a kill leaves no orphan running.
    """
    table = process_table()
    needle = marker.encode()
    return sorted(descendants({pid for pid, (_, cmdline) in table.items() if needle in cmdline},
                              table))


def descendants(roots: set[int], table: dict[int, tuple[int, list[bytes]]]) -> set[int]:
    """``roots`` and every process below them in ``table`` (``process_table()``)."""
    found, grew = set(roots), bool(roots)
    while grew:
        children = {pid for pid, (parent, _) in table.items() if parent in found} - found
        found |= children
        grew = bool(children)
    return found


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
