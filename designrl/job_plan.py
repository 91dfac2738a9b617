"""A job as the episodes it runs: the one expansion ``designrl bench`` and the API share.

A job names, per task, the items it runs (seeds, or a dataset's item ids) and the policies
that run on them; layout tasks also run in profiles. A benchmark runs every task × profile
× item × policy; a rollout runs, for each task × profile × item, one group of
``group_size`` samples of its policy. Which items and which policies is each caller's
choice (the bench's defaults, a request's fields, both checked where they come in); the
order and the shape of the episodes are decided here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from designrl.store.jobs import EpisodePlan
from designrl.tasks import FAMILIES, TASKS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS


@dataclass(frozen=True)
class JobItem:
    """One item of a task: its key in the store (the seed, or the item id), its seed, and the
    id a predictions file answers it by (a generated item's id; None: the key)."""

    key: str
    seed: int | None = None
    item_id: str | None = None


def seeded_items(seeds: Iterable[int]) -> list[JobItem]:
    """A seeded task's items: one per seed, keyed by the seed."""
    return [JobItem(str(seed), seed) for seed in seeds]


@dataclass(frozen=True)
class TaskRun:
    """What a job runs of one task: its items, the policies on them, and a dataset task's
    ``source`` (a registered dataset's name in the services; a path embedded)."""

    task_id: str
    items: Sequence[JobItem]
    policies: Sequence[str]
    source: str | None = None


def task_profiles(task_id: str, profiles: Sequence[str]) -> list[str | None]:
    """The profiles a task runs in: for a layout task, those of ``profiles`` that apply to
    it (``designgym`` runs DesignGym's tasks only); None for a single-turn task."""
    if not FAMILIES[TASKS[task_id].family].multi_turn:
        return [None]
    return [p for p in profiles if p != "designgym" or task_id in DESIGNGYM_TASK_IDS]


def expand_job(runs: Iterable[TaskRun], *, profiles: Sequence[str] = ("default",),
               group_size: int | None = None, policy_version: int | None = None,
               answers: Callable[[str, str], bool] | None = None) -> list[EpisodePlan]:
    """The episodes of a job in a stable order: task, profile, item, then policy (a
    benchmark) or the group's samples (a rollout: ``group_size`` samples of each run's one
    policy, the groups numbered in order). ``answers(policy, item id)``: whether a policy
    has an answer for an item (a predictions file holds only some); None: all do."""
    plans: list[EpisodePlan] = []
    for run in runs:
        family = TASKS[run.task_id].family
        for profile in task_profiles(run.task_id, profiles):
            for item in run.items:
                common = {"family": family, "task_id": run.task_id, "item_key": item.key,
                          "seed": item.seed, "profile": profile, "source": run.source}
                if group_size is not None:
                    (policy,) = run.policies
                    group = len(plans) // group_size
                    plans += [EpisodePlan(**common, policy=policy, group=group,
                                          policy_version=policy_version)
                              for _ in range(group_size)]
                    continue
                plans += [EpisodePlan(**common, policy=policy) for policy in run.policies
                          if answers is None or answers(policy, item.item_id or item.key)]
    return plans
