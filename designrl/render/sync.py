"""``render_html``: one page, one throwaway pool, no event loop needed (scripts and tests)."""

from __future__ import annotations

import asyncio

from designrl.render.pool import BrowserPool
from designrl.render.types import RenderResult, check_input


def render_html(html: str | bytes, *, full_page: bool = True, **pool_kwargs) -> RenderResult:
    """Render ``html`` in a one-page pool; ``pool_kwargs`` are ``BrowserPool`` arguments.

    Launches and closes a browser per call, so prefer a long-lived ``BrowserPool``
    for more than a handful of pages. Must not be called from a running event loop.
    """
    pool_kwargs.setdefault("pages_per_browser", 1)

    async def _one() -> RenderResult:
        pool = BrowserPool(**pool_kwargs)
        _, error = check_input(html, pool.max_input_bytes)
        if error is not None:  # no browser for input we would refuse anyway
            return RenderResult.failure(error)
        async with pool:
            return await pool.render(html, full_page=full_page)

    return asyncio.run(_one())
