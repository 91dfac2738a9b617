"""Does the svg reward read free-text requirements as people do? Truth tables, no judge.

    python bench/svg_requirements.py [FILE ...] [--json] [--show-mistakes]

Each FILE (default: the development set, ``tests/tasks/svg/data/freetext_dev.json``)
holds free-text prompts, each with a good and a flawed drawing and a truth table per
drawing (format: ``designrl/tasks/svg/agreement.py``). Every drawing is scored with no
judge through the real Chromium pool; printed per set and overall:

* good > flawed: share of pairs where the good drawing outscores the flawed one;
* coverage: share of requirements with a decided verdict, and with a decided atom;
* precision: correct decided verdicts / decided verdicts, against the truth table;
* recall: truth-false requirements decided as fail; truth-true decided as pass.

Targets (issue 16): good > flawed on >= 90 % of pairs, precision >= 0.95, at least half
the requirements decided.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from designrl.render.pool import BrowserPool
from designrl.tasks.svg.agreement import load_set, measure, mistakes, summarise
from designrl.tasks.svg.reward import SvgReward

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "tests" / "tasks" / "svg" / "data" / "freetext_dev.json"
TARGETS = {"good_beats_flawed": 0.9, "precision": 0.95, "coverage_atom": 0.5}


async def run(paths: list[Path]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    every_pair, every_verdict = [], []
    async with BrowserPool(browsers=1, pages_per_browser=2, viewport=(512, 512),
                           timeout_s=20) as pool:
        reward = SvgReward(pool)
        for path in paths:
            started = time.perf_counter()
            pairs, verdicts = await measure(load_set(path), reward)
            summary = summarise(pairs, verdicts)
            summary["seconds"] = round(time.perf_counter() - started, 1)
            summary["mistakes"] = [
                {"item": v.item, "drawing": v.drawing, "requirement": v.requirement,
                 "truth": v.truth, "verdict": v.verdict} for v in mistakes(verdicts)]
            summary["pair_scores"] = [{"item": p.item, "good": round(p.good, 4),
                                       "flawed": round(p.flawed, 4)} for p in pairs]
            out[path.name] = summary
            every_pair += pairs
            every_verdict += verdicts
    if len(paths) > 1:
        out["overall"] = summarise(every_pair, every_verdict)
    return out


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def print_table(results: dict[str, dict], show_mistakes: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    rows = [("pairs", "pairs", None), ("requirements", "requirements", None),
            ("good > flawed", "good_beats_flawed", "good_beats_flawed"),
            ("coverage: decided verdict", "coverage_decided", None),
            ("coverage: a decided atom", "coverage_atom", "coverage_atom"),
            ("precision of decided verdicts", "precision", "precision"),
            ("recall: truth-false decided fail", "recall_fail", None),
            ("recall: truth-true decided pass", "recall_pass", None),
            ("mean total, good drawings", "mean_good", None),
            ("mean total, flawed drawings", "mean_flawed", None)]
    table = Table(title="svg requirements on free text, no judge (real Chromium)")
    table.add_column("measure")
    for name in results:
        table.add_column(name, justify="right")
    table.add_column("target", justify="right")
    for label, key, target in rows:
        table.add_row(label, *(_fmt(r.get(key)) for r in results.values()),
                      f">= {TARGETS[target]}" if target else "")
    console.print(table)
    if show_mistakes:
        for name, result in results.items():
            for m in result.get("mistakes", []):
                console.print(f"[red]{name}[/red] {m['item']} {m['drawing']}: decided "
                              f"{m['verdict']}, truth {m['truth']}: {m['requirement']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEV],
                        help="truth-table JSON files (default: the development set)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--show-mistakes", action="store_true",
                        help="list every decided verdict the truth table contradicts")
    args = parser.parse_args(argv)
    results = asyncio.run(run(args.files))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results, args.show_mistakes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
