"""The ``designrl`` command line: one module per subcommand, each with ``add_parser(sub)``
and ``run(args)``. Heavy imports happen inside ``run``, so ``designrl --help`` is instant.

A user's mistake is never a traceback: ``run`` raises ``UsageError`` (an unknown name with
the known ones, an impossible combination with why), which ``main`` prints as argparse
prints its own errors, exiting 2.

Commands that run services (``designrl stack``) live with the services and register
themselves in the ``designrl.commands`` entry point group (``pyproject.toml``): a module
with the same ``add_parser``/``run``. The library never names a service.

``main`` is the one place that reads the environment (``$DATABASE_URL``, ``$REDIS_URL``,
``$DESIGNRL_PURE_PYTHON``, the variables ``stack up`` and ``inference serve`` pass on): it
hands it to the subcommand as ``args.environ``; the library only ever gets arguments and
config objects."""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from designrl.cli import api_key, bench, db, inference, model, sft, train
from designrl.cli.args import UsageError

COMMANDS = {  # in the order ``designrl --help`` lists them
    "bench": bench, "db": db, "api-key": api_key, "inference": inference,
    "model": model, "sft": sft, "train": train,
}
ENTRY_POINTS = "designrl.commands"  # the group other packages register commands in


def registered_commands() -> dict[str, ModuleType]:
    """The built-in commands, then those installed packages register under
    ``designrl.commands`` (name = module)."""
    from importlib.metadata import entry_points

    found = {point.name: point for point in entry_points(group=ENTRY_POINTS)}
    return {**COMMANDS, **{name: found[name].load() for name in sorted(found)
                           if name not in COMMANDS}}


def build_parser(commands: dict[str, ModuleType] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="designrl", description="Rollouts, rewards and RL training for design tasks.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (registered_commands() if commands is None else commands).values():
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    commands = registered_commands()
    parser = build_parser(commands)
    args = parser.parse_args(argv)
    args.environ = dict(os.environ)
    use_environment(args.environ)
    try:
        return commands[args.command].run(args)
    except UsageError as exc:
        command = _subparser(parser, args.command)
        command.print_usage(sys.stderr)
        print(f"{command.prog}: error: {exc}", file=sys.stderr)
        return 2


def use_environment(environ: dict[str, str]) -> None:
    """The process-wide switch the environment sets, as the services' settings read it:
    ``DESIGNRL_PURE_PYTHON`` (anything but "" or "0") scores layouts in pure Python."""
    if environ.get("DESIGNRL_PURE_PYTHON", "") not in ("", "0"):
        from designrl.tasks.layout.metrics import use_native

        use_native(False)


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]
