"""Browser-free parts of designrl.render: the routing policy, caps, parsing, types."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from designrl.render import (
    PAGE_URLS,
    BrowserPool,
    RenderResult,
    asset_url,
    chromium,
    placeholder_jpeg,
)
from designrl.render.assets import AssetStore
from designrl.render.capture import png_size
from designrl.render.chromium import ChromiumNotFound, find_chromium, launch_args
from designrl.render.dom import parse_dom_facts
from designrl.render.events import MAX_CHARS, MAX_ENTRIES, PageEvents
from designrl.render.sandbox import classify

PAGE_URL = PAGE_URLS[0]


def nav(url: str, served: bool = False) -> str:
    return classify(url, navigation=True, main_frame=True,
                    document_url=None if served else PAGE_URL)


def sub(url: str) -> str:
    return classify(url, navigation=False, main_frame=False, document_url=None)


def test_document_is_served_once_then_navigations_are_blocked():
    assert nav(PAGE_URL) == "document"
    assert nav(PAGE_URL, served=True) == "block"  # reload / meta refresh to itself
    assert nav(PAGE_URLS[1]) == "block"  # the other job origin: only the job's own URL
    assert nav("http://evil.example/", served=True) == "block"
    assert nav("http://designrl.page/other", served=True) == "block"
    assert nav("file:///etc/passwd") == "block"
    assert nav("blob:http://a.designrl.page/1234", served=True) == "block"  # never top-level
    assert nav("data:text/html,x", served=True) == "block"


def test_subresources_only_from_our_hosts_and_local_schemes():
    assert sub("http://designrl.page/rick.jpg") == "asset"
    assert sub(PAGE_URLS[1] + "rick.jpg") == "asset"
    assert sub(asset_url("rick.jpg")) == "asset"
    assert sub("https://designrl.assets/x.png") == "asset"
    assert sub("data:image/png;base64,AAAA") == "local"
    assert sub("blob:http://designrl.page/1234") == "local"
    for url in ("http://example.com/x.png", "https://fonts.gstatic.com/a.woff2",
                "file:///etc/passwd", "ws://evil.example/s", "http://127.0.0.1:5432/",
                "http://designrl.page.evil.example/", "ftp://designrl.page/x"):
        assert sub(url) == "block", url


def test_asset_store_serves_placeholder_and_extras_by_file_name():
    store = AssetStore({"logo.png": b"png-bytes"})
    assert store.get("/rick.jpg") == placeholder_jpeg()
    assert store.get("/deep/path/rick.jpg") == placeholder_jpeg()
    assert store.get("/logo.png") == b"png-bytes"
    assert store.get("/missing.png") is None
    image = Image.open(io.BytesIO(placeholder_jpeg()))
    assert image.format == "JPEG" and image.size == (1920, 1080)


def test_input_cap_needs_no_browser():
    pool = BrowserPool(max_input_bytes=1000)
    assert pool._check_input("x" * 1000) == ("x" * 1000, None)
    assert pool._check_input("x" * 1001)[1] == "input_too_large"
    assert pool._check_input("é" * 600)[1] == "input_too_large"  # 1200 bytes in UTF-8
    assert pool._check_input(b"<p>ok</p>") == ("<p>ok</p>", None)
    assert pool._check_input(b"x" * 1001)[1] == "input_too_large"


def test_pool_arguments_are_validated():
    with pytest.raises(ValueError):
        BrowserPool(browsers=0)
    with pytest.raises(ValueError):
        BrowserPool(timeout_s=0)
    assert BrowserPool(browsers=2, pages_per_browser=4).size == 8


def test_result_ok_and_failure():
    assert RenderResult().ok
    assert not RenderResult.failure("resource_exceeded").ok
    timed_out = RenderResult.failure("timeout", timed_out=True)
    assert not timed_out.ok and timed_out.png == b""


def test_png_size_reads_header():
    out = io.BytesIO()
    Image.new("RGB", (37, 11)).save(out, format="PNG")
    assert png_size(out.getvalue()) == (37, 11)
    assert png_size(b"not a png") == (0, 0)


def test_parse_dom_facts():
    facts = parse_dom_facts({
        "dom_nodes": 7,
        "texts": [{"text": "Hi", "bbox": [1, 2, 3, 4], "color": [255, 0, 300],
                   "background": [255, 255, 255], "font_size": 12.5, "font_weight": 700}],
        "elements": [{"tag": "body", "bbox": [0, 0, 10, 10], "depth": 1, "parent": -1}],
    })
    assert facts.dom_nodes == 7
    block = facts.text_blocks[0]
    assert block.text == "Hi" and block.bbox == (1.0, 2.0, 3.0, 4.0)
    assert block.color == (255, 0, 255) and block.font_weight == 700
    assert facts.elements[0].tag == "body" and facts.elements[0].parent == -1


def test_events_are_capped():
    events = PageEvents()
    for i in range(MAX_ENTRIES + 50):
        events.console_error("e" * (MAX_CHARS * 2) + str(i))
    assert len(events.console_errors) == MAX_ENTRIES
    assert all(len(e) <= MAX_CHARS for e in events.console_errors)
    events.popup(1)
    events.popup(1)
    events.popup(2)
    assert events.popups == 2


def test_find_chromium_takes_the_explicit_path_or_looks_on_path(tmp_path, monkeypatch):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert find_chromium(str(fake)) == str(fake)
    with pytest.raises(ChromiumNotFound, match="no Chromium executable at"):
        find_chromium(str(tmp_path / "missing"))
    monkeypatch.setattr(chromium, "DEBIAN_CHROMIUM", str(tmp_path / "not-installed"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_chromium() == str(fake)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ChromiumNotFound, match="install it"):
        find_chromium()


def test_launch_args_carry_required_flags_and_marker():
    args = launch_args("--designrl-browser=abc")
    assert "--no-sandbox" not in args  # Playwright adds it only where the sandbox cannot be
    for flag in ("--headless", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"):
        assert flag in args
    assert args[-1] == "--designrl-browser=abc"


def test_launch_args_keep_one_renderer_per_context():
    # Without it a fresh page's first navigation spawns a new renderer process.
    assert "--disable-site-isolation-trials" in launch_args("--designrl-browser=abc")
    # and without this, every navigation a new frame host (a sixth of a job's CPU).
    assert any(a.startswith("--disable-features=") and "RenderDocument" in a
               for a in launch_args("--designrl-browser=abc"))


def test_a_workers_first_script_runs_the_guards_then_the_pages():
    from designrl.render.document_start import WORKER_CAP, WORKER_START_JS, worker_script

    base = PAGE_URL + "js/__designrl_worker__.js?module=0&url=" + "http%3A%2F%2Fa.designrl.page%2Fjs%2Fw.js"
    classic = worker_script(base)
    assert classic == WORKER_START_JS + 'importScripts("http://a.designrl.page/js/w.js");\n'
    module = worker_script(base.replace("module=0", "module=1"))
    assert module == f'import "/{WORKER_CAP}";\nimport "http://a.designrl.page/js/w.js";\n'
    assert worker_script(PAGE_URL + WORKER_CAP) == WORKER_START_JS
    assert worker_script(PAGE_URL + "js/w.js") is None
