"""The rollout tests' store: a migrated scratch schema in the running Postgres."""

from __future__ import annotations

import pytest
from db_support import postgres_schema

from designrl.store import make_engine, make_sessionmaker, upgrade


@pytest.fixture
def sessions():
    with postgres_schema() as url:
        upgrade(url)
        engine = make_engine(url)
        yield make_sessionmaker(engine)
        engine.dispose()
