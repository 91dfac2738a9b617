"""Alembic migrations, run from code (``designrl db upgrade``) or with the alembic CLI.

The migration scripts live in ``designrl/store/migrations``; the URL is passed
in, never read from a file, so the same scripts serve Postgres and SQLite.
"""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, inspect

from designrl.store.engine import make_engine, normalize_url


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("designrl.store").joinpath("migrations")))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to ``revision`` (creating the tables the first time)."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def ensure_schema(url: str) -> Engine:
    """An engine for ``url`` whose schema is at the newest migration."""
    upgrade(url)
    return make_engine(url)
