"""``designrl api-key create|list|revoke``: keys for the API. A new key is printed once
(only its SHA-256 is stored); ``list`` shows names, roles and whether each is revoked;
``revoke`` refuses a key from then on (its jobs are kept)."""

from __future__ import annotations

import argparse
import json
import sys

from designrl.cli.args import DB_HELP, database_url

ROLES_HELP = ("admin: every job; user: submits jobs, sees its own; reader: submits nothing, "
              "reads the jobs of the key named by --reads ('*': every job)")


def add_parser(sub) -> None:
    key = sub.add_parser("api-key", help="create, list or revoke API keys",
                         description="Create an API key (printed once; only its SHA-256 is "
                                     "stored), list the keys, or revoke one. " + ROLES_HELP)
    key.add_argument("action", choices=["create", "list", "revoke"])
    key.add_argument("name", nargs="?", help="who the key is for (unique); create, revoke")
    key.add_argument("--role", choices=["admin", "user", "reader"], default="user")
    key.add_argument("--reads", default=None, metavar="KEY_NAME",
                     help="a reader's: the key whose jobs it reads, or '*' for every job")
    key.add_argument("--db", default=None, help=DB_HELP)
    key.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.action != "list" and not args.name:
        print(f"error: api-key {args.action} needs the key's NAME", file=sys.stderr)
        return 2
    if args.action == "create":
        if args.role == "reader" and not args.reads:
            print("error: a reader key reads someone's jobs: give --reads KEY_NAME "
                  "(or --reads '*' for every job)", file=sys.stderr)
            return 2
        if args.reads and args.role != "reader":
            print("error: --reads is for --role reader", file=sys.stderr)
            return 2
    from designrl.store import make_engine, make_sessionmaker, upgrade

    url = database_url(args.db, args.environ)
    upgrade(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            return {"create": _create, "list": _list, "revoke": _revoke}[args.action](
                session, args)
    finally:
        engine.dispose()


def _create(session, args: argparse.Namespace) -> int:
    from sqlalchemy.exc import IntegrityError

    from designrl.store.keys import create_api_key

    try:
        key = create_api_key(session, args.name, args.role, reads=args.reads)
    except IntegrityError:
        print(f"error: a key named {args.name!r} exists already", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"name": args.name, "role": args.role, "reads": args.reads,
                          "key": key}))
    else:
        print(key)
    return 0


def _list(session, args: argparse.Namespace) -> int:
    from designrl.store.keys import list_api_keys

    keys = list_api_keys(session)
    if args.json:
        print(json.dumps([{"name": k.name, "role": k.role, "reads": k.reads,
                           "created_at": k.created_at.isoformat(),
                           "revoked_at": k.revoked_at and k.revoked_at.isoformat()}
                          for k in keys]))
        return 0
    if not keys:
        print("no API keys (designrl api-key create NAME)")
        return 0
    width = max(len(k.name) for k in keys)
    for k in keys:
        state = f"revoked {k.revoked_at:%Y-%m-%d %H:%M}" if k.revoked_at else "live"
        reads = f" reads {k.reads}" if k.reads else ""
        print(f"{k.name:<{width}}  {k.role:<6}  {state:<22}  created "
              f"{k.created_at:%Y-%m-%d %H:%M}{reads}")
    return 0


def _revoke(session, args: argparse.Namespace) -> int:
    from designrl.store.keys import revoke_api_key

    if not revoke_api_key(session, args.name):
        print(f"error: no live key named {args.name!r} (designrl api-key list)",
              file=sys.stderr)
        return 1
    print(f"revoked {args.name!r}: the API refuses it from now on (401)")
    return 0
