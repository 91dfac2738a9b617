"""Does the html reward rank worse pages lower? Both ladders on the Design2Code dev pages.

    python bench/html_reward_validity.py [--limit N] [--tuned 20] [--blocks dom|design2code]
                                         [--json]

For every Design2Code dev page (``../shared/data/design2code``), the reward (the
family's ``HtmlReward``) scores the page's two ladders (``designrl.tasks.html.ladders``):
``degrade`` (small text edits, changed colours, shuffled layout, styles removed, text
removed, blank) and ``style`` (a minor text edit, colours changed, the later half
unstyled, layout removed, all styles removed, blank), and a nearly blank page (one
short line of the page's text, ``degrade.near_blank``). Per ladder it prints the mean
Spearman correlation between ladder order and reward order, the lowest page, the pages
below 0.8, the lowest self-score (the reference against itself) and the highest
near-blank total, for the first ``--tuned`` pages (the reward's weights were chosen
on them), the rest (held out) and all. Targets (issue 16): mean Spearman ≥ 0.95 and
no page below 0.8 on both ladders, self-score ≥ 0.95 on every page, near-blank ≤ 0.15.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

from scipy.stats import spearmanr

from designrl.render.pool import BrowserPool
from designrl.tasks.html.dataset import load_design2code
from designrl.tasks.html.degrade import near_blank
from designrl.tasks.html.ladders import KINDS, kind_of, ladders
from designrl.tasks.html.reward import HtmlReward

SHARED = Path(os.environ.get("DESIGNRL_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SPEARMAN_TARGET = 0.95
LOWEST_TARGET = 0.8
SELF_TARGET = 0.95
NEAR_BLANK_TARGET = 0.15


async def score_pages(limit: int | None, progress, blocks: str = "dom") -> list[dict]:
    items = load_design2code(SHARED / "data" / "design2code", limit=limit)
    found = ladders(items=items, task="design2code")
    rows = []
    async with BrowserPool(pages_per_browser=4, timeout_s=15) as pool:
        reward = HtmlReward(pool, blocks=blocks)
        for item in items:
            mine = [ladder for ladder in found if ladder.item is item]
            pages = {html for ladder in mine for _, html in ladder.rungs} | {near_blank(item.html)}
            pages = list(pages)  # each distinct page scored once (the rungs share a few)
            scores = await asyncio.gather(*(reward.score(item.html, html) for html in pages))
            total = {html: score.total for html, score in zip(pages, scores, strict=True)}
            row = {"page": item.id, "near_blank": total[near_blank(item.html)], "ladders": {}}
            for ladder in mine:
                totals = [total[html] for _, html in ladder.rungs]
                rho = spearmanr(range(len(totals)), [-t for t in totals]).statistic
                row["ladders"][kind_of(ladder)] = {
                    "scores": dict(zip(ladder.names, totals, strict=True)), "spearman": float(rho)}
            rows.append(row)
            progress(row)
    return rows


def summarise(rows: list[dict]) -> dict:
    """Per ladder kind: mean Spearman, lowest page, pages below 0.8, lowest self-score;
    and the highest near-blank total."""
    out = {"pages": len(rows), "near_blank_max": max(r["near_blank"] for r in rows),
           "near_blank_mean": statistics.fmean(r["near_blank"] for r in rows)}
    for kind in KINDS:
        rhos = [(r["ladders"][kind]["spearman"], r["page"]) for r in rows]
        lowest = min(rhos)
        out[kind] = {"mean_spearman": statistics.fmean(rho for rho, _ in rhos),
                     "lowest": lowest[0], "lowest_page": lowest[1],
                     "below_0.8": [page for rho, page in rhos if rho < LOWEST_TARGET],
                     "min_self_score": min(r["ladders"][kind]["scores"]["reference"]
                                           for r in rows)}
        out[kind]["targets_met"] = (out[kind]["mean_spearman"] >= SPEARMAN_TARGET
                                    and not out[kind]["below_0.8"]
                                    and out[kind]["min_self_score"] >= SELF_TARGET)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--tuned", type=int, default=20,
                        help="the first N pages are the ones the weights were tuned on (20)")
    parser.add_argument("--blocks", choices=("dom", "design2code"), default="dom",
                        help="text blocks from the DOM (default) or by Design2Code's "
                             "colour injection")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 160)
    started = time.perf_counter()
    with console.status("scoring ladders") as status:
        rows = asyncio.run(score_pages(
            args.limit, lambda r: status.update(f"page {r['page']}: " + ", ".join(
                f"{k} rho {v['spearman']:.3f}" for k, v in r["ladders"].items())), args.blocks))
    seconds = time.perf_counter() - started
    groups = {"all": rows}
    if len(rows) > args.tuned:
        groups = {f"tuned (first {args.tuned})": rows[:args.tuned],
                  f"held out ({len(rows) - args.tuned})": rows[args.tuned:], "all": rows}
    summary = {name: summarise(group) for name, group in groups.items()}
    if args.json:
        print(json.dumps({"blocks": args.blocks, "seconds": seconds, "summary": summary,
                          "pages": rows}, indent=1))
        return 0
    for kind, (names, _) in KINDS.items():
        table = Table(title=f"html reward, {kind} ladder (blocks: {args.blocks})")
        for col in ("page", *names, "near_blank", "spearman"):
            table.add_column(col, justify="right")
        for r in rows:
            ladder = r["ladders"][kind]
            table.add_row(r["page"], *(f"{ladder['scores'][n]:.3f}" for n in names),
                          f"{r['near_blank']:.3f}", f"{ladder['spearman']:.3f}")
        console.print(table)
    table = Table(title=f"{len(rows)} pages in {seconds:.0f} s: per ladder, targets mean "
                        f"Spearman ≥ {SPEARMAN_TARGET}, none below {LOWEST_TARGET}, self ≥ "
                        f"{SELF_TARGET}; near-blank ≤ {NEAR_BLANK_TARGET}")
    for col in ("pages", "ladder", "mean Spearman", "lowest (page)", "below 0.8",
                "min self-score", "near-blank max (mean)"):
        table.add_column(col, justify="right")
    for name, s in summary.items():
        for kind in KINDS:
            k = s[kind]
            table.add_row(name, kind, f"{k['mean_spearman']:.3f}",
                          f"{k['lowest']:.3f} ({k['lowest_page']})", str(len(k["below_0.8"])),
                          f"{k['min_self_score']:.3f}",
                          f"{s['near_blank_max']:.3f} ({s['near_blank_mean']:.3f})")
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
