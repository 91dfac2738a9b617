"""Database helpers shared by the store and service tests: a fresh Postgres schema per test.

Postgres comes from ``DATABASE_URL`` (default: the machine's ``test`` database) and Redis
from ``REDIS_URL``; each caller gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from designrl.store.scratch import scratch_schema

POSTGRES_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@contextmanager
def postgres_schema() -> Iterator[str]:
    """The URL of a new, empty schema in the test database."""
    with scratch_schema(POSTGRES_URL) as url:
        yield url
