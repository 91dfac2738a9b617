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
* self-scores: the top rung of each ladder (html: the reference page against itself);
* webpage's off-request pages (``designrl.tasks.webpage.off_request``): well-made pages
  that ignore the request, as a share of the ``template`` page's score for it
  (target: at most half).

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
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from scipy.stats import spearmanr

from designrl.render.pool import BrowserPool
from designrl.tasks import get_family
from designrl.tasks.integrity import HackCase, Ladder

SHARED = Path(os.environ.get("DESIGNRL_SHARED", Path(__file__).resolve().parents[2] / "shared"))
RENDER_FAMILIES = ("html", "svg", "webpage")
FAMILIES = (*RENDER_FAMILIES, "layout")


@dataclass
class FamilyCases:
    """What one family is checked on: plain data, so it can be saved and scored again."""

    ladders: list[Ladder]
    hacks: list[HackCase]
    # webpage: (item, the template's page, ((name, a page that ignores the request), ...))
    off_request: list[tuple] = field(default_factory=list)

    @property
    def scores(self) -> int:
        return (sum(len(ladder.rungs) for ladder in self.ladders) + 2 * len(self.hacks)
                + sum(1 + len(ignoring) for _, _, ignoring in self.off_request))


def load_cases(family: str, limit: int | None) -> FamilyCases:
    """A family's ladders and hack cases, from its own ``ladders`` and ``hacks`` modules."""
    ladders = import_module(f"designrl.tasks.{family}.ladders")
    hacks = import_module(f"designrl.tasks.{family}.hacks")
    if family == "html":
        pages = SHARED / "data" / "design2code"
        found = ladders.ladders(pages if pages.is_dir() else None, limit=limit)
    else:
        found = ladders.ladders()[:limit] if limit else ladders.ladders()
    cases = FamilyCases(found, hacks.hack_cases())
    if family == "webpage":
        from designrl.tasks.webpage.off_request import off_request_cases
        cases.off_request = [(c.item, c.own, c.ignoring) for c in off_request_cases()]
    return cases


async def score_family(family: str, cases: FamilyCases, pool,
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

    ladder_rows = await asyncio.gather(*(ladder_row(ladder) for ladder in cases.ladders))
    hack_rows = await asyncio.gather(*(hack_row(case) for case in cases.hacks))
    return {"family": family, "ladders": list(ladder_rows), "hacks": list(hack_rows),
            "off_request": await off_request_rows(cases.off_request, total),
            "failures": failures}


async def off_request_rows(cases, total) -> list[dict]:
    """Each request: its template page's score and the pages that ignore it."""
    rows = []
    for item, own_page, ignoring in cases:
        own = await total(item, own_page, f"{item.id} own page")
        for name, page in ignoring:
            score = await total(item, page, f"{item.id} {name}")
            share = None if None in (own, score) or not own else score / own
            rows.append({"item": item.id, "page": name, "own": own, "score": score,
                         "share": share})
    return rows


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
    return {"family": "layout", "ladders": [], "hacks": rows, "off_request": [], "failures": []}


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
        "worst_off_request_share": max((r["share"] for r in result["off_request"]
                                        if r["share"] is not None), default=None),
    }


async def run_render_families(cases: dict[str, FamilyCases], progress) -> list[dict]:
    async with BrowserPool(pages_per_browser=4) as pool:
        results = []
        for family, family_cases in cases.items():
            task = progress.add_task(family, total=family_cases.scores)
            results.append(await score_family(family, family_cases, pool,
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
                   "hacks", "hacks lost", "smallest margin", "failed scores",
                   "worst off-request share"):
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
        if result["off_request"]:
            off = Table(title=f"{result['family']}: well-made pages that ignore the request")
            for column in ("item", "page", "template page", "score", "share"):
                off.add_column(column, justify="right")
            for r in result["off_request"]:
                off.add_row(r["item"], r["page"], fmt(r["own"]), fmt(r["score"]), fmt(r["share"]))
            console.print(off)
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
