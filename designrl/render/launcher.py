"""Launcher scripts: the small shell wrappers the pool starts instead of Chromium.

Each layer (the memory cgroup, the network namespace, the preferences) is a script
that does its part and ``exec``s the next, so Chromium starts as the last of them,
with Playwright's arguments untouched.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path


class ScriptDir:
    """A private temporary directory of launcher scripts."""

    def __init__(self, prefix: str) -> None:
        self.path: str | None = tempfile.mkdtemp(prefix=prefix)

    def can_exec(self) -> bool:
        """Whether scripts here can run (a ``noexec`` temp mount forbids it)."""
        assert self.path is not None, "closed"
        return not os.statvfs(self.path).f_flag & os.ST_NOEXEC

    def write(self, name: str, text: str) -> str:
        """Write script ``name`` (owner-only, executable) and return its path."""
        assert self.path is not None, "closed"
        script = Path(self.path) / name
        script.write_text(text)
        script.chmod(stat.S_IRWXU)
        return str(script)

    def close(self) -> None:
        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None
