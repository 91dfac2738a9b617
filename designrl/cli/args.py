"""Argument types and defaults that several subcommands share.

The types keep their underscored names: argparse shows them in its errors
("invalid _ints value: 'x'").
"""

from __future__ import annotations


class UsageError(Exception):
    """A mistake in the command line (an unknown name, an impossible combination): ``main``
    prints it argparse's way (``designrl bench: error: ...``, no traceback) and exits 2."""

DB_HELP = "database URL (default: $DATABASE_URL, else sqlite:///designrl.db)"


def _csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _ints(text: str) -> list[int]:
    """``0,1,2`` or ``0-2`` or ``1000000-1000009``."""
    out: list[int] = []
    for part in _csv(text):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi) + 1) if hi else [int(lo)])
    return out


def database_url(given: str | None) -> str:
    """``--db``, else ``$DATABASE_URL``, else the embedded SQLite file."""
    import os

    from designrl.store import EMBEDDED_URL

    return given or os.environ.get("DATABASE_URL") or EMBEDDED_URL
