"""SFT on a generated single-turn task (``gen-svg``): the expert's answers on train seeds,
TRL's ``SFTTrainer``, the checkpoint that does best on a validation split, and the base
and kept models on held-out test seeds.

The validation seeds are train seeds the data does not use, so choosing a checkpoint
never looks at the test split; a checkpoint is kept for its valid rate first, then its
mean reward (the last one wins a tie: it trained longest). Keeping the final model
blindly once cost a layout run 17 points of valid actions.

A run whose every model is weak on validation (a seed of the svg recipe once peaked at
92.5 % valid) can train on: while the best valid rate is under ``until_valid``, up to
``more_rounds`` further rounds each start from the best model so far and train half as
many epochs as the round before at half its learning rate, the schedule restarted (a
warm restart); their checkpoints join the candidates. The test seeds still play only the one model kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from designrl.config.training import SFTSettings
from designrl.learner.evaluate_single_turn import SingleTurnReport, evaluate_single_turn


@dataclass(frozen=True)
class SingleTurnSFTOutcome:
    """What was trained, which model was kept, and how each did."""

    model: Path  # the kept model
    losses: list[float]
    validation: list[tuple[Path, SingleTurnReport]]  # every candidate, in training order
    base: SingleTurnReport  # on the test seeds
    kept: SingleTurnReport  # on the test seeds
    seconds: dict[str, float]  # data, train, validate, test


def run_single_turn_sft(base_model: str | Path, task_id: str, out: str | Path, *,
                        train_seeds: Sequence[int], validation_seeds: Sequence[int],
                        test_seeds: Sequence[int], base_seeds: Sequence[int] | None = None,
                        settings: SFTSettings | None = None, max_tokens: int | None = None,
                        until_valid: float = 0.0, more_rounds: int = 0,
                        log: Callable[[str], None] = print) -> SingleTurnSFTOutcome:
    """Train ``base_model`` on the expert's answers to ``task_id``'s ``train_seeds`` into
    ``out``; keep the candidate best on ``validation_seeds`` (training up to
    ``more_rounds`` more rounds into ``out/round-N`` while its valid rate is under
    ``until_valid``); evaluate it on ``test_seeds`` and the base model on ``base_seeds``
    (default: the test seeds), every answer in at most ``max_tokens``
    (``evaluate_single_turn``)."""
    from designrl.learner.sft import candidate_models, losses, train_sft
    from designrl.learner.sft_data import teacher_examples, write_jsonl
    from designrl.policies import check_model_dir

    _check_seeds(task_id, train_seeds, validation_seeds, test_seeds)
    check_model_dir(base_model)
    out, seconds = Path(out), {"train": 0.0, "validate": 0.0}
    settings = settings or SFTSettings()
    started = time.perf_counter()
    data = out / "sft.jsonl"
    count = write_jsonl(teacher_examples(task_id, "expert", list(train_seeds)), data)
    log(f"expert data: {count} examples in {data}")
    seconds["data"] = _lap(started)
    validation: list[tuple[Path, SingleTurnReport]] = []

    def validate(model: Path) -> None:
        for candidate in candidate_models(model):
            report = evaluate_single_turn(candidate, task_id, validation_seeds,
                                          max_tokens=max_tokens)
            log(f"{candidate.relative_to(out.parent)}: valid {report.valid_rate:.0%}, "
                f"reward {report.mean_reward:.3f} on {report.episodes} validation seeds")
            validation.append((candidate, report))

    trained, best_model, round_settings = [], base_model, settings
    for round_number in range(more_rounds + 1):
        model = out / f"round-{round_number}" if round_number else out
        if round_number:
            round_settings = round_settings.model_copy(update={
                "epochs": round_settings.epochs / 2, "seed": settings.seed + round_number,
                "learning_rate": round_settings.learning_rate / 2})
            log(f"best valid rate {_best(validation)[1].valid_rate:.0%} < "
                f"{until_valid:.0%}: round {round_number} from {best_model}")
        started = time.perf_counter()
        trained.append(train_sft(best_model, data, model, round_settings))
        seconds["train"] += _lap(started)
        started = time.perf_counter()
        validate(model)
        seconds["validate"] += _lap(started)
        best_model, best = _best(validation)
        if best.valid_rate >= until_valid:
            break
    started = time.perf_counter()
    kept_report = evaluate_single_turn(best_model, task_id, test_seeds, max_tokens=max_tokens)
    base_report = evaluate_single_turn(base_model, task_id,
                                       test_seeds if base_seeds is None else base_seeds,
                                       max_tokens=max_tokens)
    seconds["test"] = _lap(started)
    return SingleTurnSFTOutcome(model=best_model, losses=[x for m in trained for x in losses(m)],
                                validation=validation,
                                base=base_report, kept=kept_report, seconds=seconds)


def _check_seeds(task_id: str, train: Sequence[int], validation: Sequence[int],
                 test: Sequence[int]) -> None:
    """``ValueError`` unless train and validation seeds are disjoint train seeds and the
    test seeds are test seeds, of a generated task with an expert to learn from."""
    from designrl.tasks import FAMILIES, TASKS, is_test_item

    task = TASKS.get(task_id)
    if task is None or task.generate is None or FAMILIES[task.family].multi_turn:
        known = [t for t, v in TASKS.items()
                 if v.generate is not None and not FAMILIES[v.family].multi_turn]
        raise ValueError(f"unknown task {task_id!r}; generated single-turn tasks: "
                         f"{', '.join(known)}")
    if not (train and validation and test):
        raise ValueError("train, validation and test seeds are all needed")
    if set(train) & set(validation):
        raise ValueError("validation seeds must not be trained on")
    if any(is_test_item(task_id, seed) for seed in [*train, *validation]):
        raise ValueError("train and validation seeds must be in the train split")
    if not all(is_test_item(task_id, seed) for seed in test):
        raise ValueError("test seeds must be in the test split")


def _best(validation: list[tuple[Path, SingleTurnReport]]) -> tuple[Path, SingleTurnReport]:
    """The candidate valid most often, then rewarded most (the later one on a tie: it
    trained longest)."""
    return max(reversed(validation), key=lambda pair: (pair[1].valid_rate,
                                                       pair[1].mean_reward))


def _lap(started: float) -> float:
    return round(time.perf_counter() - started, 1)
