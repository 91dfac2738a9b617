"""Chromium's own preferences for every browser the pool launches.

Playwright takes no preferences for Chromium and refuses ``--user-data-dir``, so the
pool launches a wrapper that writes ``Default/Preferences`` into the profile directory
Playwright passes, then runs Chromium; the pages' browser contexts (off the record)
inherit them. What they hold:

* WebRTC may send no UDP but through a proxy, and the only proxy is a closed local
  port: no STUN, TURN or ICE packet leaves the browser, even with the document-start
  script's guard gone. ``--force-webrtc-ip-handling-policy`` and ``--policy`` are ignored
  by this Chromium (measured: the packets still reached a loopback listener).
* No preloading (``net.network_prediction_options`` 2, "never"): speculation-rules
  prefetches and prerenders, which the browser process makes outside request routing,
  are never started.
"""

from __future__ import annotations

import json
import logging
import shlex

from designrl.render.launcher import ScriptDir

log = logging.getLogger(__name__)

PREFERENCES = {
    "net": {"network_prediction_options": 2},
    "webrtc": {
        "ip_handling_policy": "disable_non_proxied_udp",
        "multiple_routes_enabled": False,
        "nonproxied_udp_enabled": False,
    },
}

_WRAPPER = """#!/bin/sh
# Chromium's preferences, written into the profile directory Playwright passes.
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) profile="${{arg#--user-data-dir=}}" ;; esac
done
if [ -z "$profile" ]; then echo "designrl: no --user-data-dir to write preferences to" >&2; exit 1; fi
mkdir -p "$profile/Default" && printf '%s' {preferences} > "$profile/Default/Preferences" || exit 1
exec {chromium} "$@"
"""


class ChromiumPreferences:
    """Wraps the Chromium executable so each browser starts with ``PREFERENCES``."""

    def __init__(self) -> None:
        self._scripts = ScriptDir("designrl-preferences-")
        if not self._scripts.can_exec():
            log.warning("Chromium preferences not set (WebRTC held by script only): %s is "
                        "mounted noexec", self._scripts.path)
            self.close()

    def executable(self, chromium: str) -> str:
        """What to launch instead of ``chromium`` (itself, where no script can run)."""
        if self._scripts is None:
            return chromium
        return self._scripts.write("chromium.sh", _WRAPPER.format(
            preferences=shlex.quote(json.dumps(PREFERENCES)), chromium=shlex.quote(chromium)))

    def close(self) -> None:
        if self._scripts is not None:
            self._scripts.close()
            self._scripts = None
