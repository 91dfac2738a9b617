"""Workers in real Chromium: they start from the sandbox's script, so their console and
errors are cut before the driver as a document's are; what no route sees (a worker's
WebSocket, any SharedWorker) is refused and recorded as a blocked request; honest classic
and module workers still answer messages and load their relative scripts; and no window of
the page (an ``about:blank`` frame, a popup, a worker) hands out an unguarded ``Worker``."""

from __future__ import annotations

import asyncio
import json

import pytest
from browser_support import PoolRunner, driver_peak_mb, require_chromium

from designrl.render import RenderError, RenderResult
from designrl.render.events import MAX_CHARS

pytestmark = pytest.mark.integration

POOL_TIMEOUT_S = 8.0
NORMAL = "<h2 style='color:#222'>normal page</h2>"
ASSETS = {  # served by file name under any path of the page's origin
    "classic.js": b"importScripts('helper.js');"
                  b"onmessage = (e) => postMessage(e.data + ' ' + helper);",
    "helper.js": b"var helper = 'classic-helped';",
    "module.js": b"import {helper} from './module-helper.js';"
                 b"onmessage = (e) => postMessage(e.data + ' ' + helper);",
    "module-helper.js": b"export const helper = 'module-helped';",
}


@pytest.fixture(scope="module")
def runner():
    require_chromium()
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=2,
                        timeout_s=POOL_TIMEOUT_S, assets=ASSETS)
    yield runner
    runner.close()


def blob_worker(code: str, make: str = "Worker") -> str:
    """A page whose worker runs ``code``, then says 'done' (the page's title)."""
    source = json.dumps(code + "; postMessage('done')")
    return (f"<p>x</p><script>const w = new ({make})(URL.createObjectURL(new Blob([{source}])));"
            "w.onmessage = (e) => { document.title = e.data };"
            "w.onerror = () => { document.title = 'error' };</script>")


def session(runner: PoolRunner, html: str) -> tuple[RenderResult, str | None]:
    """The page once its title is set (or a cap ended it) and its title, in a page session."""

    async def run():
        lease = runner.pool.page(html)
        try:
            async with lease as page:
                try:
                    await page.wait_for_function("document.title !== ''", timeout=5000)
                except Exception:
                    pass  # a cap ended the job: the snapshot says so
                for _ in range(20):  # the worker's console reaches us on its own session
                    if lease.events.exceeded:
                        break
                    await asyncio.sleep(0.1)
                return await lease.snapshot(), await page.title()
        except RenderError as exc:
            return exc.result, None

    return runner.run(run())


BIG = "'x'.repeat(2 ** 29 - 24)"  # 512 MB, as long as a V8 string may be
OVERSIZED = {
    "console.log 512 MB": blob_worker(f"console.log({BIG})"),
    "throw": blob_worker("throw new Error('x'.repeat(64 << 20))"),
    "rejection": blob_worker("Promise.reject(new Error('x'.repeat(64 << 20)))"),
    # The escapes a page could try: a Worker from a window the page made itself.
    "about:blank frame": blob_worker(
        "console.log('x'.repeat(64 << 20))",
        make="(() => { const f = document.createElement('iframe');"
             " document.body.append(f); return f.contentWindow.Worker })()"),
    "prototype constructor": blob_worker("console.log('x'.repeat(64 << 20))",
                                         make="Worker.prototype.constructor"),
}


@pytest.mark.parametrize("name", list(OVERSIZED))
def test_a_workers_oversized_console_and_errors_are_cut_before_the_driver(runner, name):
    """Without the worker's cap a 64 MB ``console.log`` in a Worker grew the driver's peak
    by 436 MB and the job ended ``ok`` (measured on the tree before this test)."""
    before = driver_peak_mb()
    result, _ = session(runner, OVERSIZED[name])
    grew = driver_peak_mb() - before
    assert grew < 48, f"the driver's peak grew {grew} MB"
    assert (result.error, result.exceeded) == ("resource_exceeded", "console_payload"), \
        (name, result.error, result.page_errors)
    recorded = result.console_errors + result.page_errors
    assert all(len(text) <= MAX_CHARS for text in recorded), name
    assert runner.render(NORMAL).ok


def test_a_popups_constructors_are_guarded_too(runner):
    """A popup the page opens runs the document-start script too: its SharedWorker is
    refused (synchronously, in the page's own script) and the driver never sees its
    worker's oversized console. The popup is closed at once, so whether its console's
    records reach the job is a race: they are not asserted."""
    before = driver_peak_mb()
    log = json.dumps("console.log('x'.repeat(64 << 20))")
    result, title = session(runner, (
        "<p>x</p><script>let refused = 'not refused';"
        "try { new (window.open().SharedWorker)('shared.js') } catch (e) { refused = e.name }"
        f"new (window.open().Worker)(URL.createObjectURL(new Blob([{log}])));"
        "document.title = refused</script>"))
    assert driver_peak_mb() - before < 48
    assert result.ok and result.popups == 2 and title == "SecurityError", (title, result.error)
    assert runner.render(NORMAL).ok


def test_a_workers_websocket_is_refused_and_recorded(runner):
    result, title = session(runner, blob_worker(
        "try { new WebSocket('ws://evil.example/socket') }"
        " catch (e) { console.error('refused ' + e.name) }"))
    assert result.ok and title == "done", result.error
    assert "ws://evil.example/socket" in result.blocked_requests, result.blocked_requests
    assert result.console_errors == ["refused SecurityError"]


def test_a_worker_in_a_worker_is_refused_and_recorded(runner):
    """No route sees a nested worker's script, so it could not start from the sandbox's:
    without the refusal its 64 MB ``console.log`` grew the driver's peak by 440 MB."""
    result, title = session(runner, blob_worker(
        "try { new Worker('inner.js') } catch (e) { console.error('refused ' + e.name) }"))
    assert result.ok and title == "done", result.error
    assert [u for u in result.blocked_requests if u.endswith("/inner.js")], \
        result.blocked_requests
    assert result.console_errors == ["refused SecurityError"]


def test_a_shared_worker_is_refused_and_recorded(runner):
    result, title = session(runner, "<p>x</p><script>try { new SharedWorker('shared.js') }"
                                    " catch (e) { document.title = e.name }</script>")
    assert result.ok and title == "SecurityError", result.error
    assert [u for u in result.blocked_requests if u.endswith("/shared.js")], \
        result.blocked_requests


@pytest.mark.parametrize("script, options, answer", [
    ("js/classic.js", "{}", "ping classic-helped"),
    ("js/module.js", "{type: 'module'}", "ping module-helped"),
])
def test_honest_workers_answer_and_load_their_relative_scripts(runner, script, options, answer):
    page = (f"<p>x</p><script>const w = new Worker('{script}', {options});"
            "w.onmessage = (e) => { document.title = e.data };"
            "w.onerror = (e) => { document.title = 'error ' + e.message };"
            "w.postMessage('ping');</script>")
    result, title = session(runner, page)
    assert result.ok and title == answer, (title, result.error, result.page_errors)
    assert not result.blocked_requests and not result.page_errors
    helper = "/js/helper.js" if "classic" in script else "/js/module-helper.js"
    assert any(u.endswith(helper) for u in result.served_requests), result.served_requests
