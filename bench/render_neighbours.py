"""Neighbour latency: innocent jobs beside a hostile page on the same browser.

    python bench/render_neighbours.py [--repeats R] [--timeout S] [--json]

Issue 17: a job that makes its browser misbehave is the one that pays; innocent
jobs beside it finish ``ok``, with their own screenshot, "and keep their normal
latency within a bound you measure and state". For each hostile page of
``tests/render/test_render_neighbours.py`` (``HOSTILE``: a hash flood, 2,000
iframes, four spinning Workers), on one pool of 1 browser x 4 pages with an
8 s job limit (the test's pool):

* baseline: 4 innocent renders at once;
* case: the hostile page and 3 innocent renders at once;
* then one innocent render alone (the pool right after: recorded, not timed).

Baseline and case alternate, R times each per hostile (baseline first on even
repeats, case first on odd ones, so drift and any aftermath fall on both sides).
An innocent job's latency is the wall time of its ``pool.render`` call (its
retries included). Reported per hostile: the median innocent latency beside
it, the baseline's median, their ratio, the slowest innocent, and how many
innocents were not ``ok`` or had a screenshot different from the innocent page
rendered alone at the start.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_pages() -> tuple[str, dict[str, str]]:
    """``INNOCENT`` and ``HOSTILE`` from the neighbours test, so both use the same pages."""
    sys.path.insert(0, str(ROOT / "tests"))  # the test module imports browser_support
    path = ROOT / "tests" / "render" / "test_render_neighbours.py"
    spec = importlib.util.spec_from_file_location("_render_neighbours_pages", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.INNOCENT, dict(module.HOSTILE)


async def timed(pool, html: str) -> tuple[float, object]:
    from designrl.render.types import InfrastructureError

    t0 = time.perf_counter()
    try:
        result = await pool.render(html)
    except InfrastructureError as exc:
        result = exc
    return time.perf_counter() - t0, result


def judge(result, alone_png: bytes) -> tuple[bool, bool]:
    """(ok, same screenshot as alone) of one innocent result."""
    ok = not isinstance(result, Exception) and result.ok
    return ok, ok and result.png == alone_png


async def bench_hostile(pool, name: str, hostile: str, innocent: str, alone_png: bytes,
                        repeats: int) -> dict:
    base_lat: list[float] = []
    case_lat: list[float] = []
    base_bad = {"not_ok": 0, "png_differs": 0}
    case_bad = {"not_ok": 0, "png_differs": 0}
    after_bad = {"not_ok": 0, "png_differs": 0}
    hostile_outcomes: dict[str, int] = {}
    kills0, retries0 = pool.stats.browser_kills, pool.stats.infra_retries

    def tally(bad: dict, result) -> None:
        ok, same = judge(result, alone_png)
        bad["not_ok"] += not ok
        bad["png_differs"] += ok and not same

    async def baseline() -> None:
        for seconds, result in await asyncio.gather(*(timed(pool, innocent) for _ in range(4))):
            base_lat.append(seconds)
            tally(base_bad, result)

    async def case() -> None:
        (_, bad), *rest = await asyncio.gather(timed(pool, hostile),
                                               *(timed(pool, innocent) for _ in range(3)))
        outcome = ("infra_error" if isinstance(bad, Exception)
                   else "ok" if bad.ok else (bad.error or "failed").split(":")[0])
        hostile_outcomes[outcome] = hostile_outcomes.get(outcome, 0) + 1
        for seconds, result in rest:
            case_lat.append(seconds)
            tally(case_bad, result)
        _, after = await timed(pool, innocent)  # the pool right after the case
        tally(after_bad, after)

    for r in range(repeats):
        for step in ((baseline, case) if r % 2 == 0 else (case, baseline)):
            await step()
    base_med, case_med = statistics.median(base_lat), statistics.median(case_lat)
    return {
        "hostile": name,
        "baseline_median_s": base_med,
        "case_median_s": case_med,
        "ratio": case_med / base_med,
        "baseline_max_s": max(base_lat),
        "case_max_s": max(case_lat),
        "innocents": len(case_lat),
        "case_not_ok": case_bad["not_ok"],
        "case_png_differs": case_bad["png_differs"],
        "baseline_not_ok": base_bad["not_ok"],
        "baseline_png_differs": base_bad["png_differs"],
        "after_not_ok": after_bad["not_ok"],
        "after_png_differs": after_bad["png_differs"],
        "hostile_outcomes": hostile_outcomes,
        "browser_kills": pool.stats.browser_kills - kills0,
        "infra_retries": pool.stats.infra_retries - retries0,
        "baseline_latencies_s": base_lat,
        "case_latencies_s": case_lat,
    }


async def run(args: argparse.Namespace) -> dict:
    from designrl.render import BrowserPool

    innocent, hostile = load_pages()
    names = args.hostile or list(hostile)
    async with BrowserPool(browsers=1, pages_per_browser=4, timeout_s=args.timeout) as pool:
        alone = await pool.render(innocent)
        if not alone.ok:
            raise SystemExit(f"the innocent page does not render alone: {alone.error}")
        await asyncio.gather(*(pool.render(innocent) for _ in range(4)))  # warm every page
        results = [await bench_hostile(pool, name, hostile[name], innocent, alone.png,
                                       args.repeats) for name in names]
        mode = pool.memory_cap.mode if pool.memory_cap else None
    return {
        "pool": {"browsers": 1, "pages_per_browser": 4, "timeout_s": args.timeout,
                 "memory_cap_mode": mode},
        "repeats": args.repeats,
        "hostiles": results,
        "max_ratio": max(r["ratio"] for r in results),
        "innocents_not_ok": sum(r["case_not_ok"] for r in results),
        "innocents_png_differs": sum(r["case_png_differs"] for r in results),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }


def print_report(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    pool = results["pool"]
    table = Table(title=f"Innocent latency beside a hostile page (1 browser x 4 pages, "
                        f"{pool['timeout_s']:g} s limit, {results['repeats']} repeats)")
    for column in ("hostile", "baseline median s", "beside median s", "ratio", "max beside s",
                   "not ok", "png differs", "hostile ended", "kills"):
        table.add_column(column, justify="left" if column in ("hostile", "hostile ended")
                         else "right")
    for r in results["hostiles"]:
        table.add_row(r["hostile"], f"{r['baseline_median_s']:.3f}", f"{r['case_median_s']:.3f}",
                      f"{r['ratio']:.2f}", f"{r['case_max_s']:.2f}",
                      f"{r['case_not_ok']}/{r['innocents']}",
                      f"{r['case_png_differs']}/{r['innocents']}",
                      ", ".join(f"{k} x{v}" for k, v in r["hostile_outcomes"].items()),
                      str(r["browser_kills"]))
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5,
                        help="baseline/case pairs per hostile page (default 5)")
    parser.add_argument("--timeout", type=float, default=8.0, help="job limit, s (default 8)")
    parser.add_argument("--hostile", action="append", default=None,
                        help="only this hostile page (repeatable; default: all)")
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
