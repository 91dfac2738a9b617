"""The render lease (issue 19): ``render()`` and page sessions hold pages the one way
(``PageLease``), so both are counted; families drive a session through its calls
(``evaluate``, ``click``, ``type``, ...), each under the job's deadline, and never touch CDP
or the pool's private members."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from designrl.render import RenderError
from designrl.render.job_deadline import JobAborted
from designrl.render.png import decode_png

FAMILIES = Path(__file__).resolve().parents[2] / "designrl" / "tasks"

FORM = """<input id="name" style="position:absolute; left:10px; top:10px; width:200px">
<button id="go" style="position:absolute; left:10px; top:60px; width:120px; height:40px"
  onclick="document.getElementById('out').textContent = 'hello ' +
           document.getElementById('name').value">go</button><p id="out"
  style="position:absolute; top:120px">waiting</p>"""


def test_a_session_is_driven_through_its_calls_and_counted(runner):
    pool = runner.pool

    async def drive():
        before = (pool.stats.renders, pool.stats.failures)
        session = pool.page(FORM)
        async with session:
            await session.click(60, 20)
            await session.type("Ada")
            await session.move(70, 80)
            await session.click(70, 80)
            text = await session.evaluate("(id) => document.getElementById(id).textContent",
                                          "out")
            png = await session.screenshot()
            await session.add_script("window.__measured = 41 + 1;")
            measured = await session.evaluate("() => window.__measured")
            page_sees = await session.page.evaluate("() => window.__measured")
            await session.press("Tab")
        await pool.render("<p>rendered</p>")
        return before, text, png, measured, page_sees, (pool.stats.renders, pool.stats.failures)

    before, text, png, measured, page_sees, after = runner.run(drive())
    assert text == "hello Ada"
    assert decode_png(png).shape[:2] == (800, 1280)  # the viewport
    # scripts run in the measuring world, which the page's own scripts cannot see
    assert measured == 42 and page_sees is None
    assert after == (before[0] + 2, before[1])  # the session and the render, neither failed


def test_a_call_the_page_does_not_answer_ends_in_time_and_the_page_is_recycled(runner):
    pool = runner.pool

    async def hang():
        session = pool.page("<button style='width:200px;height:100px' "
                            "onclick='while (true) {}'>spin</button>")
        async with session:
            with pytest.raises(TimeoutError):
                await session.evaluate("() => new Promise(() => {})", timeout_s=0.5)
            with pytest.raises(TimeoutError):  # the page's handler spins
                await session.click(50, 30, timeout_s=1.0)
            await session.stop_scripts()
            return await session.evaluate("() => 1 + 1", timeout_s=2.0)

    assert runner.run(hang()) == 2
    assert runner.render("<p>after</p>").ok


def test_a_dialog_flood_ends_the_sessions_calls_with_the_reason(runner):
    pool = runner.pool
    flood = ("<button style='width:200px;height:100px' "
             "onclick='for (let i = 0; i < 100; i++) alert(i)'>flood</button>")

    async def press():
        session = pool.page(flood)
        async with session:
            with pytest.raises(JobAborted, match="too_many_dialogs"):
                await session.click(50, 30, timeout_s=5.0)
            with pytest.raises(JobAborted, match="too_many_dialogs"):  # the job is over
                await session.evaluate("() => 1")
        return session.events.dialogs

    assert runner.run(press()) > pool.max_dialogs


def test_a_session_that_cannot_load_raises_render_error_and_counts_a_failure(runner):
    pool = runner.pool

    async def broken():
        failures = pool.stats.failures
        try:
            async with pool.page("<p>x</p><script>while (true) {}</script>"):
                pass
        except RenderError as exc:
            return exc.result, pool.stats.failures - failures

    result, failed = runner.run(broken())
    assert result.timed_out and failed == 1


def test_families_use_no_cdp_and_no_private_pool_or_session_members():
    found = []
    pattern = re.compile(r"\bcdp\b|new_cdp_session|IsolatedWorld|\bpool\._|session\._"
                         r"|designrl\.render\.(slot|lease)|\.page\.(mouse|keyboard|evaluate)")
    for path in sorted(FAMILIES.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(FAMILIES.parent)}:{number}: {line.strip()}")
    assert not found, "families drive pages through the session's calls:\n" + "\n".join(found)
