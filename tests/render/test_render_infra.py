"""A browser lost under a job is the pool's failure, not the page's: the job runs again on
a fresh page, and a browser lost on every try raises ``InfrastructureError`` (never a
result a reward could score)."""

from __future__ import annotations

import asyncio
import time

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.render.chromium import kill_browser
from designrl.render.types import BrowserLost, InfrastructureError

POOL_TIMEOUT_S = 8.0
# Busy for 1.5 s before it shows anything: a kill at 0.5 s lands mid-job.
SLOW_PAGE = ("<h1 style='color:#234'>slow page</h1><script>const t = Date.now();"
             "while (Date.now() - t < 1500) {}</script><p>after the wait</p>")


@pytest.fixture
def runner():
    require_chromium()
    runner = PoolRunner(run_timeout=120.0, browsers=1, pages_per_browser=2,
                        timeout_s=POOL_TIMEOUT_S)
    yield runner
    runner.close()


def kill_after(pool, seconds: float):
    async def killer():
        await asyncio.sleep(seconds)
        kill_browser(pool._handles[0].marker)
    return killer()


def test_a_browser_killed_mid_job_renders_the_page_again(runner):
    pool = runner.pool
    alone = runner.render(SLOW_PAGE)
    assert alone.ok, alone.error

    async def killed_mid_job():
        result, _ = await asyncio.gather(pool.render(SLOW_PAGE), kill_after(pool, 0.5))
        return result

    retries = pool.stats.infra_retries
    result = runner.run(killed_mid_job())
    assert result.ok, result.error
    assert [b.text for b in result.text_blocks] == [b.text for b in alone.text_blocks]
    assert result.png == alone.png
    assert pool.stats.infra_retries == retries + 1


def test_a_browser_that_will_not_start_is_an_infrastructure_error(runner):
    pool = runner.pool
    executable = pool.executable_path
    pool.executable_path = "/bin/false"  # a real launch that fails, every time
    kill_browser(pool._handles[0].marker)
    started = time.monotonic()
    with pytest.raises(InfrastructureError, match="on each of 3 tries"):
        runner.render("<p>a perfect page</p>")
    assert time.monotonic() - started < 60
    pool.executable_path = executable  # the machine is healthy again: so is the pool
    back = runner.render("<p>back</p>")
    assert back.ok and [b.text for b in back.text_blocks] == ["back"]


def test_a_page_session_that_lost_its_browser_raises_and_retrying_runs_it_again(runner):
    pool = runner.pool
    tries = []

    async def lease():
        async with pool.page("<p>leased</p>") as page:
            tries.append(await page.inner_text("p"))
            if len(tries) == 1:  # the first lease loses its browser under the block
                kill_browser(pool._handles[0].marker)
                await asyncio.sleep(0.3)
        return tries[-1]

    async def lost_once():
        with pytest.raises(BrowserLost):
            await lease()
        return await pool.retrying(lease)

    assert runner.run(lost_once()) == "leased"
    assert tries == ["leased", "leased"]

