"""Training configs: GRPO, the embedded rollouts, SFT and the SFT workflow.

Plain pydantic models, importable without torch or the task families, so the
``designrl`` command builds its ``train`` and ``sft`` options (defaults and help)
from them and the learner service nests ``GRPOSettings`` in its settings: each
default is written here once. Checks that need the task registry import it when
they run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from designrl.config.common import PromptStyle


def _generated_task_ids() -> list[str]:
    from designrl.tasks.layout.env import GENERATED_TASK_IDS

    return list(GENERATED_TASK_IDS)


class GRPOSettings(BaseModel):
    """How the learner trains. Defaults suit the tiny model on CPU."""

    model_config = ConfigDict(extra="forbid")

    loss_type: Literal["dapo", "grpo", "dr_grpo", "bnpo", "cispo", "sapo", "luspo",
                       "vespo"] = Field("dapo", description="TRL's loss type")
    # lr 1e-4 with β 0.1: the tiny model's return took off within 30-40 updates on
    # every seed tried; at 1e-5 it did not move in 100 (bench/RESULTS.md)
    learning_rate: float = Field(1e-4, gt=0, description="peak learning rate (AdamW)")
    beta: float = Field(0.1, ge=0, description="KL coefficient against the starting weights "
                                              "(keeps the policy near SFT; 0 turns it off)")
    epsilon: float = Field(0.2, gt=0, description="PPO clip range")
    temperature: float = Field(1.0, gt=0,
                               description="the sampler's temperature (logprobs are compared "
                                           "at the temperature they were sampled at)")
    scale_rewards: Literal["group", "none"] = Field(
        "group", description="divide advantages by the group's reward spread (group) or not")
    groups_per_step: int = Field(2, ge=1, description="scored groups per update")
    max_staleness: int = Field(1, ge=0, description="drop groups sampled more than this many "
                                                    "versions before the current one")
    max_steps: int = Field(40, ge=1, description="updates (policy versions) to train")
    checkpoint_every: int = Field(1, ge=1, description="updates between checkpoints")
    keep_checkpoints: int = Field(2, ge=1, description="newest checkpoints kept on disk")
    lora_r: int | None = Field(None, ge=1, description="train a LoRA adapter of this rank "
                                                      "instead of every weight")
    lora_alpha: int = Field(32, ge=1, description="LoRA scaling (alpha / r)")
    max_grad_norm: float = Field(1.0, gt=0, description="gradient clipping norm")
    gradient_checkpointing: bool = Field(False, description="trade compute for memory "
                                                            "(large models)")
    seed: int = Field(0, description="initialisation and data order")


class RolloutSettings(BaseModel):
    """What the rollout thread samples."""

    model_config = ConfigDict(extra="forbid")

    task_ids: list[str] = Field(default_factory=_generated_task_ids, description=(
        "task ids groups are drawn from: layout tasks, or generated single-turn tasks whose "
        "prompt is text (gen-svg)"))
    train_seeds: list[int] = Field(default_factory=lambda: list(range(1000)),
                                   description="seeds groups are drawn from (train split)")
    group_size: int = Field(12, ge=2, description="episodes per group (one task and seed)")
    step_limit: int = Field(8, ge=1, description="steps per episode")
    max_tokens: int = Field(64, ge=1, description="tokens per layout action")
    completion_tokens: int = Field(1024, ge=1, description=(
        "tokens per single-turn answer (the svg expert's longest drawing is about 870)"))
    prompt_style: PromptStyle | None = Field(None, description=(
        "layout prompt; None: the one the starting model was trained on"))
    seed: int = Field(0, description="order of the items and sampling seeds")

    @field_validator("task_ids")
    @classmethod
    def _layout_tasks(cls, task_ids: list[str]) -> list[str]:
        from designrl.learner.single_turn_rollouts import check_text_only
        from designrl.tasks.layout.env import LAYOUT_TASK_IDS

        for task_id in task_ids:
            if task_id in LAYOUT_TASK_IDS:
                continue
            try:
                check_text_only(task_id)
            except ValueError as exc:
                raise ValueError(f"{exc}; known: {', '.join(LAYOUT_TASK_IDS)}, "
                                 f"gen-svg") from None
        if not task_ids:
            raise ValueError("no task to sample groups from")
        return task_ids

    @field_validator("train_seeds")
    @classmethod
    def _train_split(cls, seeds: list[int]) -> list[int]:
        from designrl.tasks.family import TEST_SEED_START

        if not seeds:
            raise ValueError("no seed to sample groups from")
        if any(seed >= TEST_SEED_START for seed in seeds):
            raise ValueError(f"train seeds must be below the test seeds ({TEST_SEED_START})")
        return seeds


class SFTSettings(BaseModel):
    """How to fine-tune. The defaults train the tiny model (``designrl model tiny``) from
    random weights to answer the compact layout prompt with valid actions: a small
    model learns fast at a high learning rate, and the prompts fit in 1,024 tokens."""

    model_config = ConfigDict(extra="forbid")

    epochs: float = Field(5.0, gt=0, description="passes over the data")
    learning_rate: float = Field(5e-3, gt=0, description="peak learning rate (AdamW)")
    batch_size: int = Field(16, ge=1, description=(
        "examples per optimizer step (16 rather than 8: the tiny model passes 95% valid "
        "actions on every seed tried, for about 11% more time)"))
    max_length: int = Field(1024, ge=16, description=(
        "tokens per example; longer ones are dropped, never truncated (a cut answer "
        "teaches nothing)"))
    warmup_ratio: float = Field(0.05, ge=0, lt=1, description="share of steps warming up")
    lr_scheduler: str = Field("cosine", description="transformers' scheduler name")
    weight_decay: float = Field(0.0, ge=0, description="AdamW weight decay")
    lora_r: int | None = Field(None, ge=1, description=(
        "LoRA rank; None trains every weight (right for the tiny model)"))
    lora_alpha: int = Field(32, ge=1, description="LoRA scaling (alpha / r)")
    lora_dropout: float = Field(0.0, ge=0, lt=1, description="dropout on the LoRA path")
    seed: int = Field(0, description="data order and initialisation of new weights")
    checkpoints: int = Field(0, ge=0, description=(
        "models saved along the way, evenly spaced (CHECKPOINTS/checkpoint-STEP), besides "
        "the last: the ones to choose from on validation data (0: the last only)"))
    logging_steps: int = Field(10, ge=1, description="optimizer steps between loss logs")
    progress: bool = Field(False, description="show TRL's progress bar")


class SFTWorkflowConfig(BaseModel):
    """What ``designrl sft`` trains and evaluates. Empty lists mean the defaults."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="the base model's directory")
    out: Path = Field(description="where the trained model goes (and sft.jsonl, if written)")
    data: Path | None = Field(None, description="chat JSONL to train on (None: the expert's)")
    tasks: list[str] | None = Field(None, description="generated task ids (None: all six)")
    train_seeds: list[int] | None = Field(None, description="expert data seeds (None: 0-29)")
    prompt_style: PromptStyle = Field("state", description=(
        "the prompt the model learns to answer (state: compact without the action grammar, "
        "which the model learns from the data)"))
    recovery: float = Field(0.3, ge=0, le=1, description="share of expert steps followed by a mistake")
    dagger_rounds: int = Field(0, ge=0, description="DAgger rounds after SFT (0: none)")
    dagger_seeds: int = Field(20, ge=1, description="unseen train seeds per DAgger round")
    eval_seeds: list[int] | None = Field(None, description=(
        "held-out seeds per task (None: the first two test seeds)"))
    step_limit: int = Field(8, ge=1, description="steps per evaluation and validation episode")
    more_rounds: int = Field(0, ge=0, description=(
        "gen-svg: rounds trained on from the best model while no model reaches "
        "until_valid on the validation seeds (0: none)"))
    until_valid: float = Field(0.95, ge=0, le=1, description=(
        "gen-svg: the valid-SVG rate on the validation seeds that ends training"))
    settings: SFTSettings = Field(default_factory=SFTSettings, description="how to fine-tune")



class TrainConfig(BaseModel):
    """``designrl train``'s settings as one file: what is sampled and how it trains."""

    model_config = ConfigDict(extra="forbid")

    rollouts: RolloutSettings = Field(default_factory=RolloutSettings,
                                      description="what the rollout thread samples")
    grpo: GRPOSettings = Field(default_factory=GRPOSettings, description="how it trains")
