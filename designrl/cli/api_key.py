"""``designrl api-key create``: a new API key, printed once (only its hash is stored)."""

from __future__ import annotations

import argparse
import json
import sys

from designrl.cli.args import DB_HELP, database_url


def add_parser(sub) -> None:
    key = sub.add_parser("api-key", help="create an API key (printed once)",
                         description="Create an API key; only its SHA-256 is stored.")
    key.add_argument("action", choices=["create"])
    key.add_argument("name", help="who the key is for (unique)")
    key.add_argument("--role", choices=["admin", "user", "reader"], default="user")
    key.add_argument("--db", default=None, help=DB_HELP)
    key.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import IntegrityError

    from designrl.store import make_engine, make_sessionmaker, upgrade
    from designrl.store.keys import create_api_key

    url = database_url(args.db)
    upgrade(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            key = create_api_key(session, args.name, args.role)
    except IntegrityError:
        print(f"error: a key named {args.name!r} exists already", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps({"name": args.name, "role": args.role, "key": key}))
    else:
        print(key)
    return 0
