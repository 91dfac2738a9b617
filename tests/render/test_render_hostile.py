"""Hostile pages: each is a scored failure or a recorded block within its cap, and the pool
keeps serving right after. Nothing a page asks for ever reaches the network."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from browser_support import driver_peak_mb
from playwright.async_api import Route, WebSocketRoute

from designrl.render import RenderResult
from designrl.render.events import MAX_CHARS
from designrl.render.sandbox import is_our_host
from designrl.render.slot import CLOSE_TIMEOUT_S, RESET_TIMEOUT_S

pytestmark = pytest.mark.integration

POOL_TIMEOUT_S = 6.0  # the per-job limit of this module's pool: 210k elements parse in ~4 s here
WAITS_OUT = POOL_TIMEOUT_S + 4  # cases that run into the limit, plus cleanup
WITHIN = POOL_TIMEOUT_S + 2  # cases that must end without waiting the limit out (slow CI slack)
# A browser too busy to answer: entering the next document may fail and its context be
# replaced before the job's own limit, and the hung context's close is waited out after it.
HANGS_BROWSER = RESET_TIMEOUT_S + CLOSE_TIMEOUT_S + POOL_TIMEOUT_S + CLOSE_TIMEOUT_S + 6

NORMAL = "<h2 style='color:#222'>normal page</h2>"


@dataclass
class Case:
    html: str
    check: Callable[[RenderResult], bool]
    cap_s: float


def blocked(*urls: str) -> Callable[[RenderResult], bool]:
    return lambda r: all(u in r.blocked_requests for u in urls)


CASES = {
    "infinite_loop": Case(
        "<p>spin</p><script>while (true) {}</script>",
        lambda r: r.timed_out and r.error == "timeout" and r.png == b"", WAITS_OUT),
    "loop_after_load": Case(
        "<p>spin</p><script>onload = () => setTimeout(() => { for (;;) {} }, 0)</script>",
        lambda r: not r.ok, WAITS_OUT),
    "huge_dom": Case(
        "<body><script>const f = document.createDocumentFragment();"
        "for (let i = 0; i < 120000; i++) f.appendChild(document.createElement('div'));"
        "document.body.appendChild(f);</script></body>",
        lambda r: r.exceeded == "dom_nodes" and r.dom_nodes > 120000, WAITS_OUT),
    # 30k elements in a frame and 30k in an open shadow root: neither alone is over the cap.
    "dom_across_frame_and_shadow": Case(
        "<p>x</p><script>const fill = (doc, parent, tag) => { const f = doc.createDocumentFragment();"
        "for (let i = 0; i < 30000; i++) f.appendChild(doc.createElement(tag));"
        "parent.appendChild(f); };"
        "const frame = document.createElement('iframe'); document.body.appendChild(frame);"
        "fill(frame.contentDocument, frame.contentDocument.body, 'div');"
        "const host = document.createElement('div'); document.body.appendChild(host);"
        "fill(document, host.attachShadow({mode: 'open'}), 'span');</script>",
        lambda r: r.exceeded == "dom_nodes" and r.dom_nodes > 60000, WAITS_OUT),
    # Out of our measuring world's reach: the renderer's node counter finds them.
    "dom_in_closed_shadow_root": Case(
        "<p>x</p><div><template shadowrootmode='closed'>" + "<i></i>" * 210_000
        + "</template></div>",
        lambda r: r.exceeded == "dom_nodes" and r.dom_nodes > 210_000, WAITS_OUT),
    "dom_in_data_frame": Case(
        "<p>x</p><iframe src=\"data:text/html,<script>const f = document.createDocumentFragment();"
        "for (let i = 0; i < 210000; i++) f.appendChild(document.createElement('i'));"
        "document.body.appendChild(f);</script>\"></iframe>",
        lambda r: r.exceeded == "dom_nodes" and r.dom_nodes > 210_000, WAITS_OUT),
    "alert_loop": Case(
        "<p>x</p><script>for (;;) alert('again')</script>",
        lambda r: r.error == "too_many_dialogs" and r.dialogs > 20, WITHIN),
    "outside_fetch_and_img": Case(
        "<img src='http://example.com/x.png'><p>x</p>"
        "<script>fetch('http://example.com/data.json').catch(() => {});"
        "navigator.sendBeacon('https://tracker.example/b', 'x');</script>",
        lambda r: r.ok and blocked("http://example.com/x.png", "http://example.com/data.json",
                                   "https://tracker.example/b")(r), WITHIN),
    "file_urls": Case(
        "<img src='file:///etc/passwd'><iframe src='file:///etc/passwd'></iframe><p>x</p>",
        lambda r: r.ok and r.blocked_requests.count("file:///etc/passwd") == 2, WITHIN),
    "meta_refresh_away": Case(
        "<meta http-equiv='refresh' content='0;url=http://evil.example/'><p>still here</p>",
        lambda r: r.ok and blocked("http://evil.example/")(r)
        and r.refused_navigations == ["http://evil.example/"]
        and [b.text for b in r.text_blocks] == ["still here"], WITHIN),
    # Top-frame navigations the router never sees are cancelled at the document and recorded:
    # the page stays, and is scored as the page it was.
    "blob_top_navigation": Case(
        "<p>still here</p><script>location.href = URL.createObjectURL("
        "new Blob(['<p>replaced</p>'], {type: 'text/html'}))</script>",
        lambda r: r.ok and [b.text for b in r.text_blocks] == ["still here"]
        and len(r.refused_navigations) == 1 and r.refused_navigations[0].startswith("blob:"),
        WITHIN),
    "blob_form_to_top": Case(
        "<p>still here</p><form target=_top></form><script>onload = () => {"
        "const f = document.forms[0]; f.action = URL.createObjectURL(new Blob(['<p>x</p>'],"
        "{type: 'text/html'})); f.submit(); }</script>",
        lambda r: r.ok and [b.text for b in r.text_blocks] == ["still here"]
        and len(r.refused_navigations) == 1, WITHIN),
    "about_blank_top_navigation": Case(
        "<p>still here</p><script>onload = () => { location.replace('about:blank') }</script>",
        lambda r: r.ok and [b.text for b in r.text_blocks] == ["still here"]
        and r.refused_navigations == ["about:blank"], WITHIN),
    "data_top_navigation": Case(
        "<p>still here</p><script>onload = () => { location.href = 'data:text/html,x' }</script>",
        lambda r: r.ok and [b.text for b in r.text_blocks] == ["still here"]
        and r.refused_navigations == ["data:text/html,x"], WITHIN),
    "location_reload_loop": Case(
        "<p>stay</p><script>location.reload()</script>",
        lambda r: r.ok and [b.text for b in r.text_blocks] == ["stay"], WITHIN),
    "popup": Case(
        "<p>x</p><script>window.open('http://evil.example/pop')</script>",
        lambda r: r.ok and r.popups == 1 and blocked("http://evil.example/pop")(r), WITHIN),
    "scripted_download": Case(
        "<p>x</p><script>const a = document.createElement('a');"
        "a.href = URL.createObjectURL(new Blob(['payload'])); a.download = 'x.txt';"
        "document.body.appendChild(a); a.click();</script>",
        lambda r: r.ok and r.downloads == 1, WITHIN),
    "websocket": Case(
        "<p>x</p><script>new WebSocket('ws://evil.example/socket')</script>",
        lambda r: r.ok and blocked("ws://evil.example/socket")(r), WITHIN),
    "webrtc": Case(
        "<p>x</p><script>new RTCPeerConnection({iceServers: [{urls: 'stun:192.0.2.1:3478'}]})"
        "</script>",
        lambda r: r.ok and any("RTCPeerConnection" in e for e in r.page_errors), WITHIN),
    "history_flood": Case(
        "<p>x</p><script>for (let i = 0; i < 100000; i++) history.pushState({}, '', '#' + i)"
        "</script>",
        lambda r: r.ok, WITHIN),
    # Fragment navigations cannot be budgeted from script (Location is unforgeable); each
    # one loads the browser process, which may stop answering: the browser is then killed.
    "hash_flood": Case(
        "<p>x</p><script>for (let i = 0; i < 100000; i++) location.hash = '#' + i</script>",
        lambda r: r.ok or r.timed_out, HANGS_BROWSER),
    "worker_fetch": Case(
        "<p>x</p><script>new Worker(URL.createObjectURL(new Blob(["
        "'fetch(\"http://evil.example/w\").catch(() => {})'])))</script>",
        lambda r: r.ok and blocked("http://evil.example/w")(r), WITHIN),
    "deep_nesting": Case(
        "<body><script>let e = document.body; for (let i = 0; i < 20000; i++) {"
        "const d = document.createElement('div'); e.appendChild(d); e = d; }</script>",
        lambda r: r.ok or r.error == "page_crashed", WITHIN),
    "input_50mb": Case("<p>" + "x" * 50_000_000, lambda r: r.error == "input_too_large", 1),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_page_is_contained_and_pool_keeps_serving(runner, name):
    case = CASES[name]
    started = time.monotonic()
    result = runner.render(case.html)
    elapsed = time.monotonic() - started
    assert case.check(result), (name, result.error, result.blocked_requests, result.page_errors)
    assert elapsed < case.cap_s, f"{name} took {elapsed:.1f}s"
    after = runner.render(NORMAL)
    assert after.ok and [b.text for b in after.text_blocks] == ["normal page"], after.error


NETWORK_CASES = ["outside_fetch_and_img", "file_urls", "meta_refresh_away", "popup",
                 "websocket", "scripted_download", "webrtc", "worker_fetch"]


def test_no_request_leaves_the_machine(runner, monkeypatch):
    """Every request the router saw was fulfilled by us or aborted; none went to the network."""
    answered: list[tuple[str, str]] = []

    def recording(method: str, original=None):
        async def wrapper(self, *args, **kwargs):
            answered.append((method, self.request.url if hasattr(self, "request") else self.url))
            if original is not None:
                return await original(self, *args, **kwargs)
            raise AssertionError(f"{method} would reach the network")
        return wrapper

    monkeypatch.setattr(Route, "fulfill", recording("fulfill", Route.fulfill))
    monkeypatch.setattr(Route, "abort", recording("abort", Route.abort))
    monkeypatch.setattr(Route, "continue_", recording("continue", Route.continue_))
    monkeypatch.setattr(Route, "fallback", recording("fallback"))
    monkeypatch.setattr(Route, "fetch", recording("fetch"))
    monkeypatch.setattr(WebSocketRoute, "connect_to_server", recording("ws_connect"))

    page = ("<link rel=stylesheet href='https://cdn.example/x.css'>"
            "<img src='rick.jpg'><img src='http://designrl.assets/rick.jpg'>"
            "<img src='data:image/gif;base64,R0lGODlhAQABAAAAACw='><p>mixed</p>")
    results = [runner.render(page)] + [runner.render(CASES[n].html) for n in NETWORK_CASES]
    assert all(r.ok for r in results), [r.error for r in results]

    methods = {m for m, _ in answered}
    assert methods <= {"fulfill", "abort", "continue"}, methods
    for method, url in answered:
        if method == "continue":
            assert url.startswith(("data:", "blob:")), url
        elif method == "fulfill":
            assert is_our_host(urlsplit(url).hostname), url
    for result in results:
        assert all(is_our_host(urlsplit(u).hostname) for u in result.served_requests)
        assert not any(is_our_host(urlsplit(u).hostname) for u in result.blocked_requests)
    aborted = {url for m, url in answered if m == "abort"}
    assert {"https://cdn.example/x.css", "http://example.com/x.png",
            "http://evil.example/", "http://evil.example/pop"} <= aborted
    fulfilled = {url for m, url in answered if m == "fulfill"}
    assert "http://designrl.assets/rick.jpg" in fulfilled
    assert any(urlsplit(u).path == "/rick.jpg" and urlsplit(u).hostname.endswith(".designrl.page")
               for u in fulfilled)
    assert results[0].blocked_requests == ["https://cdn.example/x.css"]


@pytest.mark.parametrize("name", ["dom_across_frame_and_shadow", "dom_in_closed_shadow_root"])
def test_page_session_counts_every_frame_and_shadow_root(runner, name):
    from designrl.render import RenderError

    async def open_page():
        try:
            async with runner.pool.page(CASES[name].html):
                return None
        except RenderError as exc:
            return exc.result

    started = time.monotonic()
    result = runner.run(open_page())
    assert result is not None and result.exceeded == "dom_nodes", result
    assert time.monotonic() - started < WAITS_OUT
    assert runner.render(NORMAL).ok


def test_a_document_replaced_past_every_guard_ends_its_job(runner):
    """The backstop behind the router and the document guard: if the main frame commits
    any other document during a job (here a navigation from outside the page), the job
    ends ``navigated_away`` with the document's URL recorded, and the pool keeps serving."""
    pool = runner.pool

    async def replace_mid_session():
        session = pool.page("<p>original</p>")
        async with session:
            slot = session._slot
            await slot.cdp.send("Page.navigate", {"url": "about:blank"})
            return await session.snapshot()

    result = runner.run(replace_mid_session())
    assert result.error == "navigated_away" and not result.ok, result.error
    assert result.refused_navigations == ["about:blank"] and result.png == b""
    assert runner.render(NORMAL).ok


BIG = "'x'.repeat(64 << 20)"  # 64 MB: each once grew the driver's peak by ~440 MB
OVERSIZED = {
    "console.log": f"<p>x</p><script>console.log({BIG})</script>",
    "console.error": f"<p>x</p><script>console.error({BIG})</script>",
    "from a frame": f"<p>x</p><script>const f = document.createElement('iframe');"
                    f"document.body.append(f); f.contentWindow.console.log({BIG})</script>",
    "throw": f"<p>x</p><script>throw new Error({BIG})</script>",
    "throw a string": f"<p>x</p><script>throw {BIG}</script>",
    "rejection": f"<p>x</p><script>Promise.reject(new Error({BIG}))</script>",
}


def test_oversized_console_and_errors_are_cut_before_the_driver(runner):
    """Over the payload cap (1M characters): cut in the page, and the job ends on it."""
    before = driver_peak_mb()
    results = {name: runner.render(html) for name, html in OVERSIZED.items()}
    grew = driver_peak_mb() - before
    assert grew < 48, f"the driver's peak grew {grew} MB"
    for name, result in results.items():
        assert (result.error, result.exceeded) == ("resource_exceeded", "console_payload"), name
        recorded = result.console_errors + result.page_errors
        assert all(len(text) <= MAX_CHARS for text in recorded), name
    assert runner.render(NORMAL).ok


def test_long_console_and_errors_under_the_payload_cap_are_cut_and_recorded(runner):
    long = "'x'.repeat(64 << 10)"  # 64K characters: past the 4K cut, under the cap
    logged = runner.render(f"<p>x</p><script>console.error({long})</script>")
    assert logged.ok and logged.console_errors[0].startswith("xxxx"), logged.error
    for script in (f"throw new Error({long})", f"throw {long}",
                   f"Promise.reject(new Error({long}))"):
        result = runner.render(f"<p>x</p><script>{script}</script>")
        assert result.ok, (script, result.error)
        (error,) = result.page_errors
        assert "xxxx" in error and len(error) <= MAX_CHARS, (script, error)
