"""A job request as the episodes it will run: every task × item (× policy, or × group).

The request's shape was checked already (``services.api.schemas``); what needs the
server is checked here: the dataset is one the operator registered, a dataset task's
item ids exist and an item range becomes ids (the registered file is read, as the
workers will), and a ``predictions:<id>`` policy names a set of the submitting key's.
Each problem is a ``PlanError`` whose message says what to change.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session

from designrl.job_plan import JobItem, TaskRun, expand_job, seeded_items
from designrl.policies import PREDICTIONS_PREFIX
from designrl.store.jobs import EpisodePlan
from designrl.store.models import ApiKey
from designrl.store.predictions import prediction_set_owner
from designrl.tasks import FAMILIES, TASKS, load_items
from services.api.job_requests import (
    BenchmarkJobRequest,
    ItemRange,
    RolloutJobRequest,
    runs_policy,
)


class PlanError(ValueError):
    """A request the server cannot run as asked (a 422)."""


def job_plans(body: BenchmarkJobRequest | RolloutJobRequest,
              datasets: Mapping[str, str]) -> list[EpisodePlan]:
    """The episodes a request asks for (``expand_job``: task, item, then policy, or the
    group's samples). ``item_key`` is the seed or the item id; ``source`` the dataset name."""
    path = registered_path(body.dataset, datasets)
    rollout = isinstance(body, RolloutJobRequest)
    runs = []
    for task_id in body.tasks:
        family = FAMILIES[TASKS[task_id].family]
        source = body.dataset if TASKS[task_id].reads_path else None
        policies = [body.policy] if rollout else \
            [p for p in body.policies if runs_policy(family, p)]
        runs.append(TaskRun(task_id, task_items(body, task_id, path if source else None),
                            policies, source))
    if rollout:
        return expand_job(runs, profiles=[body.profile], group_size=body.group_size,
                          policy_version=body.policy_version)
    return expand_job(runs, profiles=[body.profile])


def registered_path(dataset: str | None, datasets: Mapping[str, str]) -> str | None:
    if dataset is None:
        return None
    if dataset not in datasets:
        known = ", ".join(sorted(datasets)) or "none are registered on this server"
        raise PlanError(f"unknown dataset {dataset!r}; registered: {known}")
    return datasets[dataset]


def task_items(body: BenchmarkJobRequest | RolloutJobRequest, task_id: str,
               path: str | None) -> list[JobItem]:
    """The items the request runs of the task."""
    if TASKS[task_id].seeded:
        return seeded_items(body.seeds or ())
    dataset = body.dataset if path is not None else None
    return [JobItem(item_id) for item_id in dataset_items(task_id, path, dataset,
                                                          body.items, body.item_range)]


def dataset_items(task_id: str, path: str | None, dataset: str | None,
                  items: list[str] | None, item_range: ItemRange | None) -> list[str]:
    """The ids of ``items`` (each checked to exist), or of the ``item_range``."""
    where = f"{task_id} ({dataset})" if dataset else task_id
    try:
        ids = [item.id for item in load_items(task_id, path)]
    except (OSError, ValueError) as exc:
        raise PlanError(f"{where}: its items could not be read: {exc}") from None
    if items is not None:
        known = set(ids)
        missing = [i for i in items if i not in known]
        if missing:
            shown = ", ".join(ids[:20]) + (", ..." if len(ids) > 20 else "")
            raise PlanError(f"{where} has no item {missing[0]!r}; its items: {shown}")
        return list(items)
    assert item_range is not None  # the request's check: items or a range
    if item_range.start >= len(ids):
        raise PlanError(f"{where} has {len(ids)} items; item_range starts at "
                        f"{item_range.start}")
    return ids[item_range.start:item_range.stop]


def check_prediction_sets(session: Session, key: ApiKey, policies: list[str]) -> None:
    """Each ``predictions:<id>`` policy names a stored set of this key's (an admin's: any)."""
    for policy in policies:
        if not policy.startswith(PREDICTIONS_PREFIX):
            continue
        set_id = policy[len(PREDICTIONS_PREFIX):]
        found = prediction_set_owner(session, set_id)
        if found is None or (key.role != "admin" and found.owner != key.name):
            raise PlanError(f"{policy}: this key has no prediction set {set_id!r} "
                            "(POST /v1/prediction-sets stores one)")
