"""Alembic's environment: the URL comes from the config ``designrl.store.migrate`` builds."""

from __future__ import annotations

from alembic import context
from sqlalchemy import pool

from designrl.store.engine import make_engine
from designrl.store.models import Base

config = context.config


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=Base.metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url"), poolclass=pool.NullPool)
    with engine.connect() as connection:
        # batch mode: SQLite alters tables by copying them
        context.configure(connection=connection, target_metadata=Base.metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
