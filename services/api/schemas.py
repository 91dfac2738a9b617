"""Wire types of the API: job requests (validated before anything is stored) and replies."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from designrl.policies import LATEST_POLICY, LAYOUT_POLICIES, VLLM_PREFIX
from designrl.tasks import FAMILIES, TASKS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS

Seed = Annotated[int, Field(ge=0, le=2**62)]
Profile = Literal["default", "designgym"]
SERVED_POLICY = re.compile(re.escape(VLLM_PREFIX) + r"[A-Za-z0-9][A-Za-z0-9._/-]{0,127}")
RUNNABLE_FAMILIES = ("layout",)  # the others need language-model policies


class _JobRequest(BaseModel):
    """``tasks``, or ``families`` (every registered task of each), × ``seeds``."""

    model_config = ConfigDict(extra="forbid")

    tasks: list[str] = Field(min_length=1, max_length=100)
    families: list[str] | None = Field(None, min_length=1, max_length=4)
    seeds: list[Seed] = Field(min_length=1, max_length=1000)
    profile: Profile = "default"

    @model_validator(mode="before")
    @classmethod
    def _families_to_tasks(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if data.get("families") is None:
            if data.get("tasks") is None:
                raise ValueError("give tasks (task ids) or families (all their tasks)")
            return data
        if data.get("tasks") is not None:
            raise ValueError("give tasks or families, not both")
        families = data["families"]
        if not isinstance(families, list) or not all(isinstance(f, str) for f in families):
            return data  # the field's own validation says what is wrong
        unknown = [f for f in families if f not in FAMILIES]
        if unknown:
            raise ValueError(f"unknown family {unknown[0]!r}; known: {', '.join(FAMILIES)}")
        designgym = data.get("profile") == "designgym"
        tasks = [t for t, task in TASKS.items() if task.family in families
                 and (not designgym or t in DESIGNGYM_TASK_IDS)]
        return {**data, "tasks": tasks}

    @field_validator("tasks")
    @classmethod
    def _known_runnable_tasks(cls, tasks: list[str]) -> list[str]:
        return [_runnable_task(t) for t in tasks]

    @model_validator(mode="after")
    def _profile_fits(self):
        _check_profile(self.profile, self.tasks)
        return self


def _runnable_task(task_id: str) -> str:
    if task_id not in TASKS:
        raise ValueError(f"unknown task {task_id!r}")
    if TASKS[task_id].family not in RUNNABLE_FAMILIES:
        raise ValueError(f"task {task_id!r} ({TASKS[task_id].family}) needs a "
                         "language-model policy, which this server does not run yet")
    return task_id


def _check_profile(profile: str, tasks: list[str]) -> None:
    if profile == "designgym":
        other = [t for t in tasks if t not in DESIGNGYM_TASK_IDS]
        if other:
            raise ValueError(f"the designgym profile runs DesignGym's tasks only, not "
                             f"{', '.join(other)}")


def _known_policy(policy: str) -> str:
    """A heuristic policy, or a model on the workers' inference server (``vllm:NAME``,
    ``vllm:latest``); never ``llm:PATH``, which would load a path of the client's choosing."""
    if policy not in LAYOUT_POLICIES and not SERVED_POLICY.fullmatch(policy):
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(LAYOUT_POLICIES)}, "
                         f"{VLLM_PREFIX}<served model name> or {LATEST_POLICY}")
    return policy


class BenchmarkJobRequest(_JobRequest):
    """Every task × seed × policy, one episode each."""

    kind: Literal["benchmark"]
    policies: list[str] = Field(min_length=1, max_length=20)

    @field_validator("policies")
    @classmethod
    def _known_policies(cls, policies: list[str]) -> list[str]:
        return [_known_policy(p) for p in policies]


class RolloutJobRequest(_JobRequest):
    """For training: every task × seed is one group of ``group_size`` sampled episodes.
    ``vllm:latest`` with no ``policy_version`` samples the learner's newest version."""

    kind: Literal["rollout"]
    policy: str
    group_size: int = Field(ge=1, le=256)
    policy_version: int | None = Field(None, ge=0)
    temperature: float = Field(1.0, ge=0, le=2, description="sampling temperature")

    @field_validator("policy")
    @classmethod
    def _known(cls, policy: str) -> str:
        return _known_policy(policy)


JobRequest = Annotated[BenchmarkJobRequest | RolloutJobRequest, Field(discriminator="kind")]


class Progress(BaseModel):
    queued: int
    running: int
    completed: int
    failed: int
    cancelled: int


class JobOut(BaseModel):
    id: str
    kind: str
    status: str
    owner: str | None
    spec: dict[str, Any]
    episodes_total: int
    progress: Progress
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None


class JobPage(BaseModel):
    items: list[JobOut]
    next_cursor: str | None


class EpisodeOut(BaseModel):
    id: str
    job_id: str
    position: int
    family: str
    task_id: str
    item_key: str
    seed: int | None
    policy: str
    profile: str | None
    status: str
    outcome: str | None
    attempts: int
    start_score: float | None
    final_score: float | None
    instruction_score: float | None
    total_reward: float | None
    valid_action_rate: float | None
    steps_count: int | None
    seconds: float | None
    error: str | None
    links: dict[str, str]


class EpisodePage(BaseModel):
    items: list[EpisodeOut]
    next_after: int | None


class StepOut(BaseModel):
    index: int
    action: dict[str, Any] | None
    valid: bool
    reward: float | None
    score: float | None
    error: str | None


class EpisodeDetail(EpisodeOut):
    steps: list[StepOut]
    rewards: dict[str, float]
    summary: dict[str, Any] | None


class RunRequest(BaseModel):
    """One episode to watch in the web UI: run as a one-episode benchmark job, unless the same
    episode (task, seed, policy, profile) has finished already."""

    model_config = ConfigDict(extra="forbid")

    task: str
    seed: Seed
    policy: str
    profile: Profile = "default"

    @field_validator("task")
    @classmethod
    def _runnable(cls, task: str) -> str:
        return _runnable_task(task)

    @field_validator("policy")
    @classmethod
    def _known(cls, policy: str) -> str:
        return _known_policy(policy)

    @model_validator(mode="after")
    def _profile_fits(self):
        _check_profile(self.profile, [self.task])
        return self

    def as_job(self) -> BenchmarkJobRequest:
        return BenchmarkJobRequest(kind="benchmark", tasks=[self.task], seeds=[self.seed],
                                   policies=[self.policy], profile=self.profile)


class RunOut(BaseModel):
    cached: bool  # True: a finished episode, shown at once; False: a new job, watch it run
    job_id: str
    episode: EpisodeOut


class FamilyOut(BaseModel):
    name: str
    runnable: bool  # whether this server runs its episodes (layout: heuristic policies)


class TaskOut(BaseModel):
    id: str
    family: str
    source: str
    designgym: bool  # runs under the designgym profile too


class Catalog(BaseModel):
    """What a run or a benchmark can be made of, for the web UI's forms."""

    families: list[FamilyOut]
    tasks: list[TaskOut]
    policies: list[str]
    profiles: list[str]


class EpisodeStats(BaseModel):
    """Means over a job's completed episodes of one policy (on one task, or on all)."""

    policy: str
    task_id: str | None  # None: every task of the job
    episodes: int
    final_score: float | None
    instruction_score: float | None
    total_reward: float | None
    valid_action_rate: float | None
    steer_rate: float | None  # language-model policies only
    seconds: float | None  # per episode


class ScoreCurve(BaseModel):
    task_id: str
    policy: str
    scores: list[float]  # mean score after each step (0: the start); ended episodes hold


class JobSummary(BaseModel):
    job_id: str
    policies: list[EpisodeStats]
    tasks: list[EpisodeStats]
    curves: list[ScoreCurve]


class TrainingRunOut(BaseModel):
    name: str
    updates: int
    last_version: int | None
    updated_at: datetime


class TrainingRunDetail(TrainingRunOut):
    curves: list[dict[str, Any]]  # the learner's curves.jsonl rows, as written
    checkpoints: list[int]  # complete checkpoints (their versions)
    summary: dict[str, Any] | None  # summary.json of an embedded run


class PolicyVersionOut(BaseModel):
    version: int
    name: str
    created_at: datetime


class VersionsOut(BaseModel):
    current: int | None  # the newest version the learner announced (None: none, or no Redis)
    versions: list[PolicyVersionOut]
