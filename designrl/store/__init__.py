"""Persistence: SQLAlchemy 2 models, an engine factory, Alembic migrations, data access.

    from designrl.store import make_engine, make_sessionmaker, upgrade
    upgrade(url)                                   # create or migrate the tables
    Session = make_sessionmaker(make_engine(url))  # Postgres in the stack, SQLite embedded

``jobs`` holds every function that writes jobs and episodes (and lists them), ``reads``
the other reads the services make of them (a service writes no query of its own),
``rollouts`` Eval Protocol's rollouts (the episode each ``rollout_id`` started);
``ping`` is the readiness probe.
Nothing connects at import time.
"""

from designrl.store.engine import EMBEDDED_URL, make_engine, make_sessionmaker, normalize_url, ping
from designrl.store.migrate import upgrade

__all__ = ["EMBEDDED_URL", "make_engine", "make_sessionmaker", "normalize_url", "ping", "upgrade"]
