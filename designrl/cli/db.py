"""``designrl db upgrade``: bring the database to the newest migration."""

from __future__ import annotations

import argparse

from designrl.cli.args import DB_HELP, database_url


def add_parser(sub) -> None:
    db = sub.add_parser("db", help="create or migrate the database",
                        description="Bring the database to the newest migration.")
    db.add_argument("action", choices=["upgrade"])
    db.add_argument("--db", default=None, help=DB_HELP)


def run(args: argparse.Namespace) -> int:
    from designrl.store import upgrade

    url = database_url(args.db, args.environ)
    upgrade(url)
    print(f"database at the newest migration: {url.split('@')[-1]}")
    return 0
