"""The benchmark job: policies × tasks × items of every family, embedded, with a report.

``designrl bench`` (and ``make run``) runs it on embedded defaults:

* layout: DesignGym's three tasks in the ``designgym`` profile (its seeds 0–2, as in
  its own benchmark), and DesignGym's tasks plus every generated family in the
  ``default`` profile on test seeds;
* html, svg, webpage: every task that needs no file of the user's (generated tasks on
  test seeds, designrl's own prompt sets whole), with each family's model-free
  policies. Dataset tasks (``design2code``, ``websight``, ``svgbench``) run when given
  a path.

A policy runs on every family that accepts it; ``predictions:NAME`` runs on the
families whose items its file names. With a ``judge`` (a ``JudgeConfig``), the families
that have a judge score with it (svg: SVGBench's judge, its verdicts beside the computed
ones; webpage: OpenDesign's rubric); its key is never stored.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from designrl.bench_report import summarize, summarize_single_turn, write_outputs
from designrl.job_plan import JobItem, TaskRun, expand_job, seeded_items
from designrl.judge import JudgeConfig
from designrl.policies import (
    LLM_PREFIX,
    VLLM_PREFIX,
    accepts_policy,
    check_model_dir,
    policy_names,
)
from designrl.rollout.episode import EpisodeSpec, layout_row, run_episode_spec
from designrl.rollout.record import EpisodeRecord
from designrl.rollout.single_turn import EpisodeContext
from designrl.tasks import FAMILIES, TASKS, get_family, load_items
from designrl.tasks.family import TEST_SEED_START, Task
from designrl.tasks.layout.env import PROFILES
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS

DEFAULT_PROFILES = ("designgym", "default")


@dataclass(frozen=True)
class BenchCase:
    family: str
    task_id: str
    policy: str
    seed: int | None = None
    item_key: str | None = None
    profile: str | None = None  # layout only
    source: str | None = None  # a dataset task's path


@dataclass
class BenchPlan:
    """What to run. The defaults are the embedded benchmark.

    ``validate`` (and ``cases``) raise a ``ValueError`` for a plan that cannot mean what
    it says: an unknown family, task, profile or policy (naming the known ones), a model
    directory with no model, profiles with no layout task to run them, a task chosen by
    id that nothing selected runs (saying why), or no episodes at all."""

    policies: list[str] | None = None  # None: each family's model-free policies
    families: list[str] = field(default_factory=lambda: list(FAMILIES))
    profiles: list[str] | None = None  # layout: None: both (DEFAULT_PROFILES)
    designgym_seeds: list[int] = field(default_factory=lambda: [0, 1, 2])
    generated_seeds: list[int] = field(
        default_factory=lambda: [TEST_SEED_START + i for i in range(3)])
    tasks: list[str] | None = None  # None: every task that needs no path
    paths: dict[str, str] = field(default_factory=dict)  # dataset task -> its file or folder
    items_limit: int | None = None  # dataset tasks: the first N items (None: all)
    # predictions:NAME policies run only on the items their file holds (NAME -> item ids)
    prediction_items: dict[str, set[str]] = field(default_factory=dict)
    judge: JudgeConfig | None = None  # the judge of the families that have one

    def validate(self) -> None:
        """``ValueError`` naming what is unknown, with the valid values."""
        for name in self.families:
            get_family(name)
        for task_id in self.tasks or ():
            if task_id not in TASKS:
                raise ValueError(f"unknown task {task_id!r}; known: {', '.join(TASKS)}")
            if TASKS[task_id].family not in self.families:
                raise ValueError(f"task {task_id} is a {TASKS[task_id].family} task, and the "
                                 f"families selected are {', '.join(self.families)}")
        for task_id in self.paths:
            if task_id not in TASKS or TASKS[task_id].load is None:
                raise ValueError(f"{task_id!r} takes no path; dataset tasks: " + ", ".join(
                    t.id for t in TASKS.values() if t.load is not None))
            if (self.tasks is not None and task_id not in self.tasks) or \
                    TASKS[task_id].family not in self.families:
                raise ValueError(f"a path is given for {task_id}, which is not selected")
        for profile in self.profiles or ():
            if profile not in PROFILES:
                raise ValueError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
        for policy in self.policies or ():
            self._check_policy(policy)
        judged = [f for f in FAMILIES if FAMILIES[f].judge is not None]
        if self.judge is not None and not set(judged) & set(self.families):
            raise ValueError(f"a judge scores {', '.join(judged)} tasks, and the families "
                             f"selected are {', '.join(self.families)}")
        if self.profiles is not None and not any(
                self._runs(t) for t in FAMILIES["layout"].tasks if "layout" in self.families):
            raise ValueError("profiles apply to layout tasks, and no layout task is selected"
                             f" (families: {', '.join(self.families)}"
                             + (f"; tasks: {', '.join(self.tasks)})" if self.tasks else ")"))

    def _check_policy(self, policy: str) -> None:
        if policy.startswith(VLLM_PREFIX):
            raise ValueError(f"{policy!r} samples from an inference server, and the bench "
                             f"runs models in this process: give {LLM_PREFIX}<model directory>")
        if not any(accepts_policy(FAMILIES[f], policy) for f in self.families):
            known = sorted({p for f in self.families for p in FAMILIES[f].policies})
            others = [f for f in FAMILIES if accepts_policy(FAMILIES[f], policy)]
            what = (f"policy {policy!r} runs on {', '.join(others)}, which is not selected"
                    if others else f"unknown policy {policy!r}")
            raise ValueError(f"{what}; the selected families take: {', '.join(known)}, "
                             f"{LLM_PREFIX}<model directory>, predictions:<file>")
        if policy.startswith(LLM_PREFIX):
            check_model_dir(policy[len(LLM_PREFIX):])

    def cases(self) -> list[BenchCase]:
        """Every episode of the plan (``expand_job``, as the API expands a job);
        ``ValueError`` when one of ``tasks`` would run none (saying why) or the plan has
        none."""
        self.validate()
        out: list[BenchCase] = []
        for family in (FAMILIES[f] for f in self.families):
            policies = self._policies(family)
            for task in family.tasks:
                if not self._runs(task):
                    continue
                run = TaskRun(task.id, self._items(task), policies, self.paths.get(task.id))
                mine = [BenchCase(p.family, p.task_id, p.policy, p.seed, p.item_key, p.profile,
                                  p.source)
                        for p in expand_job([run], profiles=self.chosen_profiles,
                                            answers=self._answers)]
                if not mine and self.tasks is not None:
                    raise ValueError(f"task {task.id} would run no episode: "
                                     + self._why_not(task, policies))
                out += mine
        if not out:
            raise ValueError("the plan has no episodes: no selected task runs any of the "
                             f"policies ({', '.join(self.policies or ['defaults'])})")
        return out

    def _policies(self, family) -> list[str]:
        return [p for p in (self.policies or family.policies) if accepts_policy(family, p)]

    def _why_not(self, task: Task, policies: list[str]) -> str:
        """Why a task chosen by id runs no episode (``cases`` found none)."""
        family = FAMILIES[task.family]
        if not policies:
            return (f"none of the policies given ({', '.join(self.policies or ())}) runs "
                    f"on {family.name} tasks; they take: " + ", ".join(
                        p for p in policy_names(family) if not p.startswith(VLLM_PREFIX)))
        if family.multi_turn and task.id not in DESIGNGYM_TASK_IDS and \
                "default" not in self.chosen_profiles:
            return (f"it runs only in profile default, and the profiles are "
                    f"{', '.join(self.chosen_profiles)} (designgym runs DesignGym's tasks: "
                    f"{', '.join(DESIGNGYM_TASK_IDS)})")
        if not self.chosen_profiles and family.multi_turn:
            return "no profile is given"
        if task.seeded and not (self.designgym_seeds if task.id in DESIGNGYM_TASK_IDS
                                else self.generated_seeds):
            return "no seeds are given for it"
        return "no policy given has an answer for any of its items"

    @property
    def chosen_profiles(self) -> list[str]:
        """The layout profiles that run (``profiles``, else both)."""
        return list(DEFAULT_PROFILES) if self.profiles is None else self.profiles

    def _runs(self, task: Task) -> bool:
        if self.tasks is not None:
            return task.id in self.tasks
        return not task.needs_path or task.id in self.paths

    def _items(self, task: Task) -> list[JobItem]:
        """The items the task runs: DesignGym's on its seeds, generated ones on the
        generated seeds, a dataset task's (the first ``items_limit``)."""
        if task.id in DESIGNGYM_TASK_IDS:
            return seeded_items(self.designgym_seeds)
        if task.generate is not None:  # a predictions file answers its items by their ids
            return [JobItem(str(seed), seed, task.generate(seed).id)
                    for seed in self.generated_seeds]
        if task.seeded:
            return seeded_items(self.generated_seeds)
        items = load_items(task.id, self.paths.get(task.id), self.items_limit)
        return [JobItem(item.id) for item in items]

    def _answers(self, policy: str, item_id: str) -> bool:
        name = policy.removeprefix("predictions:")
        return name == policy or item_id in self.prediction_items.get(name, ())


def case_spec(case: BenchCase) -> EpisodeSpec:
    return EpisodeSpec(family=case.family, task_id=case.task_id, policy=case.policy,
                       seed=case.seed, item_key=case.item_key, profile=case.profile,
                       source=case.source)


def episode_row(spec: EpisodeSpec, record: EpisodeRecord,
                episode_id: str | None = None) -> dict[str, Any]:
    """One flat row of a record (what the summary, results.json and the report read)."""
    if get_family(spec.family).multi_turn:
        return {**layout_row(spec, record), "episode_id": episode_id}
    return {"episode_id": episode_id, "family": spec.family, "task_id": spec.task_id,
            "policy": spec.policy, "item_key": spec.item_key, "seed": spec.seed,
            "outcome": record.outcome, "error": record.error,
            "total_reward": record.total_reward, "components": dict(record.rewards),
            "seconds": record.seconds, "images": sorted(record.images),
            "details": record.summary.get("details", {})}


def store_job(database_url: str, cases: list[BenchCase], spec: dict[str, Any]) -> list[str]:
    """The benchmark as a job in the store (embedded: SQLite), as the API would store it;
    returns its episode ids in case order."""
    from designrl.store import make_engine, make_sessionmaker, upgrade
    from designrl.store.jobs import EpisodePlan, create_job, list_episodes

    upgrade(database_url)
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as session:
            job = create_job(session, kind="benchmark", spec=spec, plans=[
                EpisodePlan(family=c.family, task_id=c.task_id, item_key=c.item_key,
                            seed=c.seed, policy=c.policy, profile=c.profile, source=c.source)
                for c in cases])
            return [e.id for e in list_episodes(session, job.id, limit=len(cases))]
    finally:
        engine.dispose()


@cache
def _predictions(files: tuple[tuple[str, str], ...]):
    from designrl.policies.predictions import load_predictions

    sets = {name: load_predictions(path) for name, path in files}
    return lambda name, item_id: sets.get(name, {}).get(item_id)


@cache
def _context(predictions: tuple[tuple[str, str], ...],
             judge: JudgeConfig | None) -> EpisodeContext:
    """Per process, as a worker's: what single-turn episodes use (its scorers, and their
    judge's connection, serve every episode the process runs)."""
    return EpisodeContext(predictions=_predictions(predictions), judge=judge)


def run_stored_case(database_url: str, episode_id: str,
                    predictions: tuple[tuple[str, str], ...] = (),
                    judge: JudgeConfig | None = None) -> dict[str, Any]:
    """Run a stored episode with the workers' own call (``run_stored_episode``: claim, run,
    write once) and return its row. ``predictions``: (set name, JSONL file) pairs;
    ``judge``: the judge of the families that have one."""
    from designrl.rollout.stored import run_stored_episode
    from designrl.store.engine import shared_sessionmaker

    ran = run_stored_episode(shared_sessionmaker(database_url), episode_id,
                             worker=f"embedded:{os.getpid()}",
                             context=_context(predictions, judge))
    if ran.record is None:
        raise RuntimeError(f"episode {episode_id} did not run here ({ran.outcome})")
    if ran.record.outcome == "error" and get_family(ran.spec.family).multi_turn:
        # a layout row is its steps and scores; an episode that raised has none (it is
        # recorded in the store): the bench stops with what went wrong
        raise RuntimeError(f"{ran.spec.policy} on {ran.spec.task_id} seed {ran.spec.seed}: "
                           f"{ran.record.error}")
    return episode_row(ran.spec, ran.record, episode_id)


def run_case(case: BenchCase) -> dict[str, Any]:
    """Run one episode through ``run_episode_spec`` without the store."""
    spec = case_spec(case)
    return episode_row(spec, run_episode_spec(spec))


@dataclass(frozen=True)
class BenchOutcome:
    """A finished benchmark: the summaries it printed from and the files it wrote."""

    summary: list[dict[str, Any]]  # layout rows
    single_turn: list[dict[str, Any]]  # render-family rows
    paths: dict[str, Path]  # "json" and, with the report, "html"


def run_bench(plan: BenchPlan, cases: list[BenchCase], out_dir: Path, *,
              predictions: tuple[tuple[str, str], ...] = (), database_url: str | None = None,
              workers: int = 1, report: bool = True,
              on_episode: Callable[[], None] = lambda: None) -> BenchOutcome:
    """Store ``plan``'s ``cases`` as one job (default: SQLite in ``out_dir``), run every
    episode through the workers' call in ``workers`` processes, and write results.json
    and the report. ``on_episode`` is called as each episode finishes (a progress bar)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    database_url = database_url or f"sqlite:///{(out_dir / 'designrl.db').resolve()}"
    judge = plan.judge.public() if plan.judge is not None else None  # never the key
    spec = {**asdict(plan), "profiles": plan.chosen_profiles, "prediction_items": None,
            "predictions": [path for _, path in predictions], "judge": judge}
    episode_ids = store_job(database_url, cases, {"embedded": True, **spec})
    run = partial(run_stored_case, database_url, predictions=predictions, judge=plan.judge)
    results = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for result in pool.map(run, episode_ids):
                results.append(result)
                on_episode()
    else:
        for episode_id in episode_ids:
            results.append(run(episode_id))
            on_episode()
    summary = summarize(results)
    single_turn = summarize_single_turn(results, judged=plan.judge is not None)
    paths = write_outputs(results, out_dir, report=report, database_url=database_url,
                          judge=judge)
    return BenchOutcome(summary, single_turn, paths)
