"""``designrl sft``'s workflow: the expert's data, SFT, optional DAgger rounds, the model
kept by validation, and base vs kept model on held-out test seeds.

``run_sft_workflow`` checks the request and writes the expert's chat data before it
trains anything, so a bad request (``SFTRequestError``) costs no training time. Every
model is validated on the same block of unseen train seeds and evaluated greedily
with the prompt style it trained on (see ``designrl.learner.dagger``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from designrl.config.training import SFTWorkflowConfig
from designrl.learner.dagger import Played, Round
from designrl.tasks.family import TEST_SEED_START


class SFTRequestError(ValueError):
    """The request is refused before any training: no model at its path, no data file, an
    unknown task, evaluation seeds that are not test seeds, bad DAgger counts, or expert
    data that could not be made."""


@dataclass(frozen=True)
class SFTOutcome:
    """What the workflow trained, kept and measured."""

    model: Path  # the kept model: the one rejected least on the validation seeds, of SFT's
    # saved checkpoints, its final model and every DAgger round's
    losses: list[float]  # SFT's train loss per logging step
    rounds: list[Round]
    validation_seeds: list[int]
    played: list[Played]  # every model on the validation seeds (none without rounds or
    # checkpoints)
    results: dict[str, dict[str, Any]]  # "base" and "sft": evaluate_layout's report
    seconds: float


def run_sft_workflow(config: SFTWorkflowConfig,
                     log: Callable[[str], None] = print) -> SFTOutcome:
    """Write the expert's data (unless ``config.data``), fine-tune, run the DAgger rounds,
    keep the best model and evaluate it and the base model. ``log`` gets progress lines."""
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.dagger import best_model, dagger_rounds, round_settings, validate
    from designrl.learner.evaluate import evaluate_layout
    from designrl.learner.sft import candidate_models, losses, train_sft
    from designrl.tasks.layout.env import GENERATED_TASK_IDS
    from designrl.tasks.layout.prompt import prompt_style_of

    tasks = config.tasks or list(GENERATED_TASK_IDS)
    eval_seeds = config.eval_seeds or [TEST_SEED_START, TEST_SEED_START + 1]
    train_seeds = config.train_seeds or list(range(30))
    try:
        blocks = _check_request(config, tasks, train_seeds, eval_seeds)
        started = time.perf_counter()
        data = config.data or _write_expert_data(config, tasks, train_seeds, log)
    except ValueError as exc:  # pydantic's ValidationError is one
        raise SFTRequestError(str(exc)) from exc
    sft_model = train_sft(config.model, data, config.out, config.settings)
    loss = losses(sft_model)
    style = prompt_style_of(sft_model)
    rounds = list(dagger_rounds(sft_model, data, config.out, blocks[:-1], task_ids=tasks,
                                style=style, settings=round_settings(config.settings.seed),
                                step_limit=config.step_limit))
    played = [validate(model, tasks, blocks[-1], style=style, step_limit=config.step_limit)
              for model in [*candidate_models(sft_model), *(r.model for r in rounds)]
              ] if blocks else []
    for run in played:
        log(f"{run.model}: {run.rejected_rate:.1%} of {run.steps} steps rejected "
            f"on the validation seeds")
    kept = best_model(played).model if played else sft_model
    results = {name: evaluate_layout(TransformersBackend(str(path)), tasks, eval_seeds,
                                     step_limit=config.step_limit,
                                     prompt_style=style)  # both, as trained
               for name, path in (("base", config.model), ("sft", kept))}
    return SFTOutcome(model=kept, losses=loss, rounds=rounds,
                      validation_seeds=list(blocks[-1]) if blocks else [], played=played,
                      results=results, seconds=time.perf_counter() - started)


def _check_request(config: SFTWorkflowConfig, tasks: list[str], train_seeds: list[int],
                   eval_seeds: list[int]) -> list[range]:
    """``ValueError`` for a request that cannot train; else the DAgger seed blocks."""
    from designrl.learner.dagger import seed_blocks
    from designrl.policies import check_model_dir
    from designrl.tasks.layout.env import GENERATED_TASK_IDS

    check_model_dir(config.model)
    if config.data is not None and not config.data.is_file():
        raise ValueError(f"no chat data at {config.data} (--data takes a JSONL file)")
    unknown = [t for t in tasks if t not in GENERATED_TASK_IDS]
    if unknown:
        raise ValueError(f"unknown task {unknown[0]!r}; known: {', '.join(GENERATED_TASK_IDS)}")
    if any(seed < TEST_SEED_START for seed in eval_seeds):
        raise ValueError(f"--eval-seeds must be test seeds (>= {TEST_SEED_START})")
    if config.dagger_rounds < 0 or config.dagger_seeds < 1:
        raise ValueError("--dagger-rounds must be >= 0 and --dagger-seeds >= 1")
    return seed_blocks(train_seeds, config.dagger_rounds, config.dagger_seeds,
                       validate=config.settings.checkpoints > 0)


def _write_expert_data(config: SFTWorkflowConfig, tasks: list[str], train_seeds: list[int],
                       log: Callable[[str], None]) -> Path:
    """The expert's chat examples on the train seeds, as OUT/sft.jsonl."""
    from designrl.learner.sft_data import expert_examples, write_jsonl

    data = config.out / "sft.jsonl"
    count = write_jsonl(expert_examples(tasks, train_seeds,
                                        style=config.prompt_style,
                                        recovery=config.recovery), data)
    log(f"expert data: {count} examples in {data}")
    return data
