"""How well the svg reward's verdicts agree with people's: free-text prompts, each with a
good and a flawed drawing and a truth table per drawing (which requirements it meets).

The file format (a JSON list)::

    [{"id": "...", "prompt": "...", "requirements": ["...", ...],
      "good":   {"svg": "<svg ...>...</svg>", "truth": [true, ...]},
      "flawed": {"svg": "<svg ...>...</svg>", "truth": [true, false, ...], "broken": "..."}}]

``measure`` scores every drawing (with whatever reward it is given) and ``summarise``
reports: the share of pairs where the good drawing outscores the flawed one; coverage
(requirements with a decided verdict, and with at least one decided atom); precision of
decided verdicts against the truth table; recall (truth-false requirements decided as
fail, truth-true decided as pass).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from designrl.tasks.svg.ladders import fenced
from designrl.tasks.svg.reward import SvgReward, SvgScore

DRAWINGS = ("good", "flawed")


@dataclass(frozen=True)
class Verdict:
    """One requirement of one drawing: the truth, the reward's verdict, and whether any of
    its atoms was decided."""

    item: str
    drawing: str
    requirement: str
    truth: bool
    verdict: str
    atom_decided: bool


@dataclass(frozen=True)
class Pair:
    item: str
    good: float
    flawed: float


def load_set(path: str | Path) -> list[dict]:
    """The entries of a truth-table file, checked for shape (``ValueError`` names the bad one)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list")
    for index, entry in enumerate(data):
        n = len(entry.get("requirements") or [])
        for drawing in DRAWINGS:
            part = entry.get(drawing) or {}
            if not isinstance(part.get("svg"), str) or len(part.get("truth") or []) != n:
                raise ValueError(f"{path}[{index}] ({entry.get('id')}): '{drawing}' needs an "
                                 f"svg and a truth list of {n} booleans")
    return data


async def measure(entries: Sequence[dict], reward: SvgReward) -> tuple[list[Pair], list[Verdict]]:
    """Score both drawings of every entry; their totals, and every requirement's verdict."""
    pairs, verdicts = [], []
    for entry in entries:
        requirements = list(entry["requirements"])
        totals = {}
        for drawing in DRAWINGS:
            part = entry[drawing]
            score: SvgScore = await reward.score(fenced(part["svg"]), requirements)
            if score.error is not None:
                raise RuntimeError(f"{entry['id']} {drawing}: {score.error}")
            totals[drawing] = score.total
            for detail, truth in zip(score.details, part["truth"], strict=True):
                verdicts.append(Verdict(entry["id"], drawing, detail.text, bool(truth),
                                        detail.verdict,
                                        any(a.verdict is not None for a in detail.atoms)))
        pairs.append(Pair(entry["id"], totals["good"], totals["flawed"]))
    return pairs, verdicts


def summarise(pairs: Sequence[Pair], verdicts: Sequence[Verdict]) -> dict[str, float | int]:
    """The agreement figures (see the module docstring); ratios are None where undefined."""
    decided = [v for v in verdicts if v.verdict in ("pass", "fail")]
    correct = [v for v in decided if (v.verdict == "pass") == v.truth]
    false_ = [v for v in verdicts if not v.truth]
    true_ = [v for v in verdicts if v.truth]

    def ratio(a: int, b: int) -> float | None:
        return a / b if b else None

    return {
        "pairs": len(pairs),
        "requirements": len(verdicts),
        "good_beats_flawed": ratio(sum(p.good > p.flawed for p in pairs), len(pairs)),
        "coverage_decided": ratio(len(decided), len(verdicts)),
        "coverage_atom": ratio(sum(v.atom_decided for v in verdicts), len(verdicts)),
        "decided": len(decided),
        "precision": ratio(len(correct), len(decided)),
        "recall_fail": ratio(sum(v.verdict == "fail" for v in false_), len(false_)),
        "recall_pass": ratio(sum(v.verdict == "pass" for v in true_), len(true_)),
        "mean_good": ratio(sum(p.good for p in pairs), len(pairs)),
        "mean_flawed": ratio(sum(p.flawed for p in pairs), len(pairs)),
    }


def mistakes(verdicts: Sequence[Verdict]) -> list[Verdict]:
    """Decided verdicts the truth table contradicts."""
    return [v for v in verdicts if v.verdict in ("pass", "fail") and (v.verdict == "pass") != v.truth]
