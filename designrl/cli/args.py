"""Argument types and defaults that several subcommands share.

The types keep their underscored names: argparse shows them in its errors
("invalid _ints value: 'x'").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from designrl.config.common import EMBEDDED_URL


class UsageError(Exception):
    """A mistake in the command line (an unknown name, an impossible combination): ``main``
    prints it argparse's way (``designrl bench: error: ...``, no traceback) and exits 2."""

DB_HELP = f"database URL (default: $DATABASE_URL, else {EMBEDDED_URL})"


def _csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _ints(text: str) -> list[int]:
    """``0,1,2`` or ``0-2`` or ``1000000-1000009``."""
    out: list[int] = []
    for part in _csv(text):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi) + 1) if hi else [int(lo)])
    return out


def database_url(given: str | None, environ: Mapping[str, str]) -> str:
    """``--db``, else ``$DATABASE_URL`` (``environ`` is what ``main`` read), else the embedded
    SQLite file."""
    return given or environ.get("DATABASE_URL") or EMBEDDED_URL


def add_option(parser, model: type[BaseModel], name: str, *flags: str, shown: Any = None,
               **kwargs: Any) -> None:
    """An option for ``model``'s field ``name``: its default and help are the field's
    (``--step-limit`` for ``step_limit`` unless ``flags`` say otherwise), so the command
    and the service that share a config share each default. ``shown``: the default as the
    help shows it, where the value itself reads badly (a long list)."""
    field = model.model_fields[name]
    default = field.get_default(call_default_factory=True)
    text = kwargs.pop("help", field.description or name.replace("_", " "))
    shown = default if shown is None else shown
    if shown is not None:  # a None default is described by the field's own words
        text = f"{text} (default: {shown})"
    parser.add_argument(*(flags or ("--" + name.replace("_", "-"),)), default=default,
                        help=text.replace("%", "%%"), **kwargs)
