"""The Benchmark page for a finished job: tables per policy and per task that match the
API's summary, a score-against-step chart per task, and the job's episodes."""

from __future__ import annotations

import pytest
from ui_support import screenshot

pytestmark = pytest.mark.integration


def test_a_finished_job_shows_its_tables_and_charts(page, ui_stack):
    job_id = ui_stack.bench_job()
    with ui_stack.client() as client:
        summary = client.get(f"/v1/jobs/{job_id}/summary").json()
    page.goto(f"/ui/benchmark?job={job_id}")
    page.wait_for_selector("#bench[data-state=completed]")
    rows = page.locator("#by-policy tbody tr")
    assert rows.count() == 2
    for i, expected in enumerate(summary["policies"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == expected["policy"] and cells[1] == "4"
        assert cells[2] == f"{expected['final_score']:.3f}"
        assert cells[3] == f"{expected['instruction_score']:.3f}"
        assert cells[5] == f"{100 * expected['valid_action_rate']:.1f}%"
    assert page.locator("#by-task tbody tr").count() == 4
    charts = page.locator("#curves figure.chart")
    assert charts.count() == 2  # one per task
    assert charts.nth(0).locator("svg path").count() == 2  # one line per policy
    assert "rule" in charts.nth(0).locator(".legend").inner_text()
    assert page.locator("#episodes tbody tr").count() == 8
    assert page.locator("#job option:checked").get_attribute("value") == job_id
    screenshot(page, "benchmark-finished")
    page.locator("#episodes tbody tr").first.get_by_role("link").click()
    page.wait_for_selector("#episode:not([hidden])")
