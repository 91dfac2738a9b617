"""The ladders rendered by real Chromium through ``designrl.render.pool.BrowserPool``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from svg_fixtures import LADDERS, fenced, ladders

from designrl.render.png import decode_png
from designrl.tasks.svg import SvgReward
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reward import prepare

pytestmark = pytest.mark.integration


def _pool_class():
    try:
        from designrl.render.pool import BrowserPool
    except ImportError as exc:  # the render package or playwright is not installed
        pytest.skip(f"designrl.render.pool is not importable: {exc}")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium to render with: `apt-get install -y chromium`")
    return BrowserPool


def test_ladder_through_the_real_pool():
    pool_class = _pool_class()

    async def run():
        async with pool_class(browsers=1, pages_per_browser=2, viewport=(512, 512),
                              timeout_s=10) as pool:
            reward = SvgReward(pool)
            out = {}
            for ladder in ladders():
                out[ladder.item.id] = [await reward.score(c, ladder.item.requirements)
                                       for _, c in ladder.rungs]
            prepared = prepare(fenced(LADDERS["house"][0]))
            from designrl.tasks.svg.page import svg_page

            render = await pool.render(svg_page(prepared.markup), viewport=(512, 512),
                                       full_page=False)
            return out, prepared, render

    results, prepared, render = asyncio.run(run())
    for prompt_id, scores in results.items():
        totals = [s.total for s in scores]
        assert totals == sorted(totals, reverse=True), (prompt_id, totals)
        assert totals[0] >= 0.9, (prompt_id, scores[0])  # undecided requirements: neutral
        assert scores[0].components["coverage"] >= 0.8, (prompt_id, scores[0].components)
    # Chromium and the rough rasteriser agree on the page layout (anti-aliased edges aside).
    assert render.ok and not render.blocked_requests
    chromium = decode_png(render.png).astype(int)
    rough = rasterize(prepared.facts).astype(int)
    assert chromium.shape == rough.shape
    assert (np.abs(chromium - rough).max(axis=2) > 40).mean() < 0.02
