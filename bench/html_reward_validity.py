"""Does the html reward rank worse pages lower? Degradation ladders on the dev pages.

    python bench/html_reward_validity.py [--limit N] [--blocks dom|design2code] [--json]

For every Design2Code dev page (``../shared/data/design2code``), the reward
scores the page against itself and six ever worse copies (``degrade.ladder``:
small text edits, changed colours, shuffled layout, styles removed, text
removed, blank). Prints each page's scores and the Spearman correlation between
the ladder order and the reward order. Targets (issue 3): mean Spearman ≥ 0.9,
every page scored against itself ≥ 0.95.
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
from designrl.tasks.html.degrade import LADDER, ladder
from designrl.tasks.html.reward import HtmlReward

SHARED = Path(os.environ.get("DESIGNRL_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SPEARMAN_TARGET = 0.9
SELF_TARGET = 0.95


async def score_ladders(limit: int | None, progress, blocks: str = "dom") -> list[dict]:
    items = load_design2code(SHARED / "data" / "design2code", limit=limit)
    rows = []
    async with BrowserPool(pages_per_browser=4) as pool:
        reward = HtmlReward(pool, blocks=blocks)
        for item in items:
            steps = ladder(item.html, seed=0)
            scores = await asyncio.gather(*(reward.score(item.html, html) for _, html in steps))
            totals = [s.total for s in scores]
            rho = spearmanr(range(len(totals)), [-t for t in totals]).statistic
            rows.append({"page": item.id, "scores": dict(zip(LADDER, totals, strict=True)),
                         "spearman": float(rho)})
            progress(rows[-1])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--blocks", choices=("dom", "design2code"), default="dom",
                        help="text blocks from the DOM (default) or by Design2Code's "
                             "colour injection")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 150)
    started = time.perf_counter()
    with console.status("scoring ladders") as status:
        rows = asyncio.run(score_ladders(
            args.limit, lambda r: status.update(f"page {r['page']}: rho {r['spearman']:.3f}"),
            args.blocks))
    seconds = time.perf_counter() - started
    mean_rho = statistics.fmean(r["spearman"] for r in rows)
    min_self = min(r["scores"]["reference"] for r in rows)
    summary = {"blocks": args.blocks, "pages": len(rows), "mean_spearman": mean_rho, "min_self_score": min_self,
               "seconds": seconds, "targets_met": mean_rho >= SPEARMAN_TARGET
               and min_self >= SELF_TARGET}
    if args.json:
        print(json.dumps({"summary": summary, "pages": rows}, indent=1))
        return 0
    table = Table(title=f"html reward on degradation ladders (blocks: {args.blocks})")
    for col in ("page", *LADDER, "spearman"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(r["page"], *(f"{r['scores'][k]:.3f}" for k in LADDER), f"{r['spearman']:.3f}")
    console.print(table)
    console.print(f"{len(rows)} pages in {seconds:.0f} s: mean Spearman {mean_rho:.3f} "
                  f"(target ≥ {SPEARMAN_TARGET}), lowest self-score {min_self:.3f} "
                  f"(target ≥ {SELF_TARGET})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
