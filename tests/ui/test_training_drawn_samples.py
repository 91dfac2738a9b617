"""The Training page of a run whose svg, html and webpage samples are not stored: each is
drawn from its text by the API's render pool (real Chromium on both sides), and one that
cannot be (no document in its text, a page that fails in the browser) says why."""

from __future__ import annotations

import base64
import os

import numpy as np
import pytest
from learner_run_support import write_learner_run, write_single_turn_samples
from ui_support import images_loaded, screenshot

from designrl.render.png import decode_png
from designrl.tasks import FAMILIES, find_item, load_items
from designrl.tasks.html.viewport import page_viewport

pytestmark = pytest.mark.integration

RUN = "grpo-drawn"
HUGE_DOM = ("<!doctype html><html><body><script>for (let i = 0; i < 60000; i++) "
            "document.body.appendChild(document.createElement('i'));</script></body></html>")


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


def completions() -> list[tuple[str, str, str]]:
    webpage = load_items("webpage-prompts", limit=1)[0]
    html = FAMILIES["html"].policies["reference"](find_item("gen-html", "1000001"), 0)
    return [("gen-svg", "1000001",
             FAMILIES["svg"].policies["expert"](find_item("gen-svg", "1000001"), 0)),
            ("gen-html", "1000001", f"```html\n{html}\n```"),
            ("webpage-prompts", webpage.id,
             FAMILIES["webpage"].policies["template"](webpage, 0)),
            ("gen-svg", "1000002", "I would draw a red circle on a blue square."),
            ("gen-html", "1000002", HUGE_DOM)]


@pytest.fixture(scope="module")
def drawn_run(ui_stack):
    folder = ui_stack.learner_data / "runs" / RUN
    write_learner_run(folder, updates=3)
    rows = completions()
    write_single_turn_samples(folder, 3, rows)
    old = os.stat(folder / "curves.jsonl").st_mtime - 3600  # not the page's default run
    os.utime(folder / "curves.jsonl", (old, old))
    return rows


def not_blank(png: bytes) -> float:
    """The share of pixels away from the page's white."""
    image = decode_png(png).astype(int)
    return float((np.abs(image - 255).sum(axis=2) > 30).mean())


def test_svg_html_and_webpage_samples_show_their_render_or_why_not(page, drawn_run):
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
    sizes = {"gen-svg": (512, 512), "gen-html": page_viewport(drawn_run[1][2]),
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
