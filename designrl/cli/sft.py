"""``designrl sft``: fine-tune on the layout expert's answers, optionally DAgger, and
print base vs SFT on held-out seeds."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from designrl.cli.args import UsageError, _csv, _ints, add_option
from designrl.config.training import SFTSettings, SFTWorkflowConfig

if TYPE_CHECKING:  # heavy: imported where the command runs
    from rich.console import Console

    from designrl.learner.sft_workflow import SFTOutcome


def add_parser(sub) -> None:
    sft = sub.add_parser(
        "sft", help="fine-tune a model on the layout expert's answers; evaluate base vs SFT",
        description="Write the expert's chat data (unless --data), fine-tune with TRL's "
                    "SFTTrainer (assistant-only loss), optionally run DAgger rounds (the "
                    "expert answers the model's own rejected steps on unseen train seeds; the "
                    "model trains on those too) and keep the model rejected least on one more "
                    "block of unseen seeds, the same for every model, then "
                    "play held-out test seeds greedily with the base and the kept model and "
                    "print both. Round N's model is OUT/dagger-N.")
    sft.add_argument("--model", required=True, help="the base model's directory")
    sft.add_argument("--out", type=Path, required=True,
                     help="where the trained model goes (sft.jsonl too when written here)")
    sft.add_argument("--data", type=Path, default=None,
                     help="chat JSONL to train on (default: write the expert's)")
    sft.add_argument("--train-seeds", type=_ints, default=None,
                     help="train seeds for the expert data, e.g. 0-29 (default: 0-29)")
    sft.add_argument("--tasks", type=_csv, default=None,
                     help="generated task ids (default: all six layout families); gen-svg "
                          "trains alone: train seeds default to 0-399, the next "
                          "--dagger-seeds validate the checkpoints, 20 test seeds evaluate")
    # Each default below is the config's (designrl.config.training), shown in --help.
    add_option(sft, SFTWorkflowConfig, "prompt_style", choices=("state", "compact", "direct"))
    add_option(sft, SFTWorkflowConfig, "recovery", type=float, help=(
        "share of expert steps followed by a rejected mistake and the expert's answer to "
        "it, so the model learns to recover (0: none)"))
    add_option(sft, SFTWorkflowConfig, "dagger_rounds", type=int,
               help="DAgger rounds after SFT (0: none; see the README on why)")
    add_option(sft, SFTWorkflowConfig, "dagger_seeds", type=int,
               help="unseen train seeds per DAgger round, after the train seeds; one more "
                    "block validates every model")
    add_option(sft, SFTWorkflowConfig, "more_rounds", type=int)
    add_option(sft, SFTWorkflowConfig, "until_valid", type=float)
    add_option(sft, SFTSettings, "epochs", type=float)
    add_option(sft, SFTSettings, "learning_rate", type=float)
    add_option(sft, SFTSettings, "batch_size", type=int, help="examples per optimizer step")
    add_option(sft, SFTSettings, "checkpoints", type=int)
    add_option(sft, SFTSettings, "lora_r", type=int, shown="none, every weight trains",
               help="train a LoRA adapter of this rank")
    sft.add_argument("--eval-seeds", type=_ints, default=None,
                     help="held-out seeds per task (default: 1000000-1000001)")
    add_option(sft, SFTWorkflowConfig, "step_limit", type=int)
    sft.add_argument("--json", action="store_true", help="print the results as JSON")


def run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError
    from rich.console import Console

    from designrl.cli.sft_single_turn import is_single_turn, run_single_turn
    from designrl.learner.sft_workflow import SFTRequestError, run_sft_workflow

    given = {"epochs": args.epochs, "learning_rate": args.learning_rate,
             "batch_size": args.batch_size, "lora_r": args.lora_r,
             "checkpoints": args.checkpoints}
    try:
        config = SFTWorkflowConfig(
            model=args.model, out=args.out, data=args.data, tasks=args.tasks,
            train_seeds=args.train_seeds, prompt_style=args.prompt_style,
            recovery=args.recovery, dagger_rounds=args.dagger_rounds,
            dagger_seeds=args.dagger_seeds, eval_seeds=args.eval_seeds,
            step_limit=args.step_limit, more_rounds=args.more_rounds,
            until_valid=args.until_valid,
            settings=SFTSettings(**{k: v for k, v in given.items() if v is not None}))
    except ValidationError as exc:
        error = exc.errors()[0]
        raise UsageError(f"--{str(error['loc'][-1]).replace('_', '-')}: "
                         f"{error['msg'].removeprefix('Value error, ')}") from None
    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 220)
    if is_single_turn(config.tasks):
        return run_single_turn(config, args.json, console)
    if config.more_rounds:
        raise UsageError("--more-rounds is for gen-svg (layout keeps a checkpoint: "
                         "--checkpoints)")
    try:  # the trainer prints its log lines; with --json, stdout carries the report alone
        with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
            outcome = run_sft_workflow(config, log=console.print)
    except SFTRequestError as exc:  # refused before training; a failure in it propagates
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(outcome, config.settings)
    else:
        _print_table(outcome, console)
    return 0


def _print_json(outcome: SFTOutcome, settings: SFTSettings) -> None:
    print(json.dumps({"model": str(outcome.model),
                      "settings": settings.model_dump(),
                      "first_loss": outcome.losses[0] if outcome.losses else None,
                      "last_loss": outcome.losses[-1] if outcome.losses else None,
                      "dagger_examples": {str(r.model): len(r.examples)
                                          for r in outcome.rounds},
                      "validation_seeds": outcome.validation_seeds,
                      "validation_rejected_rate": {str(p.model): p.rejected_rate
                                                   for p in outcome.played},
                      "seconds": outcome.seconds,
                      **outcome.results}, indent=1))


def _print_table(outcome: SFTOutcome, console: Console) -> None:
    from rich.table import Table

    results, loss = outcome.results, outcome.losses
    added = f" + {len(outcome.rounds)} DAgger rounds" if outcome.rounds else ""
    table = Table(title=f"held-out layout episodes, base vs SFT{added} "
                        f"({results['sft']['episodes']} episodes, greedy)")
    for col in ("model", "JSON ok", "valid act.", "final score", "return", "Φ gain"):
        table.add_column(col, justify="left" if col == "model" else "right")
    for name, row in results.items():
        table.add_row(name, f"{row['valid_json_rate']:.0%}", f"{row['valid_action_rate']:.0%}",
                      f"{row['mean_final_score']:.3f}", f"{row['mean_return']:+.3f}",
                      f"{row['mean_potential_gain']:+.3f}")
    console.print(table)
    if loss:
        console.print(f"train loss {loss[0]:.3f} -> {loss[-1]:.3f}")
    console.print(f"model: {outcome.model} ({outcome.seconds:.0f} s in all)")
