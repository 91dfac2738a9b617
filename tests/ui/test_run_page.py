"""The Run page: start an episode, watch it arrive over the event stream and finish with its
images; the same settings again show the stored episode at once."""

from __future__ import annotations

import pytest
from ui_support import images_loaded, screenshot

pytestmark = pytest.mark.integration


def start(page, task: str, seed: int, policy: str):
    page.select_option("#task", task)
    page.fill("#seed", str(seed))
    page.select_option("#policy", policy)
    with page.expect_response("**/v1/runs") as reply:
        page.click("#start")
    return reply.value


def test_start_an_episode_and_watch_it_finish_with_images(page, ui_stack):
    page.goto("/ui/run")
    assert page.locator("#family option[value=html]").is_disabled()  # no LLM policy served
    streams = []
    page.on("request", lambda r: "/events" in r.url and streams.append(r.url))
    reply = start(page, "gen-poster", 1_000_010, "expert")
    assert reply.status == 202 and not reply.json()["cached"]
    episode_id = reply.json()["episode"]["id"]

    page.wait_for_selector("#live[data-state=done]", timeout=90_000)
    assert streams and episode_id in streams[0]
    with ui_stack.client() as client:
        stored = client.get(f"/v1/episodes/{episode_id}").json()
    rows = page.locator("#steps tbody tr")
    assert rows.count() == stored["steps_count"] > 1
    assert "Completed in" in page.inner_text("#run-status")
    page.wait_for_function("() => [...document.querySelectorAll('#live img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator("#result .pair img").count() == 2  # before and after
    assert images_loaded(page.locator("#live img"))
    assert f"{stored['final_score']:.3f}" in page.inner_text("#result")
    page.click("#raw summary")
    raw = page.locator("#raw pre").inner_text()
    assert episode_id in raw and '"steps"' in raw

    # a step of the trajectory shows its own image
    rows.nth(0).get_by_role("button").click()
    assert "After step 1" in page.inner_text("#current figcaption")
    page.wait_for_function("() => document.querySelector('#current img').naturalWidth > 0")
    screenshot(page, "run-live")

    # the same run again: the stored episode, at once, without a stream
    streams.clear()
    again = start(page, "gen-poster", 1_000_010, "expert")
    assert again.status == 200 and again.json()["cached"]
    page.wait_for_selector("#live[data-state=done]")
    assert page.locator("#steps tbody tr").count() == stored["steps_count"]
    assert not streams
