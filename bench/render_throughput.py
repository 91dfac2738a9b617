"""Render throughput: the browser pool against launching a browser per page.

    python bench/render_throughput.py [--pages N] [--browsers B] [--pages-per-browser P]
                                      [--rounds R] [--json]

Both sides render the same Design2Code pages (the first N of
``shared/data/design2code`` in numeric order) with the same code path: the
sandbox, the DOM facts and a full-page screenshot (``BrowserPool.render``).

* pooled: one ``BrowserPool(browsers=B, pages_per_browser=P)``, started once
  (its start-up is reported, not timed), then every page R times, all submitted
  at once so the pool runs B x P at a time on reused pages.
* naive: a browser launched and closed per page, one page after another (a
  one-page pool per page, so the work is the same), in this process.
* design2code: what Design2Code's scorer does: a Python subprocess and a browser
  per screenshot (here the subprocess calls ``render_html``), on the first
  ``--subprocess-pages`` pages.

Pages per second of each, measured in the same run, and the pool's ratio over
each baseline (the issue's target, 10x, is against Design2Code's way; the
in-process naive baseline is reported beside it because it is the stricter one).
Then html reward pairs per second: render a reference page and a candidate (the
page with small text edits) in the pool and score them (``score_renders``), all
pairs submitted at once. The machine may be shared: compare ratios, not absolute
rates.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from designrl.render import BrowserPool, RenderResult
from designrl.render.chromium import find_chromium

RATIO_TARGET = 10.0


def shared_dir() -> Path:
    shared = os.environ.get("DESIGNRL_SHARED")
    return Path(shared) if shared else Path(__file__).resolve().parents[2] / "shared"


def load_pages(count: int, data_dir: Path | None = None) -> list[tuple[str, str]]:
    folder = data_dir or shared_dir() / "data" / "design2code"
    paths = sorted(folder.glob("*.html"), key=lambda p: (len(p.stem), p.stem))
    if not paths:
        raise SystemExit(f"no Design2Code pages in {folder} (set DESIGNRL_SHARED or --data-dir)")
    return [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in paths[:count]]


def summarize(results: list[RenderResult], seconds: float) -> dict:
    return {
        "renders": len(results),
        "ok": sum(r.ok for r in results),
        "seconds": seconds,
        "pages_per_s": len(results) / seconds if seconds > 0 else 0.0,
        "mean_render_s": sum(r.seconds for r in results) / max(1, len(results)),
    }


async def bench_pooled(pages: list[str], browsers: int, per_browser: int, rounds: int) -> dict:
    started = time.perf_counter()
    async with BrowserPool(browsers=browsers, pages_per_browser=per_browser) as pool:
        startup = time.perf_counter() - started
        await pool.render(pages[0])  # warm-up: fonts, caches, first paint
        t0 = time.perf_counter()
        results = await asyncio.gather(*(pool.render(html) for _ in range(rounds) for html in pages))
        elapsed = time.perf_counter() - t0
        stats = pool.stats
    out = summarize(list(results), elapsed)
    out.update(startup_s=startup, browsers=browsers, pages_per_browser=per_browser,
               rounds=rounds, context_recycles=stats.context_recycles)
    return out


async def bench_naive(pages: list[str]) -> dict:
    results = []
    t0 = time.perf_counter()
    for html in pages:
        async with BrowserPool(browsers=1, pages_per_browser=1) as pool:
            results.append(await pool.render(html))
    return summarize(results, time.perf_counter() - t0)


_SUBPROCESS_RENDER = (
    "import sys; from designrl.render import render_html; "
    "r = render_html(sys.stdin.read()); print(len(r.png), r.ok)"
)


def bench_design2code_style(pages: list[str]) -> dict:
    """A Python subprocess and a browser per page, as Design2Code's scorer renders."""
    ok = 0
    t0 = time.perf_counter()
    for html in pages:
        done = subprocess.run([sys.executable, "-c", _SUBPROCESS_RENDER], input=html,
                              capture_output=True, text=True, timeout=120)
        ok += done.returncode == 0 and done.stdout.split()[-1:] == ["True"]
    seconds = time.perf_counter() - t0
    return {"renders": len(pages), "ok": ok, "seconds": seconds,
            "pages_per_s": len(pages) / seconds if seconds > 0 else 0.0,
            "mean_render_s": seconds / max(1, len(pages))}


async def bench_html_pairs(pages: list[str], browsers: int, per_browser: int) -> dict:
    """html reward pairs per second: render reference and candidate, then score."""
    from designrl.tasks.html.degrade import text_edits
    from designrl.tasks.html.reward import score_renders

    candidates = [text_edits(html, seed=1) for html in pages]
    async with BrowserPool(browsers=browsers, pages_per_browser=per_browser) as pool:
        await pool.render(pages[0])

        async def pair(reference: str, candidate: str) -> float:
            ref, cand = await asyncio.gather(pool.render(reference), pool.render(candidate))
            return (await asyncio.to_thread(score_renders, ref, cand)).total

        t0 = time.perf_counter()
        totals = await asyncio.gather(*(pair(r, c) for r, c in zip(pages, candidates, strict=True)))
        seconds = time.perf_counter() - t0
    return {"pairs": len(totals), "seconds": seconds, "pairs_per_s": len(totals) / seconds,
            "mean_total": sum(totals) / len(totals)}


async def run(args: argparse.Namespace) -> dict:
    named = load_pages(args.pages, args.data_dir)
    pages = [html for _, html in named]
    naive = await bench_naive(pages)
    d2c = await asyncio.to_thread(bench_design2code_style, pages[: args.subprocess_pages])
    pooled = await bench_pooled(pages, args.browsers, args.pages_per_browser, args.rounds)
    pairs = await bench_html_pairs(pages, args.browsers, args.pages_per_browser)
    ratio = pooled["pages_per_s"] / naive["pages_per_s"] if naive["pages_per_s"] else 0.0
    ratio_d2c = pooled["pages_per_s"] / d2c["pages_per_s"] if d2c["pages_per_s"] else 0.0
    return {
        "pages": [name for name, _ in named],
        "pooled": pooled,
        "naive": naive,
        "design2code_style": d2c,
        "html_pairs": pairs,
        "ratio": ratio,
        "ratio_vs_design2code": ratio_d2c,
        "target_ratio": RATIO_TARGET,
        "meets_target": ratio_d2c >= RATIO_TARGET,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "chromium": find_chromium()},
    }


def print_report(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    pooled, naive = results["pooled"], results["naive"]
    table = Table(title=f"Rendering {len(results['pages'])} Design2Code pages: pages per second")
    for column in ("renderer", "renders", "ok", "seconds", "pages/s", "mean render s"):
        table.add_column(column, justify="left" if column == "renderer" else "right")
    table.add_row(
        f"pool ({pooled['browsers']} browsers x {pooled['pages_per_browser']} pages, reused)",
        str(pooled["renders"]), str(pooled["ok"]), f"{pooled['seconds']:.2f}",
        f"{pooled['pages_per_s']:.2f}", f"{pooled['mean_render_s']:.3f}",
    )
    table.add_row(
        "naive (browser launched per page)",
        str(naive["renders"]), str(naive["ok"]), f"{naive['seconds']:.2f}",
        f"{naive['pages_per_s']:.2f}", f"{naive['mean_render_s']:.3f}",
    )
    d2c = results["design2code_style"]
    table.add_row(
        "design2code (subprocess + browser per page)",
        str(d2c["renders"]), str(d2c["ok"]), f"{d2c['seconds']:.2f}",
        f"{d2c['pages_per_s']:.2f}", f"{d2c['mean_render_s']:.3f}",
    )
    console.print(table)
    console.print(f"pool start-up (not timed): {pooled['startup_s']:.2f}s, "
                  f"context recycles: {pooled['context_recycles']}")
    verdict = "meets" if results["meets_target"] else "below"
    console.print(f"pool vs Design2Code's way: [bold]{results['ratio_vs_design2code']:.1f}x"
                  f"[/bold] ({verdict} the {results['target_ratio']:.0f}x target); "
                  f"pool vs a browser per page in-process: {results['ratio']:.1f}x; "
                  f"on {results['machine']['cpus']} CPUs")
    pairs = results["html_pairs"]
    console.print(f"html reward pairs (render both, score): {pairs['pairs_per_s']:.2f} pairs/s "
                  f"({pairs['pairs']} pairs in {pairs['seconds']:.1f}s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20, help="Design2Code pages (default 20)")
    # 2 x 2 by default: on 2 cores it renders as many pages per second as 2 x 4 or 1 x 4
    # (within run-to-run noise; the work is CPU-bound) at half the per-render latency and
    # half the contexts; two browsers keep both cores busy with browser-process work.
    parser.add_argument("--browsers", type=int, default=2)
    parser.add_argument("--pages-per-browser", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3,
                        help="times the pool renders each page (default 3)")
    parser.add_argument("--subprocess-pages", type=int, default=8,
                        help="pages for the Design2Code-style baseline (default 8)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="folder of .html pages (default shared/data/design2code)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
