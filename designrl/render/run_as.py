"""Chromium as an unprivileged user, so it keeps its own sandbox when the pool runs as root.

Chromium refuses to sandbox itself as root; run as another user it sandboxes its
renderers with user namespaces. So a root pool launches a wrapper that hands the
profile directory Playwright passes to that user and ``exec``s Chromium through
``setpriv`` as them: the CDP pipes Playwright holds pass through the exec, and killing
by marker, the memory group and the network namespace (the outer wrappers, run as root
first) work as before. Where no such user or ``setpriv`` exists, the pool goes on as
root without Chromium's sandbox and says so.
"""

from __future__ import annotations

import logging
import os
import pwd
import shlex
import shutil

from designrl.render.launcher import ScriptDir

log = logging.getLogger(__name__)

DEFAULT_USER = "nobody"

_WRAPPER = """#!/bin/sh
# Chromium as {user}: it keeps its own sandbox, which it refuses as root.
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) profile="${{arg#--user-data-dir=}}" ;; esac
done
if [ -z "$profile" ]; then echo "designrl: no --user-data-dir to hand to {user}" >&2; exit 1; fi
chown -R {uid}:{gid} "$profile" || exit 1
export HOME="$profile"
exec {setpriv} --reuid={uid} --regid={gid} --clear-groups -- {chromium} "$@"
"""


class RunAs:
    """Wraps the Chromium executable so it runs as ``user`` (see the module docstring)."""

    def __init__(self, user: str, uid: int, gid: int, setpriv: str) -> None:
        self.user, self.uid, self.gid, self.setpriv = user, uid, gid, setpriv
        self._scripts: ScriptDir | None = ScriptDir("designrl-run-as-")

    @classmethod
    def for_root(cls, user: str | None = DEFAULT_USER) -> RunAs | None:
        """A ``RunAs`` when this process is root and ``user`` (not root) and ``setpriv``
        exist and scripts can run; else None (``why_not`` says which)."""
        if cls.why_not(user) is not None:
            return None
        entry = pwd.getpwnam(user)
        run_as = cls(user, entry.pw_uid, entry.pw_gid, shutil.which("setpriv"))
        if not run_as._scripts.can_exec():
            run_as.close()
            return None
        return run_as

    @staticmethod
    def why_not(user: str | None) -> str | None:
        """Why Chromium would not run as ``user`` here, or None if it would."""
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            return "not running as root"
        if not user:
            return "no user to run Chromium as is set"
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            return f"no user {user!r} on this machine"
        if entry.pw_uid == 0:
            return f"{user!r} is root"
        if shutil.which("setpriv") is None:
            return "setpriv (util-linux) is not installed"
        return None

    def executable(self, chromium: str) -> str:
        """What to launch instead of ``chromium``."""
        assert self._scripts is not None, "closed"
        return self._scripts.write("chromium-as-user.sh", _WRAPPER.format(
            user=self.user, uid=self.uid, gid=self.gid, setpriv=shlex.quote(self.setpriv),
            chromium=shlex.quote(chromium)))

    def close(self) -> None:
        if self._scripts is not None:
            self._scripts.close()
            self._scripts = None


def sandbox_mode(user: str | None = DEFAULT_USER) -> str:
    """Chromium's own sandbox as a pool here would have it: ``on``, ``on (as <user>)``
    when root hands Chromium to ``user``, else ``off (<why>)``."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "on"
    why = RunAs.why_not(user)
    return f"on (as {user})" if why is None else f"off (running as root: {why})"
