"""Render pool against a plain Playwright loop on the same pages (issue 21).

    python bench/render_vs_playwright.py [--pages N] [--blocks K] [--json]

Both sides use one browser and two reused pages and render the same Design2Code
pages (the first N of ``shared/data/design2code`` in numeric order), two at a time:

* playwright: ``page.set_content(html)`` then ``page.screenshot(full_page=True)``, the
  least a caller can do with Playwright (no sandbox, no DOM facts, no reset);
* pool: ``BrowserPool(browsers=1, pages_per_browser=2).render(html)``, which also
  routes every request, reads the DOM facts, caps the page and resets it after.

The two alternate in K timed blocks (each block renders every page once on each
side), so a noisy neighbour slows both alike; each side's rate is its total renders
over its total time. The ratio pool / playwright is the figure (target 0.8).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

from designrl.render import BrowserPool
from designrl.render.chromium import find_chromium

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render_throughput import load_pages  # noqa: E402

RATIO_TARGET = 0.8
PAGES_AT_ONCE = 2


async def two_at_a_time(pages: list[str], render) -> float:
    """Seconds to render every page with ``render(worker, html)``, two workers pulling."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    for html in pages:
        queue.put_nowait(html)

    async def worker(index: int) -> None:
        while not queue.empty():
            await render(index, queue.get_nowait())

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(PAGES_AT_ONCE)))
    return time.perf_counter() - t0


async def run(pages: list[str], blocks: int) -> dict:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw, BrowserPool(browsers=1,
                                                     pages_per_browser=PAGES_AT_ONCE) as pool:
        browser = await pw.chromium.launch(executable_path=find_chromium())
        tabs = [await browser.new_page(viewport={"width": 1280, "height": 800})
                for _ in range(PAGES_AT_ONCE)]
        failed = 0

        async def plain(index: int, html: str) -> None:
            await tabs[index].set_content(html)
            await tabs[index].screenshot(full_page=True)

        async def pooled(index: int, html: str) -> None:
            nonlocal failed
            failed += not (await pool.render(html)).ok

        await two_at_a_time(pages[:2], plain)  # warm-up: fonts, caches, first paint
        await two_at_a_time(pages[:2], pooled)
        seconds = {"playwright": 0.0, "pool": 0.0}
        for _ in range(blocks):
            seconds["playwright"] += await two_at_a_time(pages, plain)
            seconds["pool"] += await two_at_a_time(pages, pooled)
        await browser.close()
    renders = len(pages) * blocks
    rates = {side: renders / s for side, s in seconds.items()}
    ratio = rates["pool"] / rates["playwright"]
    return {"pages": len(pages), "blocks": blocks, "renders_each": renders,
            "pool_failed": failed, "pages_per_s": rates, "ratio": ratio,
            "target_ratio": RATIO_TARGET, "meets_target": ratio >= RATIO_TARGET,
            "cpus": os.cpu_count(), "load_average": os.getloadavg()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20, help="Design2Code pages (default 20)")
    parser.add_argument("--blocks", type=int, default=5,
                        help="alternating timed blocks per side (default 5)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="folder of .html pages (default shared/data/design2code)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    pages = [html for _, html in load_pages(args.pages, args.data_dir)]
    results = asyncio.run(run(pages, args.blocks))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        rates = results["pages_per_s"]
        verdict = "meets" if results["meets_target"] else "below"
        print(f"plain Playwright (set_content + full-page screenshot): "
              f"{rates['playwright']:.2f} pages/s")
        print(f"BrowserPool.render (sandbox, DOM facts, reset): {rates['pool']:.2f} pages/s")
        print(f"ratio pool / playwright: {results['ratio']:.2f} ({verdict} the "
              f"{RATIO_TARGET} target); {results['renders_each']} renders each, "
              f"{results['pool_failed']} failed, load {results['load_average'][0]:.1f}")
    return 0 if results["pool_failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
