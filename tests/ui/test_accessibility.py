"""Every page at 1280×800 and at a 390-pixel-wide phone: axe-core finds no violation of
any impact (minor included), the document never scrolls sideways, the page's key controls
are on screen, and a full-page screenshot is written. Each family's view is covered: the Run and
Episode pages with an html, svg and webpage episode, and the Benchmark page of a job over
all four families (its component tables and gallery)."""

from __future__ import annotations

import pytest
from learner_run_support import DRAWN_RUN
from run_support import fill_run
from ui_support import VIEWPORTS, screenshot

pytestmark = pytest.mark.integration

SINGLE_TURN = ".single-turn img"
# view -> (what to wait for once its data is in, the controls that must be usable)
PAGES = {
    "run": ("#live[data-state=done]", ["#task", "#seed", "#policy", "#start", "#steps .scroll"]),
    "run-html": (SINGLE_TURN, ["#task", "#seed", "#policy", "#start", ".pair img",
                               ".components"]),
    "run-svg": (SINGLE_TURN, ["#task", "#item", "#policy", "#start", ".checklist",
                              ".components"]),
    "run-webpage": (SINGLE_TURN, ["#item", "#start", ".shot", ".single-turn .scroll",
                                  ".components"]),
    "jobs": ("#jobs table", ["#seeds", "#submit-job", "#jobs .scroll"]),
    "benchmark": ("#bench[data-state=completed] #curves svg",
                  ["#job", "#by-policy .scroll", "#curves svg", "#layout-gallery .scroll",
                   "#policy-a", "#policy-b", "#compare-button", "#compare-result .scroll"]),
    "benchmark-families": ("#bench[data-state=completed] .gallery img",
                           ["#job", "#by-policy .scroll", "[data-family=html] .scroll",
                            "[data-family=webpage] .scroll:has(.gallery)", "#episodes .scroll"]),
    "training": ("#training[data-state=loaded]", ["#run", "#charts svg", ".samples figure",
                                                  "#evaluation .scroll", "#versions .scroll"]),
    # svg, html and webpage samples drawn from their text, and two that say why they are not
    "training-drawn": (".samples figure[data-picture=problem] + figure[data-picture=problem]",
                       ["#run", ".samples figure[data-picture=drawn] img", ".no-render"]),
    "episode": ("#frames img", ["#before-after img", "#frames img", "#episode-steps .scroll"]),
    "episode-llm": ("#episode[data-state=loaded] .model-turns", ["#before-after img", ".turn pre",
                                                                "#brief", "#episode-steps .scroll"]),
    "episode-html": (SINGLE_TURN, [".pair img", ".components", "details.completion summary"]),
    "episode-svg": (SINGLE_TURN, [".split img", ".checklist", ".components"]),
    "episode-webpage": (SINGLE_TURN, [".shot", ".single-turn .scroll", ".components"]),
}
# the Run page's episodes: (family, task, item, policy); the single-turn ones are in the
# four-family job, so the page shows them at once
RUNS = {
    "run": ("layout", "gen-banner", 1_000_001, "rule"),
    "run-html": ("html", "gen-html", 1_000_000, "reference"),
    "run-svg": ("svg", "svg-prompts", "house", "expert"),
    "run-webpage": ("webpage", "webpage-prompts", "pricing-table", "template"),
}


def open_loaded(page, ui_stack, name: str) -> None:
    if name == "benchmark":
        page.goto(f"/ui/benchmark?job={ui_stack.bench_job()}")
    elif name == "benchmark-families":
        page.goto(f"/ui/benchmark?job={ui_stack.families_job()}")
    elif name == "episode":
        page.goto(f"/ui/episode?id={ui_stack.first_episode(ui_stack.bench_job())['id']}")
    elif name == "episode-llm":
        page.goto(f"/ui/episode?id={ui_stack.llm_episode()['id']}")
    elif name.startswith("episode-"):
        page.goto(f"/ui/episode?id={ui_stack.family_episode(name.removeprefix('episode-'))['id']}")
    elif name == "training-drawn":
        page.goto(f"/ui/training?run={DRAWN_RUN}")
    elif name in RUNS:
        if name != "run":
            ui_stack.families_job()
        page.goto("/ui/run")
        fill_run(page, *RUNS[name])
        page.click("#start")
    else:
        page.goto(f"/ui/{name}")
    page.wait_for_selector(PAGES[name][0], timeout=60_000)
    page.wait_for_function("() => [...document.images].every(i => i.complete)")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_accessible_and_fits(page, ui_stack, name, viewport):
    from axe_playwright_python.sync_playwright import Axe

    open_loaded(page, ui_stack, name)
    screenshot(page, name)
    violations = Axe().run(page).response["violations"]  # every impact, minor included
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
