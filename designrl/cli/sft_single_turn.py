"""``designrl sft --tasks gen-svg``: SFT on a generated single-turn task's expert, the
checkpoint kept on a validation block of train seeds, base vs kept on test seeds
(``designrl.learner.single_turn_sft``)."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import TYPE_CHECKING

from designrl.cli.args import UsageError
from designrl.config.training import SFTWorkflowConfig

if TYPE_CHECKING:
    from rich.console import Console

TRAIN_ITEMS = 400  # default train seeds 0-399: what the tiny model needs for valid SVG
TEST_ITEMS = 20
LONGEST = 2048  # tokens an example may take: a drawing is longer than a layout action


def is_single_turn(tasks: list[str] | None) -> bool:
    """Whether ``tasks`` name a generated single-turn task (then this command trains it);
    mixing one with layout tasks is a usage error."""
    from designrl.tasks import TASKS, get_family

    single = [t for t in tasks or [] if t in TASKS and not get_family(TASKS[t].family).multi_turn]
    if single and len(tasks or []) > 1:
        raise UsageError(f"--tasks: {single[0]} trains alone (one single-turn task, or "
                         f"layout tasks)")
    return bool(single)


def run_single_turn(config: SFTWorkflowConfig, as_json: bool, console: Console) -> int:
    from designrl.learner.single_turn_sft import run_single_turn_sft
    from designrl.tasks.family import TEST_SEED_START

    if config.data is not None or config.dagger_rounds:
        raise UsageError("--data and --dagger-rounds are for layout tasks")
    task = config.tasks[0]
    train = config.train_seeds or list(range(TRAIN_ITEMS))
    start = max(train) + 1
    validation = list(range(start, start + config.dagger_seeds))
    test = config.eval_seeds or list(range(TEST_SEED_START, TEST_SEED_START + TEST_ITEMS))
    settings = config.settings
    if "max_length" not in settings.model_fields_set:
        settings = settings.model_copy(update={"max_length": LONGEST})
    try:
        with contextlib.redirect_stdout(sys.stderr if as_json else sys.stdout):
            outcome = run_single_turn_sft(config.model, task, config.out, train_seeds=train,
                                          validation_seeds=validation, test_seeds=test,
                                          settings=settings, until_valid=config.until_valid,
                                          more_rounds=config.more_rounds, log=console.print)
    except ValueError as exc:  # refused before training (seeds, task, model)
        raise UsageError(str(exc)) from None
    results = {"base": outcome.base.as_dict(), "sft": outcome.kept.as_dict()}
    if as_json:
        print(json.dumps({"model": str(outcome.model), "settings": settings.model_dump(),
                          "validation": {str(p): r.as_dict() for p, r in outcome.validation},
                          "seconds": outcome.seconds, **results}, indent=1))
        return 0
    from rich.table import Table

    table = Table(title=f"{task} test seeds, base vs SFT ({outcome.kept.episodes} episodes, "
                        f"greedy)")
    for col in ("model", "valid", "mean reward"):
        table.add_column(col, justify="left" if col == "model" else "right")
    for name, report in (("base", outcome.base), ("sft", outcome.kept)):
        table.add_row(name, f"{report.valid_rate:.0%}", f"{report.mean_reward:.3f}")
    console.print(table)
    rates = ", ".join(f"{k} {v:.0%}" for k, v in outcome.kept.atom_pass_rates.items())
    console.print(f"atoms passed (sft): {rates or 'none decided'}")
    console.print(f"model: {outcome.model} (kept on {len(validation)} validation seeds)")
    return 0
