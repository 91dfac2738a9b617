"""A fresh database per test: SQLite in a temp file, and a fresh schema in the running Postgres.

Postgres comes from ``DATABASE_URL`` (default: the machine's ``test`` database); each test
gets its own schema, migrated with Alembic, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import text

from designrl.store import make_engine, make_sessionmaker, upgrade

POSTGRES_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


def postgres_schema_url(schema: str) -> str:
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'designrl.db'}"
        return
    admin = make_engine(POSTGRES_URL)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield postgres_schema_url(schema)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def sessions(db_url):
    upgrade(db_url)
    engine = make_engine(db_url)
    yield make_sessionmaker(engine)
    engine.dispose()
