"""Every page at 1280×800 and at a 390-pixel-wide phone: axe-core finds no serious or
critical violation, the document never scrolls sideways, the page's key controls are on
screen, and a full-page screenshot is written."""

from __future__ import annotations

import pytest
from ui_support import VIEWPORTS, screenshot

pytestmark = pytest.mark.integration

# page -> (what to wait for once its data is in, the controls that must be usable)
PAGES = {
    "run": ("#live[data-state=done]", ["#task", "#seed", "#policy", "#start", "#steps .scroll"]),
    "jobs": ("#jobs table", ["#seeds", "#submit-job", "#jobs .scroll"]),
    "benchmark": ("#bench[data-state=completed] #curves svg", ["#job", "#by-policy .scroll", "#curves svg"]),
    "training": ("#versions table", ["#run", "#charts svg", "#versions .scroll"]),
    "episode": ("#frames img", ["#before-after img", "#frames img", "#episode-steps .scroll"]),
}


def open_loaded(page, ui_stack, name: str) -> None:
    if name == "benchmark":
        page.goto(f"/ui/benchmark?job={ui_stack.bench_job()}")
    elif name == "episode":
        page.goto(f"/ui/episode?id={ui_stack.first_episode(ui_stack.bench_job())['id']}")
    else:
        page.goto(f"/ui/{name}")
    if name == "run":  # the page with an episode on it
        page.select_option("#task", "gen-banner")
        page.fill("#seed", "1000001")
        page.select_option("#policy", "rule")
        page.click("#start")
    page.wait_for_selector(PAGES[name][0], timeout=60_000)
    page.wait_for_function("() => [...document.images].every(i => i.complete)")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_accessible_and_fits(page, ui_stack, name, viewport):
    from axe_playwright_python.sync_playwright import Axe

    open_loaded(page, ui_stack, name)
    screenshot(page, name)
    violations = [v for v in Axe().run(page).response["violations"]
                  if v["impact"] in ("serious", "critical")]
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:5])
                            for v in violations]

    width = VIEWPORTS[viewport]["width"]
    overflow = page.evaluate("() => [document.documentElement.scrollWidth,"
                             " document.documentElement.clientWidth]")
    assert overflow[0] <= overflow[1], f"the page scrolls sideways: {overflow}"
    controls = [*page.locator("header nav a").all(), page.locator("#key-panel summary"),
                *(page.locator(selector).first for selector in PAGES[name][1])]
    for control in controls:
        assert control.is_visible(), control
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (control, box)
