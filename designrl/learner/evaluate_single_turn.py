"""Evaluation of a language model on a generated single-turn task (``gen-svg``): greedy
episodes on given seeds, through the same episode path as ``designrl bench``.

``evaluate_single_turn`` reports the valid rate (a document was found, parsed safely and
rendered something: the family's ``validity`` and ``non_blank`` both 1), the mean reward
(an invalid answer scores 0), the outcomes, and the pass rate of each kind of atom the
requirements were read into (background, counts, absence, relative position, ...), so a
model that draws valid but wrong pictures shows where it is wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

# The kind of an atom, from the check it prints ("count(red triangle) == 2",
# "blue circle left_of text 'HELLO'"); first match wins, in this order.
_ATOM_KINDS = (
    ("background", re.compile(r"^background ")),
    ("absence", re.compile(r"^count\(.*\) == 0$")),
    ("exact count", re.compile(r"^count\(.*\) == \d+$")),
    ("presence", re.compile(r"^count\(.*\) >= \d+$")),
    ("relative position", re.compile(r" (?:left_of|right_of|above|below) ")),
    ("region", re.compile(r" in [a-z_]+$")),
    ("colour of all", re.compile(r"^all ")),
    ("palette", re.compile(r"^uses ")),
    ("size", re.compile(r"^size ")),
)


@dataclass
class SingleTurnReport:
    """What a model did on a task's seeds."""

    episodes: int
    valid_rate: float
    mean_reward: float
    outcomes: dict[str, int]
    atom_pass_rates: dict[str, float]  # kind -> share of its decided atoms that passed
    rows: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "valid_rate": self.valid_rate,
                "mean_reward": self.mean_reward, "outcomes": self.outcomes,
                "atom_pass_rates": self.atom_pass_rates, "rows": self.rows}


def atom_kind(check: str) -> str:
    """The kind of an atom's check; "other" for one no pattern names."""
    return next((kind for kind, pattern in _ATOM_KINDS if pattern.search(check)), "other")


def evaluate_single_turn(model: str | Path, task_id: str, seeds: Sequence[int], *,
                         max_tokens: int | None = None,
                         on_episode: Callable[[dict[str, Any]], None] | None = None
                         ) -> SingleTurnReport:
    """Greedy episodes of the model at ``model`` on ``task_id``'s ``seeds``, each answer in
    at most ``max_tokens`` (None: the family's budget; an untrained model writes until
    the budget runs out, so a budget near the longest good answer saves most of the time)."""
    from designrl.rollout.episode import EpisodeSpec, run_episode_spec
    from designrl.tasks import family_of

    if not seeds:
        raise ValueError("nothing to evaluate: no seeds")
    family = family_of(task_id)
    rows, passed, decided = [], Counter(), Counter()
    for seed in seeds:
        record = run_episode_spec(EpisodeSpec(family=family, task_id=task_id, seed=seed,
                                              policy=f"llm:{model}", max_tokens=max_tokens))
        rewards = record.rewards or {}
        valid = (record.outcome == "ok" and rewards.get("validity") == 1.0
                 and rewards.get("non_blank") == 1.0)
        details = (record.summary or {}).get("details") or {}
        for requirement in details.get("requirements", []):
            for atom in requirement.get("atoms", []):
                if atom.get("verdict") is not None:
                    kind = atom_kind(atom["check"])
                    decided[kind] += 1
                    passed[kind] += bool(atom["verdict"])
        row = {"seed": seed, "outcome": record.outcome, "valid": valid,
               "reward": record.total_reward or 0.0, "error": record.error}
        rows.append(row)
        if on_episode is not None:
            on_episode(row)
    return SingleTurnReport(
        episodes=len(rows), valid_rate=sum(r["valid"] for r in rows) / len(rows),
        mean_reward=fmean(r["reward"] for r in rows),
        outcomes=dict(Counter(r["outcome"] for r in rows)),
        atom_pass_rates={kind: passed[kind] / n for kind, n in sorted(decided.items())},
        rows=rows)
