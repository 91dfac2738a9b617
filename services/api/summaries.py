"""A job's results at a glance, for the Benchmark page: means per family's policy (over
its tasks and per task), with each reward component's mean and the outcomes, and each
policy's mean score against step, per task (layout).

Only the columns the means need are read (never an episode's stored layouts or a
completion), and the steer rate comes out of the summary JSON in SQL, so a large job
summarises cheaply. A policy two families share (``expert``) is two rows: means never
mix families.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict

from sqlalchemy.orm import Session

from designrl.store.reads import (
    SUMMARY_COLUMNS,
    completed_episode_rows,
    completed_reward_components,
    step_scores,
)
from services.api.schemas import EpisodeStats, JobSummary, ScoreCurve

MEANS = (*SUMMARY_COLUMNS, "steer_rate")  # each a column of ``completed_episode_rows``


def job_summary(session: Session, job_id: str) -> JobSummary:
    rows = completed_episode_rows(session, job_id)
    components: dict[str, dict[str, float]] = defaultdict(dict)
    for episode_id, name, value in completed_reward_components(session, job_id):
        components[episode_id][name] = value
    by_policy: dict[tuple[str, str], list] = defaultdict(list)
    by_task: dict[tuple[str, str, str], list] = defaultdict(list)
    for row in rows:
        by_policy[(row["family"], row["policy"])].append(row)
        by_task[(row["family"], row["task_id"], row["policy"])].append(row)
    return JobSummary(
        job_id=job_id,
        policies=[_stats(family, policy, None, rs, components)
                  for (family, policy), rs in by_policy.items()],
        tasks=[_stats(family, policy, task, rs, components)
               for (family, task, policy), rs in sorted(by_task.items())],
        curves=_score_curves(session, job_id, rows))


def _stats(family: str, policy: str, task_id: str | None, rows: list,
           components: dict[str, dict[str, float]]) -> EpisodeStats:
    names = dict.fromkeys(n for r in rows for n in components[r["id"]])
    return EpisodeStats(
        family=family, policy=policy, task_id=task_id, episodes=len(rows),
        **{name: _mean(r[name] for r in rows) for name in MEANS},
        components={n: _mean(components[r["id"]].get(n) for r in rows) for n in names},
        outcomes=dict(Counter(r["outcome"] or "none" for r in rows)))


def _mean(values) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def _score_curves(session: Session, job_id: str, rows: list) -> list[ScoreCurve]:
    """Mean score after each step per (task, policy); step 0 is the start. An episode that
    ended early keeps its last score, so every point averages the same episodes."""
    scores = step_scores(session, job_id)
    series: dict[tuple[str, str], list[list[float]]] = defaultdict(list)
    for row in rows:
        points: list[float] = []
        for score in (row["start_score"], *scores.get(row["id"], [])):
            if score is None and points:
                score = points[-1]  # a step without a score leaves it where it was
            if score is not None:
                points.append(score)
        if points:
            series[(row["task_id"], row["policy"])].append(points)
    curves = []
    for (task_id, policy), runs in sorted(series.items()):
        length = max(len(run) for run in runs)
        held = [run + [run[-1]] * (length - len(run)) for run in runs]
        curves.append(ScoreCurve(task_id=task_id, policy=policy,
                                 scores=[statistics.fmean(col) for col in zip(*held, strict=True)]))
    return curves
