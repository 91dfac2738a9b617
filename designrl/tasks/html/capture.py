"""One page, captured twice on one load: as it is, and with its text made invisible.

The difference of the two screenshots is the pixels the page's text draws (its
"ink"), so the reward knows which DOM text a reader can see: text coloured like its
background, hidden under a picture or a rectangle, or shrunk to nothing draws no
ink. The second capture is of the same loaded document (``BrowserPool.page``), after
one style sheet sets the glyph fill (``-webkit-text-fill-color``, SVG ``fill``), text
shadows, strokes and decorations transparent; ``color`` itself is left alone, so
borders and icons drawn in ``currentColor`` do not change. Transitions are switched
off with it, so the change lands at once.

A page that defeats the sheet (its own ``!important`` rules of higher specificity)
only hides its own text from the reward: ink it does not lose is not counted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from designrl.render.session import RenderError
from designrl.render.types import RenderResult

log = logging.getLogger(__name__)

HIDE_TEXT_CSS = (
    "*, *::before, *::after, *::first-letter, *::first-line, *::placeholder, *::marker {"
    " -webkit-text-fill-color: transparent !important; text-shadow: none !important;"
    " -webkit-text-stroke-color: transparent !important;"
    " text-decoration-color: transparent !important; transition: none !important; }"
    " svg text, svg tspan, svg textPath { fill: transparent !important;"
    " stroke: transparent !important; }"
)

HIDE_TEXT_JS = """(css) => new Promise(done => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
})"""


# Before the first capture, two things that made two renders of one page differ: CSS
# transitions are switched off (the full-page capture resizes the page's surface, and a
# transition it starts was caught at a random point), and lazy images load now rather
# than whenever the capture brings them into view (a full-page screenshot shows the
# whole page). Bounded: images that take longer are captured as they are.
EAGER_IMAGES_JS = """(ms) => new Promise(done => {
  const still = new CSSStyleSheet();
  still.replaceSync('*, *::before, *::after { transition: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
  const lazy = Array.from(document.images).filter(img => img.loading === 'lazy');
  lazy.forEach(img => { img.loading = 'eager'; });
  const waits = lazy.filter(img => !img.complete).map(img => new Promise(ok => {
    img.addEventListener('load', ok, {once: true});
    img.addEventListener('error', ok, {once: true});
  }));
  const settle = () => requestAnimationFrame(() => requestAnimationFrame(() => done(lazy.length)));
  if (!waits.length) return settle();
  Promise.race([Promise.all(waits), new Promise(ok => setTimeout(ok, ms))]).then(settle);
})"""
EAGER_WAIT_MS = 2000


@dataclass
class PageCapture:
    """A page's normal render and the screenshot of it with its text hidden (``None``
    when the page failed to render, or the second capture could not be taken)."""

    render: RenderResult
    textless_png: bytes | None = None


async def capture_page(pool, html: str, viewport: tuple[int, int] | None = None) -> PageCapture:
    """Render ``html`` in ``pool`` at ``viewport``, then capture it again with its text hidden.

    Failures come back as the render's error (as ``pool.render`` reports them). A page
    whose second capture fails (its script broke the page meanwhile) is reported as a
    failed render, ``render_failed: text capture``: what it shows cannot be scored. A
    browser lost under the capture is not the page's failure: it is captured again.
    """
    return await pool.retrying(lambda: _capture_once(pool, html, viewport))


async def _capture_once(pool, html: str, viewport: tuple[int, int] | None) -> PageCapture:
    session = pool.page(html, viewport)
    try:
        async with session:
            try:
                await session.evaluate(EAGER_IMAGES_JS, EAGER_WAIT_MS)
            except Exception as exc:  # noqa: BLE001 - the capture below says what broke
                log.debug("eager images failed: %r", exc)
            render = await session.snapshot()
            if not render.ok:
                return PageCapture(render)
            try:
                await session.evaluate(HIDE_TEXT_JS, HIDE_TEXT_CSS)
            except Exception as exc:  # noqa: BLE001 - the page broke: a failed render
                log.debug("text capture failed: %r", exc)
                return PageCapture(_failed(render, "render_failed: text capture"))
            textless = await session.snapshot()
    except RenderError as exc:
        return PageCapture(exc.result)
    if not textless.ok or not textless.png:
        return PageCapture(_failed(render, textless.error or "render_failed: text capture"))
    return PageCapture(render, textless.png)


def _failed(render: RenderResult, error: str) -> RenderResult:
    return RenderResult.failure(error, seconds=render.seconds,
                                timed_out=error == "timeout")
