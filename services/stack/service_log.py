"""One service's output: each line to ``<log_dir>/<name>.log``, rotated by size, and, where
a console is given, to it with the service's name in front (``api     | ...``), the way
``docker compose up`` shows its services."""

from __future__ import annotations

import logging
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import IO, TextIO

_CONSOLE_LOCK = threading.Lock()  # one service's line is never cut by another's


class ServiceLog:
    """``path`` keeps the newest output; at ``max_bytes`` it becomes ``path.1`` (and so on,
    ``backups`` of them). ``prefix`` goes before each line on ``console``."""

    def __init__(self, path: Path, prefix: str, console: TextIO | None = None,
                 max_bytes: int = 10 * 1024 * 1024, backups: int = 3) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.prefix = prefix
        self.console = console
        self._file = RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups,
                                         encoding="utf-8")
        self._thread: threading.Thread | None = None

    def write(self, line: str) -> None:
        """One line, to the file and the console (a console that is gone is skipped: the
        file still has it)."""
        self._file.handle(logging.makeLogRecord({"msg": line, "args": None}))
        if self.console is not None:
            with _CONSOLE_LOCK:
                try:
                    self.console.write(f"{self.prefix}{line}\n")
                    self.console.flush()
                except (OSError, ValueError):
                    self.console = None

    def follow(self, stream: IO[bytes]) -> None:
        """Copy ``stream`` (a process's output) line by line until it ends, in a thread."""
        def pump() -> None:
            with stream:
                for raw in iter(stream.readline, b""):
                    self.write(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
            self._file.close()

        self._thread = threading.Thread(target=pump, name=f"log {self.path.name}",
                                        daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Wait (up to ``timeout``) for the output to end, then close the file."""
        if self._thread is not None:
            self._thread.join(timeout)
        self._file.close()

    def tail(self, lines: int = 15) -> str:
        """The last ``lines`` lines written ('' when there are none)."""
        try:
            return "\n".join(self.path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""
