"""``designrl train``: embedded GRPO on layout tasks, evaluated before and after on held-out
seeds, with curves as a PNG."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

from designrl.cli.args import UsageError, _csv, _ints, add_option
from designrl.config.training import GRPOSettings, RolloutSettings

FLAGS = {"max_steps": "--steps", "task_ids": "--tasks"}  # a setting's flag, where not its name


def add_parser(sub) -> None:
    train = sub.add_parser(
        "train", help="GRPO on layout or svg tasks in this process (rollouts and updates "
                      "overlap)",
        description="Sample layout or gen-svg groups with the in-process backend while the learner "
                    "trains on them (TRL's GRPO loss); evaluate greedily on held-out seeds "
                    "before and after; write checkpoints, curves.jsonl, curves.png and "
                    "summary.json to --out.")
    train.add_argument("--model", required=True, help="starting model directory (e.g. SFT's)")
    train.add_argument("--out", type=Path, required=True, help="output folder")
    train.add_argument("--tasks", type=_csv, default=None,
                       help="layout task ids (default: the six generated families), or "
                            "gen-svg (answers scored in a browser pool)")
    # Each default below is the config's (designrl.config.training), shown in --help.
    add_option(train, RolloutSettings, "train_seeds", type=_ints, shown="0-999")
    train.add_argument("--eval-seeds", type=_ints, default=[],
                       help="held-out seeds to evaluate before and after, e.g. 1000000-1000004")
    add_option(train, GRPOSettings, "max_steps", "--steps", type=int)
    add_option(train, RolloutSettings, "group_size", type=int)
    add_option(train, GRPOSettings, "groups_per_step", type=int)
    add_option(train, GRPOSettings, "max_staleness", type=int)
    add_option(train, RolloutSettings, "step_limit", type=int)
    add_option(train, GRPOSettings, "learning_rate", type=float)
    add_option(train, GRPOSettings, "beta", type=float)
    add_option(train, GRPOSettings, "temperature", type=float)
    add_option(train, GRPOSettings, "loss_type")
    add_option(train, GRPOSettings, "seed", type=int, help="training and sampling seed")
    train.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        from designrl.learner.train_workflow import run_train_workflow
    except ImportError as exc:
        print(f"error: {exc} (install the train extra: pip install 'designrl[train]')",
              file=sys.stderr)
        return 1
    from pydantic import ValidationError

    try:
        grpo = GRPOSettings(max_steps=args.steps, groups_per_step=args.groups_per_step,
                            max_staleness=args.max_staleness, seed=args.seed,
                            learning_rate=args.learning_rate, beta=args.beta,
                            temperature=args.temperature, loss_type=args.loss_type)
        rollouts = RolloutSettings(group_size=args.group_size, step_limit=args.step_limit,
                                   train_seeds=args.train_seeds, seed=args.seed,
                                   **({"task_ids": args.tasks} if args.tasks else {}))
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0])
        flag = FLAGS.get(field, "--" + field.replace("_", "-"))
        raise UsageError(f"{flag}: {error['msg'].removeprefix('Value error, ')}") from None

    def show(row: dict) -> None:
        if not args.json:
            print(f"v{row['version']:>3}  reward {row.get('group_reward_mean', 0):+.3f}  "
                  f"valid {row.get('valid_action_rate', 0):.2f}  loss {row.get('loss', 0):+.4f}"
                  f"  staleness {row.get('staleness_mean', 0):.1f}  idle "
                  f"{row['idle_fraction']:.0%}  {row['seconds']:.1f}s", flush=True)

    progress = ProgressLines(sys.stderr)
    try:  # the trainer prints its log lines; with --json, stdout carries the summary alone
        with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
            summary = run_train_workflow(args.model, args.out, rollouts, grpo,
                                         eval_seeds=args.eval_seeds, log=show,
                                         progress=progress)
    except ValueError as exc:  # no model at --model, train seeds in the test split, ...
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
    return 0


class ProgressLines:
    """``run_train_workflow``'s progress as lines on ``out`` (stderr): each stage as it
    starts, and while training, at most one line every ``every`` seconds: updates done,
    groups sampled, trained and dropped by reason, the mean reward sampled so far. A run
    whose every group is dropped (equal rewards: ``no_signal``) says so and what to try."""

    def __init__(self, out, every: float = 15.0) -> None:
        self.out = out
        self.every = every
        self.last = float("-inf")

    def __call__(self, row: dict) -> None:
        if row["stage"] == "train":
            now = time.monotonic()
            if now - self.last < self.every:
                return
            self.last = now
        print(f"designrl train: {progress_line(row)}", file=self.out, flush=True)


def progress_line(row: dict) -> str:
    """One progress row as a line."""
    if row["stage"] == "evaluate":
        return f"evaluating {'the start' if row['when'] == 'before' else 'the result'} " \
               f"greedily on {row['seeds']} held-out seeds per task"
    if row["stage"] == "load":
        return f"loading {row['model']} and sampling the first groups"
    dropped = ", ".join(f"{why} {n}" for why, n in sorted(row["dropped"].items())) or "none"
    reward = "" if row["reward_mean"] is None else f"; mean reward {row['reward_mean']:+.3f}"
    line = (f"{row['version']} updates; groups sampled {row['groups_sampled']}, trained "
            f"{row['groups_trained']}, dropped {dropped}{reward}")
    if not row["groups_trained"] and row["dropped"].get("no_signal", 0) >= 4:
        line += (" (every group so far has equal rewards, nothing to learn from: try a "
                 "higher --temperature, a larger --group-size or other --tasks)")
    return line


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
        before, after = summary["before"], summary["after"]
        for key in ("valid_json_rate", "valid_action_rate", "mean_final_score", "mean_return",
                    "mean_potential_gain"):
            if key in before:  # layout tasks, pooled
                table.add_row(key, f"{before[key]:.3f}", f"{after[key]:.3f}")
        for task_id in (k for k, v in before.items() if isinstance(v, dict)):  # single-turn
            for key in ("valid_rate", "mean_reward"):
                table.add_row(f"{task_id} {key}", f"{before[task_id][key]:.3f}",
                              f"{after[task_id][key]:.3f}")
        console.print(table)
