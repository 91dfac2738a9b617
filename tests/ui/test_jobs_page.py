"""The Jobs page: the API-key form, a benchmark submitted from the form and followed to the
end, and a job cancelled from the list."""

from __future__ import annotations

import pytest
from ui_support import open_context, screenshot, watch_errors

from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import (
    EpisodePlan,
    cancel_job,
    claim_episode,
    create_job,
    finish_episode,
    list_episodes,
)

pytestmark = pytest.mark.integration
SPEC = {"kind": "benchmark", "tasks": ["gen-poster"], "seeds": list(range(10)),
        "policies": ["rule"]}


def test_the_key_form_unlocks_the_pages(browser, ui_stack):
    context = open_context(browser, ui_stack, "desktop", with_key=False)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/ui/jobs")
    assert "Enter an API key" in page.inner_text("#notice")
    assert page.locator("#key-input").is_visible()
    page.fill("#key-input", "drl_wrong")
    with page.expect_navigation():
        page.click("#key-form button[type=submit]")
    page.wait_for_selector("#notice.error")
    assert "unknown or revoked" in page.inner_text("#notice")
    page.fill("#key-input", ui_stack.key)
    with page.expect_navigation():
        page.click("#key-form button[type=submit]")
    page.wait_for_selector("#jobs table, #jobs p")
    context.close()
    # the wrong key's 401s are the only errors the browser logged
    assert all("401" in message for message in errors.messages), errors.messages


def test_submit_a_benchmark_from_the_form_and_follow_it(page, ui_stack):
    page.goto("/ui/jobs")
    page.wait_for_selector("#task-boxes input")
    page.uncheck("#task-boxes input[value=gen-poster]")
    page.check("#task-boxes input[value=gen-banner]")
    page.uncheck("#policy-boxes input[value=expert]")
    page.check("#policy-boxes input[value=random]")
    page.fill("#seeds", "1000000-1000002, 7")
    with page.expect_response("**/v1/jobs") as reply:
        page.click("#submit-job")
    assert reply.value.status == 202
    job = reply.value.json()
    assert job["spec"]["tasks"] == ["gen-banner"] and job["spec"]["policies"] == ["random", "rule"]
    assert job["spec"]["seeds"] == [1_000_000, 1_000_001, 1_000_002, 7]
    assert "Submitted job" in page.inner_text("#notice")
    row = page.locator(f"tr[data-job='{job['id']}']")
    row.locator(".badge.completed").wait_for(timeout=90_000)  # progress polled to the end
    assert "8/8" in row.inner_text()
    screenshot(page, "jobs-submitted")
    row.get_by_role("link").click()
    page.wait_for_selector("#bench[data-state=completed]")
    assert page.locator("#by-policy tbody tr").count() == 2


def test_cancel_a_job_from_the_list(page, ui_stack):
    with ui_stack.client() as client:
        job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-editorial"],
                                            "seeds": list(range(40)),
                                            "policies": ["expert"]}).json()
    page.goto("/ui/jobs")
    page.get_by_role("button", name=f"Cancel job {job['id'][:8]}").click()
    page.locator(f"tr[data-job='{job['id']}'] .badge.cancelled").wait_for()
    assert "Cancelled job" in page.inner_text("#notice")
    with ui_stack.client() as client:
        assert client.get(f"/v1/jobs/{job['id']}").json()["status"] == "cancelled"


def test_failures_and_cancels_show_what_ran(page, ui_stack):
    """A job with failed episodes is ``completed with errors``; a cancelled one counts the
    episodes that ran (2/10), not the cancelled ones. Written through the store: no worker
    sees these jobs (nothing enqueues them)."""
    plans = [EpisodePlan("layout", "gen-poster", str(seed), "rule", seed=seed)
             for seed in range(10)]
    with ui_stack.stack.sessions() as session:
        mixed = create_job(session, kind="benchmark", spec=SPEC, plans=plans[:2], owner=None)
        cancelled = create_job(session, kind="benchmark", spec=SPEC, plans=plans, owner=None)
        for job, records in ((mixed, [EpisodeRecord(final_score=0.5),
                                      EpisodeRecord(outcome="error", error="no model")]),
                             (cancelled, [EpisodeRecord(final_score=0.5)] * 2)):
            ids = [e.id for e in list_episodes(session, job.id)]
            for episode_id, record in zip(ids, records, strict=False):
                claim_episode(session, episode_id, "w:1")
                finish_episode(session, episode_id, record)
        cancel_job(session, cancelled.id)
    page.goto("/ui/jobs")
    row = page.locator(f"tr[data-job='{mixed.id}']")
    row.locator(".badge.completed_with_errors").wait_for()
    assert "completed with errors" in row.inner_text() and "2/2 ran (1 failed)" in row.inner_text()
    assert "job-errors" in row.get_attribute("class")  # marked along its row, and says why
    assert "some episodes failed" in row.locator(".why").inner_text()
    assert "no model" in row.locator(".why").inner_text()
    row = page.locator(f"tr[data-job='{cancelled.id}']")
    row.locator(".badge.cancelled").wait_for()
    assert "2/10 ran (8 cancelled)" in row.inner_text()
    assert "job-cancelled" in row.get_attribute("class")
    assert "cancelled before every episode ran" in row.locator(".why").inner_text()
    row.scroll_into_view_if_needed()
    screenshot(page, "jobs-marked")
