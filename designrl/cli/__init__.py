"""The ``designrl`` command line: one module per subcommand, each with ``add_parser(sub)``
and ``run(args)``. Heavy imports happen inside ``run``, so ``designrl --help`` is instant."""

from __future__ import annotations

import argparse

from designrl.cli import api_key, bench, db, inference, model, sft, stack, train

COMMANDS = {  # in the order ``designrl --help`` lists them
    "bench": bench, "db": db, "api-key": api_key, "stack": stack, "inference": inference,
    "model": model, "sft": sft, "train": train,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="designrl", description="Rollouts, rewards and RL training for design tasks.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS.values():
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return COMMANDS[args.command].run(args)
