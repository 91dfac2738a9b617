"""``run_episode_spec``: the one call that runs an episode, embedded or in a worker.

An ``EpisodeSpec`` names what to run (family, task, seed or item, policy); the
result is an ``EpisodeRecord``. The embedded benchmark and the Celery workers both
call this, so a job run through the services gives the same records as the same
job run in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from designrl.policies import InferenceServer
from designrl.rollout.record import EpisodeRecord, StepRecord
from designrl.rollout.single_turn import EpisodeContext, run_single_turn
from designrl.tasks import get_family

OnStep = Callable[[StepRecord], object]  # sees each step as it is taken (live viewers)


class EpisodeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    family: str
    task_id: str
    policy: str
    seed: int | None = None
    item_key: str | None = None  # a dataset item's id (single-turn families)
    profile: str | None = None  # layout: "default" or "designgym"
    policy_version: int | None = None
    step_limit: int = 64
    temperature: float = 0.0  # language-model policies: 0 is greedy
    max_tokens: int | None = Field(None, ge=1)  # language-model policies: tokens an answer
    # may take (None: the family's budget, 4,096 for a drawing, 128 for a layout action)
    sampling_seed: int | None = None  # sampled episodes of one group differ by this
    source: str | None = None  # a dataset task's file: a registered name, or (embedded) a path


def run_episode_spec(spec: EpisodeSpec, server: InferenceServer | None = None,
                     on_step: OnStep | None = None, *,
                     context: EpisodeContext | None = None) -> EpisodeRecord:
    """Run the episode ``spec`` names (``vllm:`` policies sample on ``server``). Unknown
    families, tasks, items and policies raise ``ValueError`` (a bad job, caught before
    anything runs); a bad step or page is a scored record. ``on_step`` gets each step of
    a multi-turn episode, in order, equal to the record's ``steps`` item it becomes.
    ``context``: the browser pool, prediction sets and datasets single-turn episodes use."""
    if get_family(spec.family).multi_turn:
        return _run_layout(spec, server, on_step)
    context = context or EpisodeContext()
    if server is not None and context.server is None:
        context = replace(context, server=server)
    return run_single_turn(spec, context)


def _run_layout(spec: EpisodeSpec, server: InferenceServer | None,
                on_step: OnStep | None) -> EpisodeRecord:
    from designrl.policies import make_layout_policy
    from designrl.rollout.layout_episode import run_episode
    from designrl.tasks.layout.env import LayoutEnv

    seed = 0 if spec.seed is None else spec.seed
    env = LayoutEnv(profile=spec.profile or "default")
    policy = make_layout_policy(spec.policy, seed=(seed if spec.sampling_seed is None
                                                   else spec.sampling_seed),
                                temperature=spec.temperature, server=server,
                                version=spec.policy_version, max_tokens=spec.max_tokens)
    each = None if on_step is None else (lambda entry: on_step(StepRecord.from_layout(entry)))
    raw = run_episode(env, policy, spec.task_id, seed, step_limit=spec.step_limit, on_step=each)
    return EpisodeRecord.from_layout(raw)


def layout_row(spec: EpisodeSpec, record: EpisodeRecord) -> dict[str, Any]:
    """A layout record as one flat row (what the benchmark summary and report read)."""
    summary = record.summary
    row = {
        "policy": spec.policy, "task_id": spec.task_id, "family": summary["family"],
        "profile": summary["profile"], "seed": spec.seed,
        "start_score": record.start_score, "final_score": record.final_score,
        "start_instruction_score": summary["start_instruction_score"],
        "instruction_score": record.instruction_score,
        "start_potential": record.rewards.get("start_potential"),
        "final_potential": record.rewards.get("final_potential"),
        "total_reward": record.total_reward, "steps": len(record.steps),
        "invalid_actions": summary["invalid_actions"], "done": summary["done"],
        "seconds": record.seconds, "before": summary["before"], "after": summary["after"],
        "actions": [{"action": s.action, "reward": s.reward, "score": s.score,
                     "instruction_score": (s.info or {}).get("instruction_score"),
                     "potential": (s.info or {}).get("potential"), "error": s.error}
                    for s in record.steps],
    }
    if "policy_stats" in summary:
        row["policy_stats"] = summary["policy_stats"]
    return row
