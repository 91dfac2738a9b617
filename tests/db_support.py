"""Database helpers shared by the store and service tests: a fresh Postgres schema per test.

Postgres comes from ``DATABASE_URL`` (default: the machine's ``test`` database). Each
caller gets its own schema (through ``search_path`` in the URL), dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text

from designrl.store import make_engine

POSTGRES_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def schema_url(schema: str) -> str:
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}"


@contextmanager
def postgres_schema() -> Iterator[str]:
    """The URL of a new, empty schema in the test database."""
    admin = make_engine(POSTGRES_URL)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield schema_url(schema)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
