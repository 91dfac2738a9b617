"""Wire types of the API's replies (and the prediction set a client uploads); the requests
that start jobs and runs are in ``job_requests``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

from services.api.job_requests import ItemId


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
    # the policy version that sampled it: a rollout's, or for ``vllm:latest`` the learner's
    # newest when the episode started (None: not a versioned policy, or not started yet)
    policy_version: int | None
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
    episode is stored here or, for a layout sample, can be replayed."""

    version: int  # the update that trained on it
    group_id: str
    task_id: str
    item_key: str
    episode_id: str
    sampled_by: int | None = None  # the policy version that sampled it
    reward: float | None = None
    outcome: str | None = None
    text: str = ""  # what the model wrote (cut at 2,000 characters)
    picture: str | None = None  # its image under /v1, or None
    # stored: its episode's; replayed: a layout's completions replayed; drawn: its text
    # drawn by the render pool (that picture may still be a placeholder with the reason in
    # its X-Picture-Problem header, when the page fails in the browser)
    picture_kind: Literal["stored", "replayed", "drawn"] | None = None
    picture_problem: str | None = None  # why it has no picture, where its text says
    stored: bool = False  # its episode is in this API's store (GET /v1/episodes/{id})


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
