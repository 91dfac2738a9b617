"""Helpers for the web UI tests (tests/ui): viewports, a browser context with the API key
entered, a watch on a page's errors, screenshots into the artifacts folder."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("DESIGNRL_UI_ARTIFACTS", ROOT / "artifacts" / "ui"))
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@dataclass
class PageErrors:
    messages: list[str] = field(default_factory=list)


def open_context(browser, ui_stack, viewport: str, *, with_key: bool = True):
    context = browser.new_context(viewport=VIEWPORTS[viewport], base_url=ui_stack.url)
    if with_key:
        context.add_init_script(
            f"localStorage.setItem('designrl.apiKey', {json.dumps(ui_stack.key)})")
    context.set_default_timeout(30_000)
    return context


def watch_errors(page) -> PageErrors:
    errors = PageErrors()
    page.on("pageerror", lambda exc: errors.messages.append(f"page error: {exc}"))
    page.on("console", lambda msg: msg.type == "error"
            and errors.messages.append(f"console: {msg.text}"))
    return errors


def screenshot(page, name: str) -> Path:
    """A full-page screenshot in the artifacts folder, named by test and viewport."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    path = ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def images_loaded(locator) -> bool:
    """Every <img> the locator matches has loaded (a decoded picture, not a broken one)."""
    return locator.evaluate_all(
        "imgs => imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0)")
