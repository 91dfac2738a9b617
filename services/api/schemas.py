"""Wire types of the API: job requests (validated before anything is stored) and replies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from designrl.policies import LAYOUT_POLICIES
from designrl.tasks import FAMILIES, TASKS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS

Seed = Annotated[int, Field(ge=0, le=2**62)]


class _JobRequest(BaseModel):
    """``tasks``, or ``families`` (every registered task of each), × ``seeds``."""

    model_config = ConfigDict(extra="forbid")

    tasks: list[str] = Field(min_length=1, max_length=100)
    families: list[str] | None = Field(None, min_length=1, max_length=4)
    seeds: list[Seed] = Field(min_length=1, max_length=1000)
    profile: Literal["default", "designgym"] = "default"

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
        for task_id in tasks:
            if task_id not in TASKS:
                raise ValueError(f"unknown task {task_id!r}")
            if TASKS[task_id].family != "layout":
                raise ValueError(f"task {task_id!r} ({TASKS[task_id].family}) needs a "
                                 "language-model policy, which this server does not run yet")
        return tasks

    @model_validator(mode="after")
    def _profile_fits(self):
        if self.profile == "designgym":
            other = [t for t in self.tasks if t not in DESIGNGYM_TASK_IDS]
            if other:
                raise ValueError(f"the designgym profile runs DesignGym's tasks only, not "
                                 f"{', '.join(other)}")
        return self


def _known_policy(policy: str) -> str:
    if policy not in LAYOUT_POLICIES:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(LAYOUT_POLICIES)}")
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
    """For training: every task × seed is one group of ``group_size`` episodes."""

    kind: Literal["rollout"]
    policy: str
    group_size: int = Field(ge=1, le=256)
    policy_version: int | None = Field(None, ge=0)

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
