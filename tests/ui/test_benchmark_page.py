"""The Benchmark page for a finished job: tables per policy and per task that match the
API's summary, a score-against-step chart per task, and the job's episodes. A job over all
four families adds, per single-turn family, a table of its reward components' means and a
gallery of renders (policy × item), each linking to its episode."""

from __future__ import annotations

import pytest
from ui_support import images_loaded, screenshot

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

    # the layout gallery: each item before, then each policy's final layout
    episodes = ui_stack.episodes(job_id)
    gallery = page.locator("#layout-gallery table.gallery")
    assert gallery.locator("tbody tr").count() == 4  # 2 tasks × 2 seeds
    assert gallery.locator("thead th").all_inner_texts() == ["Item", "Before", "After: rule",
                                                             "After: random"]
    page.wait_for_function("() => [...document.querySelectorAll('#layout-gallery img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    assert gallery.locator("img").count() == 4 + 8 and images_loaded(gallery.locator("img"))
    for e in episodes:
        cell = gallery.locator(f"td[data-episode='{e['id']}']")
        assert f"score {e['final_score']:.3f}" in cell.inner_text()

    # compare: the two policies side by side on the same items, and who scored higher
    assert page.input_value("#policy-a") == "rule" and page.input_value("#policy-b") == "random"
    rows = page.locator("#compare-result tbody tr")
    assert rows.count() == 4 and rows.first.locator("img").count() == 2
    score = {(e["policy"], e["task_id"], e["item_key"]): e["final_score"] for e in episodes}
    higher = sum(score[("random", t, i)] > score[("rule", t, i)] + 1e-9
                 for (p, t, i) in score if p == "rule")
    assert f"random scores higher than rule on {higher} of 4 items" in page.inner_text(
        "#compare-tally")
    page.select_option("#policy-a", "random")
    page.select_option("#policy-b", "rule")
    page.click("#compare-button")
    assert "rule scores higher than random" in page.inner_text("#compare-tally")
    assert "a=random" in page.url and "b=rule" in page.url
    assert "null" not in page.inner_text("#bench")
    screenshot(page, "benchmark-finished")
    page.locator("#episodes tbody tr").first.get_by_role("link").click()
    page.wait_for_selector("#episode:not([hidden])")


def mean(values: list[float]) -> float:
    return sum(values) / len(values)  # summed in order, as the page does


def unique(values):
    return list(dict.fromkeys(values))


def test_a_four_family_job_shows_a_table_per_family_and_a_gallery(page, ui_stack):
    job_id = ui_stack.families_job()
    episodes = ui_stack.episodes(job_id)
    assert {e["family"] for e in episodes} == {"layout", "html", "svg", "webpage"}
    assert all(e["status"] == "completed" for e in episodes)
    with ui_stack.client() as client:
        families = {f["name"]: f for f in client.get("/v1/catalog").json()["families"]}
    page.goto(f"/ui/benchmark?job={job_id}")
    page.wait_for_selector("#bench[data-state=completed]")

    # layout keeps its tables and chart, over its own episodes only
    layout = [e for e in episodes if e["family"] == "layout"]
    rows = page.locator("#by-policy tbody tr")
    assert rows.count() == 3  # rule, expert, random
    for i in range(3):
        cells = rows.nth(i).locator("td").all_inner_texts()
        ours = [e for e in layout if e["policy"] == cells[0]]
        assert cells[1] == str(len(ours)) == "2"
        assert cells[2] == f"{mean([e['final_score'] for e in ours]):.3f}"
    assert page.locator("#by-task tbody tr").count() == 3
    assert page.locator("#curves figure.chart").count() == 1

    page.wait_for_function("() => [...document.querySelectorAll('.gallery img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    for name in ("html", "svg", "webpage"):
        family = families[name]
        section = page.locator(f"section.family-results[data-family={name}]")
        ours = [e for e in episodes if e["family"] == name]
        means = section.locator("table").first
        headers = means.locator("thead th").all_inner_texts()
        assert headers[:5] == ["Task", "Policy", "Episodes", "Outcomes", "Total reward"]
        assert headers[5:] == [c.replace("_", " ") for c in family["components"]]
        groups = unique((e["task_id"], e["policy"]) for e in ours)
        rows = means.locator("tbody tr")
        assert rows.count() == len(groups)
        for i, (task, policy) in enumerate(groups):
            group = [e for e in ours if (e["task_id"], e["policy"]) == (task, policy)]
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert cells[0] == task and cells[1].split(" ")[0] == policy
            assert cells[2] == str(len(group)) and cells[3] == f"{len(group)} ok"
            assert cells[4] == f"{mean([e['total_reward'] for e in group]):.3f}"
            for j, component in enumerate(family["components"]):
                values = [e["rewards"][component] for e in group if component in e["rewards"]]
                assert cells[5 + j] == (f"{mean(values):.3f}" if values else "–"), component

        gallery = section.locator("table.gallery")
        items = unique((e["task_id"], e["item_key"]) for e in ours)
        policies = unique(e["policy"] for e in ours)
        columns = gallery.locator("thead th").all_inner_texts()
        assert [c.split(" ")[0] for c in columns[-len(policies):]] == policies
        assert ("Reference" in columns) == (name == "html")  # the page each item asks for
        assert gallery.locator("tbody tr").count() == len(items)
        thumbs = gallery.locator("td[data-episode] a.thumb-link img")
        assert thumbs.count() == len(ours)  # one render per item × policy
        assert images_loaded(gallery.locator("img"))
        for link in gallery.locator("td[data-episode]").all()[:2]:
            assert link.locator("a").get_attribute("href") == \
                f"/ui/episode?id={link.get_attribute('data-episode')}"
            assert link.locator("img").get_attribute("alt")
    assert "reference (oracle)" in page.inner_text("section[data-family=html] table")
    assert page.locator("#episodes tbody tr").count() == len(episodes)
    screenshot(page, "benchmark-families")

    svg = page.locator("section[data-family=svg] td[data-episode]").first
    episode_id = svg.get_attribute("data-episode")
    svg.locator("a").click()
    page.wait_for_selector("#episode[data-family=svg] .checklist li")
    assert episode_id in page.url
