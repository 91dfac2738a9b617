"""``designrl train``: embedded GRPO on layout tasks, evaluated before and after on held-out
seeds, with curves as a PNG."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from designrl.cli.args import _csv, _ints


def add_parser(sub) -> None:
    train = sub.add_parser(
        "train", help="GRPO on layout tasks in this process (rollouts and updates overlap)",
        description="Sample layout groups with the in-process backend while the learner "
                    "trains on them (TRL's GRPO loss); evaluate greedily on held-out seeds "
                    "before and after; write checkpoints, curves.jsonl, curves.png and "
                    "summary.json to --out.")
    train.add_argument("--model", required=True, help="starting model directory (e.g. SFT's)")
    train.add_argument("--out", type=Path, required=True, help="output folder")
    train.add_argument("--tasks", type=_csv, default=None,
                       help="layout task ids (default: the six generated families)")
    train.add_argument("--train-seeds", type=_ints, default=list(range(1000)),
                       help="seeds groups are drawn from, e.g. 0-999 (default)")
    train.add_argument("--eval-seeds", type=_ints, default=[],
                       help="held-out seeds to evaluate before and after, e.g. 1000000-1000004")
    train.add_argument("--steps", type=int, default=40, help="updates (default: 40)")
    train.add_argument("--group-size", type=int, default=12, help="episodes per group (12)")
    train.add_argument("--groups-per-step", type=int, default=2, help="groups per update (2)")
    train.add_argument("--max-staleness", type=int, default=1, help="versions (default: 1)")
    train.add_argument("--step-limit", type=int, default=8, help="steps per episode (8)")
    train.add_argument("--learning-rate", type=float, default=None)
    train.add_argument("--beta", type=float, default=None, help="KL coefficient")
    train.add_argument("--temperature", type=float, default=None, help="sampling temperature")
    train.add_argument("--loss-type", default=None, help="TRL loss type (default: dapo)")
    train.add_argument("--seed", type=int, default=0, help="training seed")
    train.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        from designrl.learner.embedded import RolloutSettings
        from designrl.learner.grpo import GRPOSettings
        from designrl.learner.train_workflow import run_train_workflow
    except ImportError as exc:
        print(f"error: {exc} (install the train extra: pip install 'designrl[train]')",
              file=sys.stderr)
        return 1
    from pydantic import ValidationError

    overrides = {"learning_rate": args.learning_rate, "beta": args.beta,
                 "temperature": args.temperature, "loss_type": args.loss_type}
    try:
        grpo = GRPOSettings(max_steps=args.steps, groups_per_step=args.groups_per_step,
                            max_staleness=args.max_staleness, seed=args.seed,
                            **{k: v for k, v in overrides.items() if v is not None})
        rollouts = RolloutSettings(group_size=args.group_size, step_limit=args.step_limit,
                                   train_seeds=args.train_seeds, seed=args.seed,
                                   **({"task_ids": args.tasks} if args.tasks else {}))
    except ValidationError as exc:
        print(f"error: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}", file=sys.stderr)
        return 2

    def show(row: dict) -> None:
        if not args.json:
            print(f"v{row['version']:>3}  reward {row.get('group_reward_mean', 0):+.3f}  "
                  f"valid {row.get('valid_action_rate', 0):.2f}  loss {row.get('loss', 0):+.4f}"
                  f"  staleness {row.get('staleness_mean', 0):.1f}  idle "
                  f"{row['idle_fraction']:.0%}  {row['seconds']:.1f}s", flush=True)

    try:  # the trainer prints its log lines; with --json, stdout carries the summary alone
        with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
            summary = run_train_workflow(args.model, args.out, rollouts, grpo,
                                         eval_seeds=args.eval_seeds, log=show)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
    return 0


def _print_summary(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    train = summary["train"]
    console = Console()
    dropped = ", ".join(f"{n} {why}" for why, n in train["dropped"].items()) or "none"
    console.print(f"{train['version']} versions in {train['wall_seconds']:.0f}s; learner idle "
                  f"{train['idle_fraction']:.0%}; staleness histogram (versions: groups) "
                  f"{train['staleness']}; dropped groups: {dropped}; curves "
                  f"{summary['curves_png']}", highlight=False, markup=False)
    if "before" in summary:
        table = Table(title="held-out seeds, greedy")
        table.add_column("measure")
        table.add_column("before", justify="right")
        table.add_column("after", justify="right")
        for key in ("valid_json_rate", "valid_action_rate", "mean_final_score", "mean_return",
                    "mean_potential_gain"):
            table.add_row(key, f"{summary['before'][key]:.3f}", f"{summary['after'][key]:.3f}")
        console.print(table)
