"""Sandboxed Chromium rendering for the browser-scored task families.

``BrowserPool`` renders untrusted HTML into a ``RenderResult`` (screenshot, text
blocks, element boxes, sandbox events); ``render_html`` is its one-shot, sync
form. Playwright is imported only when a pool starts, so importing this package
is cheap and does not need the ``render`` extra.
"""

from designrl.render.assets import PLACEHOLDER_NAMES, placeholder_jpeg
from designrl.render.pool import BrowserPool, PoolStats
from designrl.render.runner import PoolRunner
from designrl.render.sandbox import ASSET_HOST, PAGE_HOST, PAGE_URLS, asset_url
from designrl.render.session import PageSession, RenderError
from designrl.render.sync import render_html
from designrl.render.types import ElementBox, RenderResult, TextBlock

__all__ = [
    "ASSET_HOST",
    "PAGE_HOST",
    "PAGE_URLS",
    "PLACEHOLDER_NAMES",
    "BrowserPool",
    "ElementBox",
    "PageSession",
    "PoolRunner",
    "PoolStats",
    "RenderError",
    "RenderResult",
    "TextBlock",
    "asset_url",
    "placeholder_jpeg",
    "render_html",
]
