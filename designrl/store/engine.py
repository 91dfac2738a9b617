"""Engines and sessions for a database URL: Postgres in the stack, SQLite embedded.

Nothing connects at import. ``make_engine`` takes the URL a service read from its
settings; bare ``postgresql://`` URLs get the psycopg 3 driver, and SQLite gets
foreign keys on and a busy timeout (several worker processes may write at once).
"""

from __future__ import annotations

from functools import cache, partial

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from designrl.config.common import EMBEDDED_URL


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3; other URLs are kept."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str = EMBEDDED_URL, *, idle_in_transaction_s: float | None = None,
                **kwargs) -> Engine:
    """``idle_in_transaction_s`` (Postgres): the server ends a session that sits inside a
    transaction this long, releasing its row locks. A client cut off mid-transaction (its
    host gone: no FIN or RST ever arrives) otherwise holds them until TCP gives up, hours."""
    url = normalize_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        kwargs.setdefault("connect_args", {"timeout": 30})
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)  # survive a database restart
    engine = create_engine(url, **kwargs)
    if idle_in_transaction_s is not None:
        event.listen(engine, "connect", partial(_idle_in_transaction_timeout,
                                                ms=max(1, round(idle_in_transaction_s * 1000))))
    return engine


def _idle_in_transaction_timeout(connection, _record, *, ms: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET idle_in_transaction_session_timeout = {ms:d}")
    connection.commit()  # a session setting, kept after the transaction that set it


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@cache
def shared_sessionmaker(url: str) -> sessionmaker[Session]:
    """One sessionmaker (and engine) per URL for this process, made on first use: for code
    that opens the same database once per episode (the bench and its worker processes)."""
    return make_sessionmaker(make_engine(url))


def ping(session: Session) -> None:
    """Ask the database for ``SELECT 1``; whatever the driver raises when it does not answer
    goes to the caller (a readiness probe)."""
    session.execute(text("SELECT 1"))
