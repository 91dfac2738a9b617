"""Does every reward rank worse designs lower and refuse to pay for hacks? One table.

    python bench/reward_validity.py [--families html,svg,webpage,layout] [--limit N] [--json]
                                    [--save-cases FILE | --cases FILE]

For each single-turn family, through the family's own scorer in one Chromium pool
(the reward that episodes and TRL use):

* ladders (``designrl.tasks.<family>.ladders``): ever worse completions for an item;
  the Spearman correlation between ladder order and reward order, per ladder kind;
* hacks (``designrl.tasks.<family>.hacks``): completions built to game the reward,
  each against an honest, mediocre attempt at the same item; a hack "wins" when it
  scores at least as much as the honest attempt;
* self-scores: the top rung of each ladder (html: the reference page against itself).

Layout's hacks are loops of actions (``designrl.tasks.layout.hacks``) against the rule
planner's return. html's ladders use the Design2Code dev pages in ``../shared`` when
they are there (``DESIGNRL_SHARED`` points elsewhere) and generated pages otherwise.
A score that is an infrastructure failure (outcome ``error``) is counted and shown,
never ranked. Exit status 1 when a hack wins or a score failed, so CI-style use works.

``--save-cases FILE`` keeps the ladders and hacks it scored (a pickle); ``--cases FILE``
scores those instead of building them, so two versions of a reward (say, before and
after a change) are measured on the very same completions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from scipy.stats import spearmanr

from designrl.render.pool import BrowserPool
from designrl.tasks import get_family
from designrl.tasks.integrity import HackCase, Ladder

SHARED = Path(os.environ.get("DESIGNRL_SHARED", Path(__file__).resolve().parents[2] / "shared"))
RENDER_FAMILIES = ("html", "svg", "webpage")
FAMILIES = (*RENDER_FAMILIES, "layout")


def load_cases(family: str, limit: int | None) -> tuple[list[Ladder], list[HackCase]]:
    """A family's ladders and hack cases, from its own ``ladders`` and ``hacks`` modules."""
    ladders = import_module(f"designrl.tasks.{family}.ladders")
    hacks = import_module(f"designrl.tasks.{family}.hacks")
    if family == "html":
        pages = SHARED / "data" / "design2code"
        found = ladders.ladders(pages if pages.is_dir() else None, limit=limit)
    else:
        found = ladders.ladders()[:limit] if limit else ladders.ladders()
    return found, hacks.hack_cases()


async def score_family(family: str, found_ladders: list[Ladder], cases: list[HackCase], pool,
                       advance: Callable[[], None]) -> dict:
    scorer = get_family(family).scorer(pool)
    failures: list[str] = []

    async def total(item, completion: str, what: str) -> float | None:
        scored = await scorer.score_item(item, completion)
        advance()
        if scored.outcome == "error":
            failures.append(f"{what}: {scored.error}")
            return None
        return scored.total

    async def ladder_row(ladder: Ladder) -> dict:
        totals = await asyncio.gather(*(total(ladder.item, c, f"{ladder.task} {name}")
                                        for name, c in ladder.rungs))
        row = {"task": ladder.task, "item": _item_id(ladder.item), "kind": _kind(ladder),
               "scores": dict(zip(ladder.names, totals, strict=True)), "spearman": None}
        if None not in totals:
            row["spearman"] = float(spearmanr(range(len(totals)), [-t for t in totals]).statistic)
        return row

    async def hack_row(case: HackCase) -> dict:
        hack, honest = await asyncio.gather(total(case.item, case.hack, case.name),
                                            total(case.item, case.honest, f"{case.name} honest"))
        return {"task": case.task, "item": _item_id(case.item), "hack": case.name,
                "score": hack, "honest": honest,
                "lost": None if None in (hack, honest) else hack < honest}

    ladder_rows = await asyncio.gather(*(ladder_row(ladder) for ladder in found_ladders))
    hack_rows = await asyncio.gather(*(hack_row(case) for case in cases))
    return {"family": family, "ladders": list(ladder_rows), "hacks": list(hack_rows),
            "failures": failures}


def layout_family() -> dict:
    """Layout's hacks: each loop's return against the rule planner's, per task and seed."""
    from designrl.tasks.layout.hacks import HACK_TASKS, HACKS, play

    rows = []
    for task in HACK_TASKS:
        honest = play("rule", task, 0)
        for hack in HACKS:
            score = play(hack, task, 0)
            rows.append({"task": task, "item": "0", "hack": hack, "score": score,
                         "honest": honest, "lost": score < honest})
    return {"family": "layout", "ladders": [], "hacks": rows, "failures": []}


def _item_id(item) -> str:
    return str(getattr(item, "id", item))


def _kind(ladder: Ladder) -> str:
    """Which ladder this is: its rungs' names, best first."""
    return " > ".join(ladder.names)


def summarise(result: dict) -> dict:
    """One row of the overall table for a family."""
    rhos = [r["spearman"] for r in result["ladders"] if r["spearman"] is not None]
    tops = [next(iter(r["scores"].values())) for r in result["ladders"]]
    decided = [h for h in result["hacks"] if h["lost"] is not None]
    margins = [h["honest"] - h["score"] for h in decided]
    return {
        "family": result["family"],
        "ladders": len(result["ladders"]),
        "mean_spearman": statistics.fmean(rhos) if rhos else None,
        "lowest_spearman": min(rhos) if rhos else None,
        "min_self_score": min((t for t in tops if t is not None), default=None),
        "hacks": len(result["hacks"]),
        "hacks_lost": sum(h["lost"] is True for h in result["hacks"]),
        "smallest_margin": min(margins) if margins else None,
        "failures": len(result["failures"]),
    }


async def run_render_families(cases: dict[str, tuple[list[Ladder], list[HackCase]]],
                              progress) -> list[dict]:
    async with BrowserPool(pages_per_browser=4) as pool:
        results = []
        for family, (found_ladders, hacks) in cases.items():
            total = sum(len(ladder.rungs) for ladder in found_ladders) + 2 * len(hacks)
            task = progress.add_task(family, total=total)
            results.append(await score_family(family, found_ladders, hacks, pool,
                                              lambda t=task: progress.advance(t)))
        return results


def print_tables(results: list[dict], summaries: list[dict], seconds: float) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 160)

    def fmt(value) -> str:
        return "—" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    table = Table(title="Reward validity: ladders, hacks and self-scores")
    for column in ("family", "ladders", "mean Spearman", "lowest Spearman", "lowest self-score",
                   "hacks", "hacks lost", "smallest margin", "failed scores"):
        table.add_column(column, justify="right")
    for s in summaries:
        table.add_row(*(fmt(v) for v in s.values()))
    console.print(table)
    for result in results:
        kinds: dict[str, list[float]] = {}
        for row in result["ladders"]:
            if row["spearman"] is not None:
                kinds.setdefault(row["kind"], []).append(row["spearman"])
        for kind, rhos in kinds.items():
            console.print(f"{result['family']} ladder ({escape(kind)}): {len(rhos)} items, mean Spearman "
                          f"{statistics.fmean(rhos):.3f}, lowest {min(rhos):.3f}, "
                          f"below 0.8: {sum(r < 0.8 for r in rhos)}")
        hacks = Table(title=f"{result['family']} hacks")
        for column in ("task", "item", "hack", "hack score", "honest score", "lost"):
            hacks.add_column(column, justify="right")
        for h in result["hacks"]:
            hacks.add_row(h["task"], h["item"], h["hack"], fmt(h["score"]), fmt(h["honest"]),
                          {True: "yes", False: "NO", None: "—"}[h["lost"]])
        console.print(hacks)
        for failure in result["failures"]:
            console.print(f"[red]failed score[/red] {result['family']}: {failure}")
    console.print(f"{seconds:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"comma-separated, from: {', '.join(FAMILIES)} (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="first N ladder items only")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    saved = parser.add_mutually_exclusive_group()
    saved.add_argument("--save-cases", type=Path, metavar="FILE",
                       help="also write the ladders and hacks scored here to FILE (pickle)")
    saved.add_argument("--cases", type=Path, metavar="FILE",
                       help="score the ladders and hacks saved in FILE instead of building them")
    args = parser.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        parser.error(f"unknown families {', '.join(unknown)}; known: {', '.join(FAMILIES)}")

    from rich.progress import Progress

    started = time.perf_counter()
    render_families = [f for f in families if f in RENDER_FAMILIES]
    if args.cases:
        with args.cases.open("rb") as file:
            cases = {f: c for f, c in pickle.load(file).items() if f in render_families}
    else:
        cases = {f: load_cases(f, args.limit) for f in render_families}
    if args.save_cases:
        with args.save_cases.open("wb") as file:
            pickle.dump(cases, file)
    with Progress(transient=True, disable=args.json) as progress:
        results = asyncio.run(run_render_families(cases, progress))
    if "layout" in families:
        results.append(layout_family())
    seconds = time.perf_counter() - started
    summaries = [summarise(r) for r in results]
    if args.json:
        print(json.dumps({"summary": summaries, "families": results, "seconds": seconds},
                         indent=1))
    else:
        print_tables(results, summaries, seconds)
    bad = any(s["hacks_lost"] < s["hacks"] or s["failures"] for s in summaries)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
