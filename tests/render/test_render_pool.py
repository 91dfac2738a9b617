"""BrowserPool against real Chromium: what a render returns, reuse, concurrency, recovery."""

from __future__ import annotations

import asyncio
import io
import time
from urllib.parse import urlsplit

import pytest
from browser_support import require_chromium
from PIL import Image
from shared_data import require_shared

from designrl.render import render_html
from designrl.render.chromium import browser_pids, kill_browser

pytestmark = pytest.mark.integration

POOL_TIMEOUT_S = 5.0  # room for a slow, shared machine; only one test waits it out

FIXTURE = """<!doctype html><html><head><style>body{margin:0;font-family:sans-serif}</style></head>
<body style="background:#ffffff">
  <div id="hero" style="background:#003366;padding:20px">
    <h1 style="color:#ffcc00;font-size:32px;font-weight:700;margin:0">Title</h1>
  </div>
  <p style="color:rgb(10,20,30);font-size:18px;margin:10px">Body text</p>
  <div style="background:rgba(0,0,0,0.5)"><span style="color:#fff">Half</span></div>
  <p style="display:none">Hidden</p>
  <p style="visibility:hidden">Invisible</p>
  <div style="opacity:0"><span>Transparent</span></div>
  <div style="width:0;height:0;overflow:hidden">Zero</div>
  <script>var s = 'not text';</script>
  <img src="rick.jpg" width="192" height="108">
</body></html>"""


def blocks_by_text(result):
    return {b.text: b for b in result.text_blocks}


def test_basic_render_png_text_blocks_and_elements(runner):
    result = runner.render(FIXTURE)
    assert result.ok, result.error
    assert (result.width, result.height) == (1280, 800)  # shorter than the viewport
    image = Image.open(io.BytesIO(result.png)).convert("RGB")
    assert image.size == (1280, 800)
    assert image.getpixel((5, 5)) == (0, 51, 102)

    blocks = blocks_by_text(result)
    assert set(blocks) == {"Title", "Body text", "Half"}
    title = blocks["Title"]
    assert title.color == (255, 204, 0) and title.background == (0, 51, 102)
    assert title.font_size == 32 and title.font_weight == 700
    x, y, w, h = title.bbox
    assert 19 <= x <= 21 and 19 <= y <= 24 and w > 40 and 30 <= h <= 45
    body = blocks["Body text"]
    assert body.color == (10, 20, 30) and body.background == (255, 255, 255)
    assert body.font_size == 18 and body.font_weight == 400
    half = blocks["Half"]  # 50% black blended over the white page
    assert half.color == (255, 255, 255) and half.background == (128, 128, 128)

    elements = result.elements
    assert elements[0].tag == "html" and elements[0].depth == 0 and elements[0].parent == -1
    assert all(e.parent < i for i, e in enumerate(elements))
    tags = [e.tag for e in elements]
    assert "script" not in tags and "head" not in tags
    h1 = elements[tags.index("h1")]
    assert elements[h1.parent].tag == "div" and h1.depth == 3
    img = elements[tags.index("img")]
    assert img.bbox[2:] == (192.0, 108.0)
    assert result.dom_nodes >= 14
    assert [urlsplit(u).path for u in result.served_requests] == ["/", "/rick.jpg"]
    assert all(urlsplit(u).hostname.endswith("designrl.page") for u in result.served_requests)
    assert result.blocked_requests == [] and result.console_errors == []
    assert 0 < result.seconds < 10


def test_design2code_page_renders_with_placeholder_and_no_blocks(runner):
    path = require_shared("data/design2code/2.html")
    result = runner.render(path.read_text(encoding="utf-8"))
    assert result.ok, result.error
    assert result.blocked_requests == []
    assert "/rick.jpg" in [urlsplit(u).path for u in result.served_requests]
    assert result.width == 1280 and result.height == result.page_height > 800
    assert any("Skully" in b.text for b in result.text_blocks)
    assert sum(e.tag == "img" for e in result.elements) >= 3


def test_viewport_override_and_height_cap(runner):
    small = runner.render("<p>small</p>", viewport=(400, 300), full_page=False)
    assert small.ok and (small.width, small.height) == (400, 300)
    tall = runner.render('<div style="height:20000px;background:#c00">tall</div>')
    assert tall.ok and tall.width == 1280  # back to the pool's viewport
    assert tall.height == 8000 and tall.page_height > 20000


def test_eight_concurrent_renders_on_four_pages(runner, monkeypatch):
    pool = runner.pool
    assert pool.size == 4
    active = peak = 0
    original = pool._render_on

    async def tracked(*args, **kwargs):
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        try:
            return await original(*args, **kwargs)
        finally:
            active -= 1

    monkeypatch.setattr(pool, "_render_on", tracked)
    pages = [f"<h2>page {i}</h2><script>const t = Date.now(); while (Date.now() - t < 100) {{}}</script>"
             for i in range(8)]

    async def all_of_them():
        return await asyncio.gather(*(pool.render(html) for html in pages))

    started = time.monotonic()
    results = runner.run(all_of_them())
    assert time.monotonic() - started < 20
    assert peak == 4
    for i, result in enumerate(results):
        assert result.ok, result.error
        assert [b.text for b in result.text_blocks] == [f"page {i}"]


def test_page_session_is_live_and_counts_dialogs(runner):
    html = """<button id="go" onclick="alert('hi'); document.getElementById('out').textContent='clicked'">
      Go</button><p id="out">waiting</p><input id="name">"""

    async def interact():
        session = runner.pool.page(html)
        async with session as page:
            await page.click("#go")
            await page.fill("#name", "Ada")
            value = await page.input_value("#name")
            text = await page.inner_text("#out")
            snap = await session.snapshot()
        return session.events, value, text, snap

    events, value, text, snap = runner.run(interact())
    assert (value, text) == ("Ada", "clicked")
    assert events.dialogs == 1
    assert snap.ok and "clicked" in [b.text for b in snap.text_blocks] and snap.dialogs == 1


WRITER = """<p>wrote</p><script>
const write = (key) => { localStorage.setItem(key, 'v'); sessionStorage.setItem(key, 'v');
                         document.cookie = key + '=1; domain=designrl.page'; };
write('k'); window.name = 'leak';
setInterval(() => write('timer'), 1);  // still writing after the job ends, if it could
addEventListener('pagehide', () => { write('unload'); window.name = 'leak'; });
addEventListener('unload', () => write('unload2'));
addEventListener('beforeunload', (e) => { write('before'); e.preventDefault(); });
const frame = document.createElement('iframe');
frame.srcdoc = "<script>document.cookie = 'f=1'; localStorage.setItem('f', 'v')<\\/script>";
document.body.appendChild(frame);
</script>"""
READER = """<p id=o></p><script>
document.getElementById('o').textContent = 'ls=' + localStorage.length +
  ' ss=' + sessionStorage.length + ' cookie=' + document.cookie + ' name=' + window.name;
</script>"""


def test_state_does_not_leak_between_jobs(runner):
    """Nothing a page stores, at any time (timers, unload handlers, frames), reaches a later job.

    Pages are not navigated away between jobs; consecutive jobs on a page use two origins.
    Rounds: every page writes, then every page reads twice (once in the other origin right
    after the writer's unload handlers ran, once back in the writer's origin).
    """
    async def rounds():
        size = runner.pool.size
        wrote = [await runner.pool.render(WRITER) for _ in range(size)]
        await asyncio.sleep(0.3)  # let any surviving timer fire
        reads = [await runner.pool.render(READER) for _ in range(2 * size)]
        return wrote, reads

    wrote, reads = runner.run(rounds())
    assert all(r.ok and r.dialogs == 0 for r in wrote + reads), [r.error for r in wrote + reads]
    for read in reads:
        assert [b.text for b in read.text_blocks] == ["ls=0 ss=0 cookie= name="]


def test_a_page_that_hangs_while_replaced_does_not_fail_the_next_job(runner):
    """A pagehide handler that never returns is its own job's fault, not the next one's."""
    hang = "<p>x</p><script>addEventListener('pagehide', () => { for (;;) {} })</script>"

    async def rounds():
        size = runner.pool.size
        first = await asyncio.gather(*(runner.pool.render(hang) for _ in range(size)))
        after = await asyncio.gather(*(runner.pool.render("<p>next</p>") for _ in range(size)))
        return first, after

    started = time.monotonic()
    first, after = runner.run(rounds())
    assert all(r.ok for r in first)
    assert all(r.ok and [b.text for b in r.text_blocks] == ["next"] for r in after), \
        [r.error for r in after]
    assert time.monotonic() - started < 20


def running(pid: int) -> bool:
    """Alive and not a zombie (a zombie is dead, waiting for its parent to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_killed_browser_is_relaunched(runner):
    pool = runner.pool
    launches = pool.stats.browser_launches
    pids = browser_pids(pool._handles[0].marker)
    assert len(pids) >= 4  # the browser, its zygotes, GPU process and renderers

    async def kill_then_render():
        # most of them: a renderer may exit by itself between the listing and the kill
        assert kill_browser(pool._handles[0].marker) >= len(pids) - 2
        await asyncio.sleep(0.2)
        return await pool.render("<p>back</p>")

    result = runner.run(kill_then_render())
    assert not any(running(pid) for pid in pids)  # no orphaned renderer left behind
    assert result.ok, result.error
    assert [b.text for b in result.text_blocks] == ["back"]
    assert pool.stats.browser_launches == launches + 1


def test_browser_killed_mid_render_of_a_hung_page_is_the_pages_timeout(runner):
    pool = runner.pool

    async def kill_during():
        async def killer():
            await asyncio.sleep(0.5)
            kill_browser(pool._handles[0].marker)

        hung = pool.render("<p>x</p><script>while (true) {}</script>")
        result, _ = await asyncio.gather(hung, killer())
        return result, await pool.render("<p>after</p>")

    started = time.monotonic()
    crashed, after = runner.run(kill_during())
    assert not crashed.ok and crashed.timed_out  # run again on a relaunched browser: it hangs
    assert time.monotonic() - started < 20
    assert after.ok and [b.text for b in after.text_blocks] == ["after"]


def test_our_disabled_features_cover_playwrights(runner):
    """Chromium keeps the last --disable-features given: ours must repeat Playwright's."""
    pid = browser_pids(runner.pool._handles[0].marker)[0]
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        args = cmdline.read().decode().split("\0")
    lists = [set(a.split("=", 1)[1].split(",")) for a in args
             if a.startswith("--disable-features=")]
    assert len(lists) >= 2 and "RenderDocument" in lists[-1]
    for earlier in lists[:-1]:
        assert earlier <= lists[-1], earlier - lists[-1]


def test_render_html_one_shot():
    require_chromium()
    result = render_html("<p style='color:#123456'>one shot</p>", viewport=(640, 480))
    assert result.ok and (result.width, result.height) == (640, 480)
    assert result.text_blocks[0].color == (0x12, 0x34, 0x56)
    started = time.monotonic()
    refused = render_html("x" * 3_000_000)
    assert refused.error == "input_too_large" and time.monotonic() - started < 1


def test_page_scripts_cannot_fake_the_dom_facts(runner):
    """Our measuring scripts run in an isolated world: page overrides do not reach them."""
    html = """<p style="color:#0000ff">real</p><script>
      window.getComputedStyle = () => ({color: 'rgb(1, 2, 3)', fontSize: '99px'});
      Element.prototype.getBoundingClientRect = () => ({left: 0, top: 0, width: 1, height: 1});
      Range.prototype.getBoundingClientRect = () => ({left: 0, top: 0, width: 1, height: 1});
      document.getElementsByTagName = () => ({length: 1});
      window.Promise = null; window.JSON = null; window.requestAnimationFrame = null;
    </script>"""
    result = runner.render(html)
    assert result.ok, result.error
    (block,) = result.text_blocks
    assert block.text == "real" and block.color == (0, 0, 255) and block.font_size == 16
    assert block.bbox[2] > 1 and result.dom_nodes >= 5


def test_page_session_load_failure_raises_render_error(runner):
    from designrl.render import RenderError

    async def open_hung():
        try:
            async with runner.pool.page("<p>x</p><script>while (true) {}</script>"):
                return None
        except RenderError as exc:
            return exc.result

    started = time.monotonic()
    result = runner.run(open_hung())
    assert result is not None and result.timed_out and result.error == "timeout"
    assert time.monotonic() - started < POOL_TIMEOUT_S + 4
    assert runner.render("<p>fine</p>").ok


def test_contexts_are_recycled_after_recycle_after_jobs(runner, monkeypatch):
    pool = runner.pool
    monkeypatch.setattr(pool, "recycle_after", 1)
    before = pool.stats.context_recycles
    for _ in range(2 * pool.size):  # round robin: the second round recycles every slot
        assert runner.render("<p>again</p>").ok
    assert pool.stats.context_recycles - before >= pool.size
