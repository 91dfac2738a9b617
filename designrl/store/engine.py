"""Engines and sessions for a database URL: Postgres in the stack, SQLite embedded.

Nothing connects at import. ``make_engine`` takes the URL a service read from its
settings; bare ``postgresql://`` URLs get the psycopg 3 driver, and SQLite gets
foreign keys on and a busy timeout (several worker processes may write at once).
"""

from __future__ import annotations

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

EMBEDDED_URL = "sqlite:///designrl.db"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3; other URLs are kept."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str = EMBEDDED_URL, **kwargs) -> Engine:
    url = normalize_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        kwargs.setdefault("connect_args", {"timeout": 30})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)  # survive a database restart
    return create_engine(url, **kwargs)


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
