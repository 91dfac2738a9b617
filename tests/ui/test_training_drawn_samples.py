"""The Training page of a run whose svg, html and webpage samples are not stored: each is
drawn from its text by the API's render pool (real Chromium on both sides), and one that
cannot be (no document in its text, a page that fails in the browser) says why."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from learner_run_support import DRAWN_RUN as RUN
from learner_run_support import drawn_completions
from ui_support import images_loaded, screenshot

from designrl.render.png import decode_png
from designrl.tasks.html.viewport import page_viewport

pytestmark = pytest.mark.integration

# every drawn sample's picture as the page fetches it: [task id, content type, base64 bytes]
FETCH_DRAWN = """async (path) => {
  const headers = { 'X-API-Key': localStorage.getItem('designrl.apiKey') };
  const run = await (await fetch(path, { headers })).json();
  const out = [];
  for (const sample of run.samples.filter((s) => s.picture_kind === 'drawn')) {
    const response = await fetch(sample.picture, { headers });
    const bytes = new Uint8Array(await response.arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    out.push([sample.task_id, response.headers.get('content-type'), btoa(text)]);
  }
  return out;
}"""


def not_blank(png: bytes) -> float:
    """The share of pixels away from the page's white."""
    image = decode_png(png).astype(int)
    return float((np.abs(image - 255).sum(axis=2) > 30).mean())


def test_svg_html_and_webpage_samples_show_their_render_or_why_not(page, ui_stack):
    page.goto(f"/ui/training?run={RUN}")
    page.wait_for_selector("#training[data-state=loaded]")
    newest = page.locator(".version-samples[data-version='3']")
    drawn = newest.locator("figure[data-picture=drawn]")
    page.wait_for_function("() => document.querySelectorAll("
                           "\".version-samples[data-version='3'] figure[data-picture=problem]\")"
                           ".length === 2", timeout=60_000)
    assert drawn.count() == 3
    page.wait_for_function("() => [...document.querySelectorAll('figure[data-picture=drawn] img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)", timeout=60_000)
    assert images_loaded(drawn.locator("img"))
    for figure in drawn.all():
        assert "drawn from its text" in figure.inner_text()
        assert figure.locator("a").count() == 0  # no Episode page: it is not stored

    # the bytes the page shows: each drawn sample's picture, fetched as the page does (with
    # the key; the browser's cache answers); PNGs of the family's size, not blank
    sizes = {"gen-svg": (512, 512), "gen-html": page_viewport(drawn_completions()[1][2]),
             "webpage-prompts": (1280, 800)}
    fetched = page.evaluate(FETCH_DRAWN, f"/v1/training/runs/{RUN}")
    assert [task for task, _, _ in fetched] == ["gen-svg", "gen-html", "webpage-prompts",
                                               "gen-html"]
    for task_id, content_type, data in fetched[:3]:
        assert content_type == "image/png"
        png = base64.b64decode(data)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        height, width, _ = decode_png(png).shape
        assert (width, height) == sizes[task_id] and not_blank(png) > 0.02, task_id
    assert drawn.locator("img").evaluate_all(
        "imgs => imgs.map(i => [i.naturalWidth, i.naturalHeight])") == [
            list(sizes[task]) for task in ("gen-svg", "gen-html", "webpage-prompts")]
    assert fetched[3][1] == "image/svg+xml"  # the page that fails: a placeholder saying why

    problems = newest.locator("figure[data-picture=problem]")
    malformed, failed = problems.all()
    assert "No picture: no SVG to draw (no_svg" in malformed.inner_text()
    assert malformed.locator("img").count() == 0
    assert ("No picture: the page failed in the browser: resource_exceeded (dom_nodes)"
            in failed.inner_text())
    assert failed.locator("img").count() == 0 and "drawn from" not in failed.inner_text()
    screenshot(page, "training-drawn-samples")
