"""Wire types of the API: job requests (validated before anything is stored) and replies."""

from __future__ import annotations

import re
from datetime import datetime
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


class Progress(BaseModel):
    """A job's episodes by status; ``failed`` counts episodes that ran and gave no result
    too. They add up to the job's episodes."""

    queued: int
    running: int
    completed: int
    failed: int
    cancelled: int


JobStatus = Literal["queued", "running", "completed", "completed_with_errors", "failed",
                    "cancelled"]


class JobOut(BaseModel):
    """``status``: ``completed`` (every episode gave a result), ``completed_with_errors``
    (some failed: ``error`` says how many and the first reason), ``failed`` (all did),
    ``cancelled`` (``episodes_ran`` of them ran before). ``episodes_ran``: how many ran to
    an end (``progress.completed + progress.failed``), never the cancelled ones."""

    id: str
    kind: str
    status: JobStatus
    owner: str | None
    spec: dict[str, Any]
    episodes_total: int
    episodes_ran: int
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
    item_key: str  # the seed, or the dataset item's id
    seed: int | None
    source: str | None  # the registered dataset a dataset task's item came from
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
    images: list[str]  # renders it stored: GET links[name] (/images/{name}.png)
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
    rewards: dict[str, float]  # the reward's named components
    completion: str | None  # single-turn: the policy's whole answer
    details: dict[str, Any] | None  # single-turn: requirement verdicts, findings, interactions
    summary: dict[str, Any] | None  # the rest of the stored summary
    brief: dict[str, Any] | None = None  # layout: the brief's goal and required regions


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


class RunOut(BaseModel):
    cached: bool  # True: a finished episode, shown at once; False: a new job, watch it run
    job_id: str
    episode: EpisodeOut


class TaskOut(BaseModel):
    id: str
    family: str
    source: str  # what its items are
    needs_path: bool  # it reads a dataset file: a job names a registered ``dataset``
    seeded: bool  # items are seeds (else dataset items, named by id)
    designgym: bool  # runs under the designgym profile too
    items: list[str] | None = None  # a shipped set's item ids (None: seeds, or a user's file)


class FamilyOut(BaseModel):
    name: str
    summary: str
    multi_turn: bool
    components: list[str]  # the reward's named components
    oracles: list[str]  # policies that see the answer (ceilings, not models)
    tasks: list[TaskOut]
    policies: list[str]  # what a job may name: model-free, served models, the prefixes
    runnable: bool  # the web UI's Run page shows its episodes step by step (multi-turn)


class Catalog(BaseModel):
    """What a run or a benchmark can be made of: the families with their tasks and policies,
    the registered datasets, the served models; ``tasks``, ``policies`` and ``profiles`` are
    the web UI's Run page lists."""

    families: list[FamilyOut]
    tasks: list[TaskOut]
    policies: list[str]  # the Run page's: model-free policies of its (multi-turn) families
    profiles: list[str]
    datasets: list[str]  # registered dataset names (a job's ``dataset``)
    served_models: list[str]  # on the inference server (``vllm:NAME``); empty: none known


class PredictionSetIn(BaseModel):
    """Completions you already have, by item id; a benchmark job then names the set as the
    policy ``predictions:<id>``."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=100, pattern=r"^[^\x00-\x1f\x7f]+$")
    items: dict[ItemId, str] = Field(min_length=1)


class PredictionSetOut(BaseModel):
    id: str
    name: str | None
    owner: str | None
    items: int  # how many completions it holds
    bytes: int  # their size (UTF-8, ids included)
    policy: str  # what a job names it as
    created_at: datetime


class EpisodeStats(BaseModel):
    """Means over a job's completed episodes of one family's policy (on one task, or on all
    the family's tasks in the job). ``components``: means of each named reward component
    over the episodes that have it; ``outcomes``: episodes per outcome."""

    family: str
    policy: str
    task_id: str | None  # None: every task of the family in the job
    episodes: int
    final_score: float | None
    instruction_score: float | None
    total_reward: float | None
    valid_action_rate: float | None
    steer_rate: float | None  # language-model policies only
    seconds: float | None  # per episode
    components: dict[str, float] = {}
    outcomes: dict[str, int] = {}


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


class TrainingSample(BaseModel):
    """One sample an update trained on (``samples.jsonl``), with its picture when its
    episode is stored here."""

    version: int  # the update that trained on it
    group_id: str
    task_id: str
    item_key: str
    episode_id: str
    sampled_by: int | None = None  # the policy version that sampled it
    reward: float | None = None
    outcome: str | None = None
    text: str = ""  # what the model wrote (cut at 2,000 characters)
    picture: str | None = None  # an image path under /v1/episodes, or None


class TrainingRunDetail(TrainingRunOut):
    curves: list[dict[str, Any]]  # the learner's curves.jsonl rows, as written
    checkpoints: list[int]  # complete checkpoints (their versions)
    samples: list[TrainingSample] = []  # a few per update, oldest first
    summary: dict[str, Any] | None  # summary.json of an embedded run


class TrainingSourcesOut(BaseModel):
    runs_dir: str  # each child holding curves.jsonl is a run
    adapter_store: str  # policy-vN folders


class PolicyVersionOut(BaseModel):
    version: int
    name: str
    created_at: datetime


class VersionsOut(BaseModel):
    current: int | None  # the newest version the learner announced (None: none, or no Redis)
    versions: list[PolicyVersionOut]
