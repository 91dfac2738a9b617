"""The benchmark job: policies × tasks × seeds, embedded, with a report.

``designrl bench`` (and ``make run``) runs it on embedded defaults: DesignGym's
three tasks in the ``designgym`` profile (its seeds 0–2, as in its own
benchmark), and DesignGym's tasks plus every generated family in the
``default`` profile on test seeds.
"""

from __future__ import annotations

import json
import os
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from designrl.rollout.episode import EpisodeSpec, layout_row, run_episode_spec
from designrl.tasks.layout.env import GENERATED_TASK_IDS
from designrl.tasks.layout.generate import TEST_SEED_START
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS


@dataclass(frozen=True)
class BenchCase:
    profile: str
    task_id: str
    seed: int
    policy: str


@dataclass
class BenchPlan:
    """What to run. The defaults are the embedded benchmark."""

    policies: list[str] = field(default_factory=lambda: ["random", "rule", "expert"])
    profiles: list[str] = field(default_factory=lambda: ["designgym", "default"])
    designgym_seeds: list[int] = field(default_factory=lambda: [0, 1, 2])
    generated_seeds: list[int] = field(
        default_factory=lambda: [TEST_SEED_START + i for i in range(3)]
    )
    tasks: list[str] | None = None  # None: every task the profile runs

    def cases(self) -> list[BenchCase]:
        out = []
        for profile in self.profiles:
            task_ids = DESIGNGYM_TASK_IDS if profile == "designgym" else (
                DESIGNGYM_TASK_IDS + GENERATED_TASK_IDS)
            for task_id in task_ids:
                if self.tasks and task_id not in self.tasks:
                    continue
                seeds = self.designgym_seeds if task_id in DESIGNGYM_TASK_IDS else self.generated_seeds
                for seed in seeds:
                    for policy in self.policies:
                        out.append(BenchCase(profile, task_id, seed, policy))
        return out


def case_spec(case: BenchCase) -> EpisodeSpec:
    return EpisodeSpec(family="layout", task_id=case.task_id, policy=case.policy,
                       seed=case.seed, profile=case.profile)


def run_case(case: BenchCase) -> dict[str, Any]:
    """Run one episode through ``run_episode_spec``, the call the workers make."""
    spec = case_spec(case)
    return layout_row(spec, run_episode_spec(spec))


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
                EpisodePlan(family="layout", task_id=c.task_id, item_key=str(c.seed),
                            seed=c.seed, policy=c.policy, profile=c.profile) for c in cases])
            return [e.id for e in list_episodes(session, job.id, limit=len(cases))]
    finally:
        engine.dispose()


@cache
def _sessions(database_url: str):
    from designrl.store import make_engine, make_sessionmaker

    return make_sessionmaker(make_engine(database_url))


def run_stored_case(database_url: str, episode_id: str) -> dict[str, Any]:
    """Run a stored episode with the workers' own call (``run_stored_episode``: claim, run,
    write once) and return its row."""
    from designrl.rollout.stored import run_stored_episode

    ran = run_stored_episode(_sessions(database_url), episode_id,
                             worker=f"embedded:{os.getpid()}")
    if ran.record is None:
        raise RuntimeError(f"episode {episode_id} did not run here ({ran.outcome})")
    return layout_row(ran.spec, ran.record)


def summarize(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Means per (profile, task, policy), in the order they first appear."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        groups[(r["profile"], r["task_id"], r["policy"])].append(r)
    rows = []
    for (profile, task_id, policy), rs in groups.items():
        rows.append({
            "profile": profile, "task_id": task_id, "policy": policy, "episodes": len(rs),
            **{k: statistics.fmean(r[k] for r in rs) for k in (
                "start_score", "final_score", "instruction_score", "total_reward", "steps",
                "invalid_actions", "seconds")},
            # default profile: Φ gain (what its return measures); designgym: score gain
            "potential_gain": (statistics.fmean(_gain(r) for r in rs)
                               if rs[0]["start_potential"] is not None else None),
            "worse_than_start": sum(_gain(r) < -1e-12 for r in rs),
            **_llm_means(rs),
        })
    return rows


LLM_STATS = ("valid_json_rate", "model_valid_action_rate", "steer_rate", "prompt_tokens",
             "completion_tokens", "llm_seconds")


def _llm_means(rs: list[dict[str, Any]]) -> dict[str, float]:
    """Per-episode means of a language-model policy's stats (none for heuristics)."""
    stats = [r["policy_stats"] for r in rs if r.get("policy_stats")]
    if not stats:
        return {}
    return {k: statistics.fmean(s[k] for s in stats) for k in LLM_STATS}


def _gain(r: dict[str, Any]) -> float:
    """How much better the episode left the layout, by its profile's own measure."""
    if r["start_potential"] is not None:
        return r["final_potential"] - r["start_potential"]
    return r["final_score"] - r["start_score"]


def write_outputs(results: list[dict[str, Any]], out_dir: Path,
                  report: bool = True) -> dict[str, Path]:
    """results.json and (unless ``report`` is False) report.html with before/after renders."""
    from designrl.report import write_html_report
    from designrl.tasks.layout.env import load_task
    from designrl.tasks.layout.render import layout_to_svg
    from designrl.tasks.layout.spec import Layout

    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / "results.json"
    json_path.write_text(json.dumps({"summary": summarize(results), "episodes": results}, indent=1))
    if not report:
        return {"json": json_path}
    cards = []
    for r in results:
        task = load_task(r["task_id"], r["seed"])
        cards.append({
            **r,
            "before_svg": layout_to_svg(task, Layout.from_json(r["before"])),
            "after_svg": layout_to_svg(task, Layout.from_json(r["after"])),
            "actions": [s["action"] for s in r["actions"]],
        })
    report = write_html_report(cards, out_dir, title="designrl layout benchmark")
    return {"json": json_path, "html": report}
