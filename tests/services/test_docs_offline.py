"""``/docs`` and ``/redoc`` work offline: in real Chromium, with every request to a host
other than the API's own failed and recorded, Swagger UI lists the operations and ReDoc
shows the API's title, for the API and for the layout env mounted under ``/env`` (its
pages' URLs carry the mount's root path). No request leaves the page; the only console
errors allowed are the pages' Content-Security-Policy refusing an off-host URL (ReDoc's
Redocly logo from cdn.redoc.ly), which never reaches the network."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from browser_support import require_chromium
from db_support import postgres_schema
from stack_support import Stack
from ui_support import watch_errors

from designrl.store import upgrade

pytestmark = pytest.mark.integration

# page -> (what shows it rendered, its text)
PAGES = {
    "/docs": (".opblock-summary-path[data-path='/v1/jobs']", "/v1/jobs"),
    "/redoc": ("h1", "designrl API"),
    "/env/docs": (".opblock-summary-path[data-path='/reset']", "/reset"),
    "/env/redoc": ("h1", "designrl layout env"),
}


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    require_chromium()
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_RECONCILE_EVERY_S="0")
        try:
            stack.start_api()
            yield stack
        finally:
            stack.close()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    from designrl.render.chromium import find_chromium

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=find_chromium(),
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        yield browser
        browser.close()


@pytest.mark.parametrize("path", list(PAGES))
def test_docs_page_renders_with_no_request_off_host(browser, stack, path):
    own = urlsplit(stack.api_url).netloc
    # the key opens /env (its pages need one, as every /env route does)
    context = browser.new_context(base_url=stack.api_url,
                                  extra_http_headers={"X-API-Key": stack.key})
    context.set_default_timeout(15_000)
    off_host: list[str] = []
    seen: list[str] = []

    def only_own_host(route) -> None:
        url = route.request.url
        if urlsplit(url).netloc != own:
            off_host.append(url)
            route.abort("blockedbyclient")
        else:
            route.continue_()

    context.route("**/*", only_own_host)
    page = context.new_page()
    failed: dict[str, str | None] = {}
    page.on("request", lambda request: seen.append(request.url))
    page.on("requestfailed", lambda request: failed.__setitem__(request.url, request.failure))
    errors = watch_errors(page)
    try:
        response = page.goto(path)
        assert response is not None and response.status == 200
        selector, text = PAGES[path]
        shown = page.locator(selector).filter(has_text=re.compile(re.escape(text))).first
        shown.wait_for(state="visible")
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert not off_host, off_host  # nothing reached the network for another host
    # and the browser stopped every off-host load the page tried before sending it
    tried = [url for url in seen if urlsplit(url).scheme not in ("data", "blob")
             and urlsplit(url).netloc != own]
    assert all(failed.get(url) == "csp" for url in tried), (tried, failed)
    assert any("/docs-assets/" in url for url in seen), seen
    assert all(_refused_off_host(message, own) for message in errors.messages), errors.messages


def _refused_off_host(message: str, own: str) -> bool:
    """A console error that is the CSP stopping a load from another host (never sent)."""
    refused = re.search(r"'([a-z]+://[^']+)'", message)  # the URL it refused to load
    return (refused is not None and "Content Security Policy" in message
            and urlsplit(refused.group(1)).netloc not in ("", own))
