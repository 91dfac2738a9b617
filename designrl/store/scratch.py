"""A throwaway Postgres schema: a private, empty database for a test or a benchmark run."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text
from sqlalchemy.engine import make_url

from designrl.store.engine import make_engine, normalize_url


def schema_url(url: str, schema: str) -> str:
    """``url`` with every connection's ``search_path`` set to ``schema``."""
    parsed = make_url(normalize_url(url))
    return parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False)


@contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """The URL of a new, empty schema in the Postgres database at ``url``; dropped after."""
    admin = make_engine(url)
    schema = f"scratch_{uuid.uuid4().hex[:12]}"
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield schema_url(url, schema)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
