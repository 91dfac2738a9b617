"""The Episode page (before and after side by side, every step's image) and the Training
page (a learner run's curves and the adapter store's versions)."""

from __future__ import annotations

import pytest
from ui_support import images_loaded, screenshot

pytestmark = pytest.mark.integration


def test_an_episode_shows_before_after_and_every_step(page, ui_stack):
    episode = ui_stack.first_episode(ui_stack.bench_job())
    page.goto(f"/ui/episode?id={episode['id']}")
    page.wait_for_selector("#episode:not([hidden])")
    frames = page.locator("#frames figure")
    assert frames.count() == episode["steps_count"]
    page.wait_for_function("() => [...document.querySelectorAll('#episode img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    assert images_loaded(page.locator("#before-after img"))
    assert page.locator("#before-after img").count() == 2
    assert page.locator("#episode-steps tbody tr").count() == episode["steps_count"]
    before, after = page.locator("#before-after figure").all()
    assert before.bounding_box()["y"] == after.bounding_box()["y"]  # side by side
    screenshot(page, "episode-steps")


def test_training_shows_curves_and_versions(page, ui_stack):
    page.goto("/ui/training")
    page.wait_for_selector("#training:not([hidden])")
    assert "grpo-tiny" in page.inner_text("#run-title")
    charts = page.locator("#charts figure.chart")
    titles = charts.locator("figcaption").all_inner_texts()
    for wanted in ("Mean group reward", "Valid-action rate", "Staleness of trained groups"):
        assert wanted in titles
    assert charts.locator("svg").count() == len(titles)
    staleness = charts.nth(titles.index("Staleness of trained groups"))
    assert staleness.locator("path").count() == 2  # mean and max
    assert "8 updates" in page.inner_text("#run-facts")
    page.wait_for_selector("#versions table")
    assert page.locator("#versions tbody tr").count() == 3
    assert "policy-v3 (current)" in page.inner_text("#versions")
    screenshot(page, "training-curves")
