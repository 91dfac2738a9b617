"""Wire types of the requests that start work: benchmark and rollout jobs and the web UI's
one-episode runs, validated before anything is stored (known tasks, items that exist,
policies and profiles the tasks' families run), and the checks they share."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from designrl.policies import (
    LLM_PREFIX,
    PREDICTIONS_PREFIX,
    VLLM_PREFIX,
    accepts_policy,
    policy_names,
)
from designrl.tasks import FAMILIES, TASKS
from designrl.tasks.family import Family
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS
from services.api.settings import DATASET_NAME

Seed = Annotated[int, Field(ge=0, le=2**62)]
ItemId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Profile = Literal["default", "designgym"]
SERVED_POLICY = re.compile(re.escape(VLLM_PREFIX) + r"[A-Za-z0-9][A-Za-z0-9._/-]{0,127}")
PREDICTIONS_POLICY = re.compile(re.escape(PREDICTIONS_PREFIX) + r"[A-Za-z0-9_-]{1,32}")


class ItemRange(BaseModel):
    """Items ``start`` (from 0) up to ``stop`` (excluded; None: to the end) of a dataset, in
    its order; a stop past the end stops at the end."""

    model_config = ConfigDict(extra="forbid")

    start: int = Field(0, ge=0)
    stop: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _ordered(self):
        if self.stop is not None and self.stop <= self.start:
            raise ValueError(f"item_range: stop ({self.stop}) must be after start ({self.start})")
        return self


class _JobRequest(BaseModel):
    """``tasks``, or ``families`` (every task of each that needs no dataset file), × their
    items: ``seeds`` for seeded tasks (layout's, gen-html, gen-svg), ``items`` (ids) or
    ``item_range`` for dataset tasks; ``dataset`` names a dataset the operator registered
    (``GET /v1/catalog`` lists them) for tasks that read one."""

    model_config = ConfigDict(extra="forbid")

    tasks: list[str] = Field(min_length=1, max_length=100)
    families: list[str] | None = Field(None, min_length=1, max_length=len(FAMILIES))
    seeds: list[Seed] | None = Field(None, min_length=1, max_length=1000)
    items: list[ItemId] | None = Field(None, min_length=1, max_length=1000)
    item_range: ItemRange | None = None
    dataset: str | None = Field(None, max_length=500)
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
                 and not task.needs_path and (not designgym or t in DESIGNGYM_TASK_IDS)]
        return {**data, "tasks": tasks}

    @field_validator("tasks")
    @classmethod
    def _known_tasks(cls, tasks: list[str]) -> list[str]:
        return [known_task(t) for t in tasks]

    @field_validator("dataset")
    @classmethod
    def _a_name(cls, dataset: str | None) -> str | None:
        return None if dataset is None else dataset_name(dataset)

    @model_validator(mode="after")
    def _items_fit(self):
        check_items(self.tasks, self.seeds, self.items, self.item_range, self.dataset)
        check_profile(self.profile, self.tasks)
        return self


def known_task(task_id: str) -> str:
    if task_id not in TASKS:
        raise ValueError(f"unknown task {task_id!r}; known: {', '.join(TASKS)}")
    return task_id


def dataset_name(dataset: str) -> str:
    """A dataset is named, never located: a path is refused before anything looks it up."""
    if not re.fullmatch(DATASET_NAME, dataset):
        raise ValueError(f"dataset {dataset[:100]!r} is not a dataset name: name one the "
                         "operator registered (GET /v1/catalog lists them); paths are not "
                         "accepted")
    return dataset


def check_items(tasks: list[str], seeds: list[int] | None, items: list[str] | None,
                item_range: ItemRange | None, dataset: str | None) -> None:
    """Each task gets items it can name: seeds for seeded tasks, ids or a range for dataset
    tasks, and a dataset for those that read one."""
    seeded = [t for t in tasks if TASKS[t].seeded]
    named = [t for t in tasks if not TASKS[t].seeded]
    if items is not None and item_range is not None:
        raise ValueError("give items or item_range, not both")
    if seeded and seeds is None:
        raise ValueError(f"{', '.join(seeded)}: items are seeds; give seeds")
    if seeds is not None and not seeded:
        raise ValueError(f"seeds were given, but {', '.join(named)} name items by id: give "
                         "items or item_range instead")
    if named and items is None and item_range is None:
        raise ValueError(f"{', '.join(named)}: items are named by id; give items (ids) or "
                         'item_range ({"start": 0, "stop": 10})')
    if not named and (items is not None or item_range is not None):
        raise ValueError(f"items and item_range name dataset items, but {', '.join(seeded)} "
                         "name items by seed: give seeds")
    reading = [t for t in named if TASKS[t].reads_path]
    if dataset is not None and not reading:
        raise ValueError(f"dataset names the file of a dataset task; {', '.join(tasks)} "
                         "read none")
    for task_id in named:
        task = TASKS[task_id]
        if task.needs_path and dataset is None:
            raise ValueError(f"task {task_id} reads {task.source}: name a registered dataset "
                             "in dataset (GET /v1/catalog lists them)")


def check_profile(profile: str, tasks: list[str]) -> None:
    if profile == "designgym":
        other = [t for t in tasks if t not in DESIGNGYM_TASK_IDS]
        if other:
            raise ValueError(f"the designgym profile runs DesignGym's tasks only, not "
                             f"{', '.join(other)}")


def server_policy_names(family: Family) -> list[str]:
    """What a family's policy may be called in a request: never ``llm:PATH``, which would
    load a path of the client's choosing on the workers."""
    return policy_names(family, served=True)


def runs_policy(family: Family, policy: str) -> bool:
    """Whether a server runs ``policy`` on ``family``'s tasks."""
    if policy.startswith(LLM_PREFIX) or not accepts_policy(family, policy):
        return False
    if policy.startswith(VLLM_PREFIX):
        return bool(SERVED_POLICY.fullmatch(policy))
    if policy.startswith(PREDICTIONS_PREFIX):
        return bool(PREDICTIONS_POLICY.fullmatch(policy))
    return True


def check_policies(policies: list[str], tasks: list[str], *, every: bool = True) -> None:
    """Each policy runs every task's family (``every``: a rollout's one policy) or at least
    one of them (a benchmark runs each policy on the tasks whose family takes it); what a
    server must not run is refused (``llm:``). The error lists what the family accepts."""
    families = {TASKS[t].family: FAMILIES[TASKS[t].family] for t in tasks}
    for policy in policies:
        refusing = [f for f in families.values() if not runs_policy(f, policy)]
        if not refusing or (not every and len(refusing) < len(families)):
            continue
        family = refusing[0]
        known = ", ".join(server_policy_names(family))
        if len(refusing) == len(families):
            raise ValueError(f"unknown policy {policy[:140]!r} for {family.name} tasks; "
                             f"known: {known}")
        its = ", ".join(t for t in tasks if TASKS[t].family == family.name)
        raise ValueError(f"policy {policy!r} does not run {family.name} tasks ({its}); "
                         f"{family.name} policies: {known}")


class BenchmarkJobRequest(_JobRequest):
    """Every task × item × policy whose family runs it, one episode each."""

    kind: Literal["benchmark"]
    policies: list[str] = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _policies_fit(self):
        check_policies(self.policies, self.tasks, every=False)
        return self


class RolloutJobRequest(_JobRequest):
    """For training: every task × item is one group of ``group_size`` sampled episodes.
    ``vllm:latest`` with no ``policy_version`` samples the learner's newest version."""

    kind: Literal["rollout"]
    policy: str
    group_size: int = Field(ge=1, le=256)
    policy_version: int | None = Field(None, ge=0)
    temperature: float = Field(1.0, ge=0, le=2, description="sampling temperature")

    @model_validator(mode="after")
    def _policy_fits(self):
        check_policies([self.policy], self.tasks)
        return self


JobRequest = Annotated[BenchmarkJobRequest | RolloutJobRequest, Field(discriminator="kind")]


class RunRequest(BaseModel):
    """One episode to watch in the web UI: run as a one-episode benchmark job, unless the same
    episode (task, item, policy, profile, dataset) has finished already. ``seed`` names the
    item of a seeded task, ``item`` a dataset task's."""

    model_config = ConfigDict(extra="forbid")

    task: str
    seed: Seed | None = None
    item: ItemId | None = None
    policy: str
    profile: Profile = "default"
    dataset: str | None = Field(None, max_length=500)

    @field_validator("task")
    @classmethod
    def _known_task(cls, task: str) -> str:
        return known_task(task)

    @field_validator("dataset")
    @classmethod
    def _a_name(cls, dataset: str | None) -> str | None:
        return None if dataset is None else dataset_name(dataset)

    @model_validator(mode="after")
    def _fits(self):
        check_items([self.task], None if self.seed is None else [self.seed],
                    None if self.item is None else [self.item], None, self.dataset)
        check_policies([self.policy], [self.task])
        check_profile(self.profile, [self.task])
        return self

    def as_job(self) -> BenchmarkJobRequest:
        return BenchmarkJobRequest(
            kind="benchmark", tasks=[self.task], policies=[self.policy], profile=self.profile,
            seeds=None if self.seed is None else [self.seed],
            items=None if self.item is None else [self.item], dataset=self.dataset)
