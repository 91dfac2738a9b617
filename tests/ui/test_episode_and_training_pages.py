"""The Episode page (a layout's before and after side by side and every step's image; a
single-turn episode's renders, checks, reward components, completion and outcome) and the
Training page (a learner run's curves and the adapter store's versions)."""

from __future__ import annotations

import pytest
from learner_run_support import write_samples
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


def test_a_language_model_episode_shows_its_text_prompt_tokens_and_brief(page, ui_stack):
    episode = ui_stack.llm_episode()
    turns = episode["summary"]["policy_stats"]["turns"]
    page.goto(f"/ui/episode?id={episode['id']}")
    page.wait_for_selector("#episode[data-state=loaded]")
    steps = page.inner_text("#episode-steps")
    assert "unparsed output" not in steps
    assert "model text: “I would move the headline up" in steps
    shown = page.locator(".model-turns li.turn")
    assert shown.count() == len(turns) == 2
    for i, turn in enumerate(turns):
        assert shown.nth(i).locator(".completion-text").inner_text() == turn["completion"]
    first = shown.first
    first.locator("details.prompt summary").click()
    assert turns[0]["messages"][-1]["content"][:40] in first.locator("details.prompt").inner_text()
    first.locator("details.tokens summary").click()
    assert f"{len(turns[0]['token_ids'])}, with log-probabilities" in first.inner_text()
    assert "100 (-0.50)" in first.locator("details.tokens pre").inner_text()
    assert "642 prompt tokens" in page.inner_text(".model-turns")  # the totals: 2 turns × 321

    brief = episode["brief"]
    assert brief["primary_goal"] in page.inner_text("#brief")
    for element, region in brief["required_regions"].items():
        assert f"{element} → {region}" in page.inner_text("#brief .regions")
    wait_for_images(page)
    screenshot(page, "episode-llm")


def wait_for_images(page) -> None:
    page.wait_for_function("() => [...document.querySelectorAll('#episode img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")


# family -> what its view shows beyond the shared parts
VIEWS = {
    "html": lambda page, e: page.locator("#family-result .pair img").count() == 2,
    "svg": lambda page, e: page.locator("#family-result .checklist li").count()
    == len(e["details"]["requirements"]),
    "webpage": lambda page, e: page.locator("#family-result .shot img").count() == 1
    and f"{e['details']['interactions']['passed']} of" in page.inner_text("#family-result .tally"),
}


@pytest.mark.parametrize("family", list(VIEWS))
def test_a_single_turn_episode_shows_its_family_view(page, ui_stack, family):
    episode = ui_stack.family_episode(family)
    page.goto(f"/ui/episode?id={episode['id']}")
    page.wait_for_selector(f"#episode[data-family={family}] .single-turn")
    wait_for_images(page)
    assert page.locator("#layout-view").is_hidden()
    assert images_loaded(page.locator("#family-result img"))
    assert page.locator("#family-result img").count() == len(episode["images"])
    assert "Outcome: ok" in page.inner_text("#family-result .outcome")
    for name, value in episode["rewards"].items():
        assert page.locator(f"tr[data-component={name}] td.num").inner_text() == f"{value:.3f}"
    assert VIEWS[family](page, episode)
    page.click("#family-result details.completion summary")
    assert page.locator("#family-result details.completion pre").inner_text().strip() \
        == episode["completion"].strip()
    again = page.get_by_role("link", name="Open on the Run page").get_attribute("href")
    item = f"seed={episode['seed']}" if episode["seed"] is not None else f"item={episode['item_key']}"
    assert item in again and "profile" not in again
    screenshot(page, f"episode-{family}")

    page.goto(again)  # the Run page, filled in with this episode's settings
    page.wait_for_selector("#policy option", state="attached")
    assert page.input_value("#family") == family
    assert page.input_value("#task") == episode["task_id"]
    assert page.input_value("#policy") == episode["policy"]
    field = "#seed" if episode["seed"] is not None else "#item"
    assert page.input_value(field) == episode["item_key"]


def test_a_completion_that_fails_shows_its_outcome_and_error(page, ui_stack):
    with ui_stack.client() as client:
        made = client.post("/v1/prediction-sets", json={
            "name": "no drawing", "items": {"traffic-light": "Sorry, I cannot draw that."}})
        assert made.status_code == 201, made.text
        job = client.post("/v1/jobs", json={
            "kind": "benchmark", "tasks": ["svg-prompts"], "items": ["traffic-light"],
            "policies": [made.json()["policy"]]}).json()
    ui_stack.stack.wait_for(job["id"], timeout=120)
    episode = ui_stack.first_episode(job["id"])
    assert episode["outcome"] not in (None, "ok") and episode["error"], episode
    page.goto(f"/ui/episode?id={episode['id']}")
    page.wait_for_selector("#episode[data-family=svg] .single-turn")
    outcome = page.locator("#family-result .outcome")
    assert outcome.get_attribute("data-outcome") == episode["outcome"]
    assert f"Outcome: {episode['outcome']}" in outcome.inner_text()
    assert episode["error"] in page.inner_text("#family-result .episode-error")
    assert "No render" in page.inner_text("#family-result")
    screenshot(page, "episode-failed")


def test_training_shows_loss_evaluation_samples_and_versions(page, ui_stack):
    # two samples of the newest version are episodes stored here: they show their pictures
    episodes = [e["id"] for e in ui_stack.episodes(ui_stack.bench_job())[:2]]
    write_samples(ui_stack.learner_data / "runs" / "grpo-tiny", [(9, e) for e in episodes])
    page.goto("/ui/training")
    page.wait_for_selector("#training[data-state=loaded]")
    assert "grpo-tiny" in page.inner_text("#run-title")
    assert str(ui_stack.learner_data / "runs") in page.inner_text("#sources")
    charts = page.locator("#training figure.chart")
    titles = charts.locator("figcaption").all_inner_texts()
    for wanted in ("Loss", "Learning rate", "Gradient norm (before clipping)", "Clip ratio",
                   "KL to the starting weights", "Mean group reward", "Valid-action rate",
                   "Staleness of trained groups"):
        assert wanted in titles
    assert charts.locator("svg").count() == len(titles)
    assert "8 points" in charts.nth(titles.index("Loss")).locator("svg").get_attribute("aria-label")
    assert charts.nth(titles.index("Clip ratio")).locator("path").count() == 3
    assert charts.nth(titles.index("Staleness of trained groups")).locator("path").count() == 2
    assert "8 updates" in page.inner_text("#run-facts")
    assert page.inner_text("#evaluation tr[data-measure=mean_final_score] td:nth-child(4)") \
        == "+0.100"

    newest = page.locator(".version-samples").first
    assert newest.get_attribute("data-version") == "9"
    assert newest.locator("figure.sample").count() == 2
    page.wait_for_function("() => [...document.querySelectorAll('.version-samples img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    assert images_loaded(newest.locator("img")) and newest.locator("img").count() == 2
    assert newest.locator("figure[data-picture=stored] a[href^='/ui/episode']").count() == 4
    # not stored, but its completions kept (conftest): the final layout replayed, no link
    replayed = page.locator(".version-samples[data-version='5'] figure[data-picture=replayed]")
    assert replayed.count() == 1 and images_loaded(replayed.locator("img"))
    assert replayed.locator("a").count() == 0
    assert "replayed from its text" in replayed.inner_text()
    older = page.locator(".version-samples[data-version='8'] figure.sample")
    assert older.count() == 2 and older.locator("img").count() == 0  # not stored here
    older.first.locator("summary").click()
    assert '"action_type": "move"' in older.first.locator("pre").inner_text()

    page.wait_for_selector("#versions table")
    assert page.locator("#versions tbody tr").count() == 3
    assert "policy-v3 (current)" in page.inner_text("#versions")
    screenshot(page, "training-curves")


def test_training_without_runs_says_where_they_come_from(page, ui_stack):
    runs = ui_stack.learner_data / "runs"
    away = runs.rename(runs.with_name("runs-away"))
    try:
        page.goto("/ui/training")
        page.wait_for_selector("#no-runs:not([hidden])")
        assert page.locator("#pick-run").is_hidden()  # no empty select
        hint = page.inner_text("#no-runs")
        assert "designrl train" in hint and str(runs) in hint
        screenshot(page, "training-empty")
    finally:
        away.rename(runs)
