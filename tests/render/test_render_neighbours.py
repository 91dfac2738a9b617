"""Neighbours are contained: a hostile page beside three innocent jobs on one browser
(4 pages) leaves them ``ok``, with the same screenshot as when they render alone.

A hash flood used to stall the whole browser (each ``location.hash =`` is a navigation
through the browser process, and Playwright launches Chromium with IPC flooding
protection off) and fail its neighbours with timeouts; 2,000 iframes stalled it too
(the job now ends at ``max_frames``); spinning Workers load the machine. Latency beside each is measured by ``bench/render_neighbours.py``.
"""

from __future__ import annotations

import asyncio

import pytest

POOL_TIMEOUT_S = 8.0  # the module pool (conftest): one browser x 4 pages
INNOCENT = ("<body style='margin:0'><h1 style='color:#123'>Innocent page</h1>"
            "<p>Some text here</p><div style='width:300px;height:200px;background:#3a6'>"
            "</div></body>")
HOSTILE = {
    "hash_flood":
        "<p>x</p><script>for (let i = 0; i < 100000; i++) location.hash = '#' + i</script>",
    "iframes_2000":
        "<p>x</p><script>for (let i = 0; i < 2000; i++) { const f = "
        "document.createElement('iframe'); f.srcdoc = '<p>' + i; "
        "document.body.appendChild(f); }</script>",
    "spinning_workers":
        "<p>x</p><script>for (let i = 0; i < 4; i++) new Worker(URL.createObjectURL("
        "new Blob(['while (true) {}'])))</script>",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_innocent_jobs_beside_a_hostile_page_finish_ok_with_their_own_screenshot(
        runner, name):
    pool = runner.pool
    alone = runner.render(INNOCENT)
    assert alone.ok, alone.error

    async def beside():
        return await asyncio.gather(pool.render(HOSTILE[name]),
                                    *(pool.render(INNOCENT) for _ in range(3)))

    hostile, *innocents = runner.run(beside())
    if name == "iframes_2000":  # ended at the frame cap, before it stalls the browser
        assert hostile.error == "too_many_frames"
    for result in innocents:
        assert result.ok, (name, result.error)
        assert result.png == alone.png and result.seconds < POOL_TIMEOUT_S
    after = runner.render(INNOCENT)
    assert after.ok and after.png == alone.png
