"""A fresh database per test: SQLite in a temp file, and a fresh schema in the running Postgres."""

from __future__ import annotations

import pytest
from db_support import postgres_schema

from designrl.store import make_engine, make_sessionmaker, upgrade


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'designrl.db'}"
        return
    with postgres_schema() as url:
        yield url


@pytest.fixture
def sessions(db_url):
    upgrade(db_url)
    engine = make_engine(db_url)
    yield make_sessionmaker(engine)
    engine.dispose()
