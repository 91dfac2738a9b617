"""An svg, html or webpage training sample drawn from its text by a real render pool
(Chromium): the svg on its square page, a page's first screen at its viewport; drawn once
per page (cached); a reason, never an exception, where it cannot be drawn."""

from __future__ import annotations

import json

import numpy as np
import pytest
from learner_run_support import HUGE_DOM

from designrl.learner.runs import COMPLETION_CHARS, TEXT_CHARS, sample_rows
from designrl.learner.sample_render import SamplePictures, can_draw, picture_problem
from designrl.render.png import decode_png
from designrl.rollout.groups import Sample, ScoredGroup
from designrl.tasks import FAMILIES, family_of, find_item, load_items
from designrl.tasks.html.viewport import page_viewport

pytestmark = pytest.mark.integration

POOL_PAGES = 2
def model_sample(task_id: str, key: str, completion: str) -> dict:
    """A ``samples.jsonl`` row of a single-turn sample, as the learner writes it."""
    group = ScoredGroup(group_id="g", job_id="j", task_id=task_id, item_key=key, policy="p",
                        policy_version=1, samples=[Sample(episode_id="e", outcome="ok",
                                                          reward=0.5, completion=completion)])
    (row,) = sample_rows(1, [group])
    return json.loads(json.dumps(row))


def policy_sample(task_id: str, key: str, policy: str) -> dict:
    family = FAMILIES[family_of(task_id)]
    return model_sample(task_id, key, family.policies[policy](find_item(task_id, key), 0))


def drawn_ink(png: bytes) -> float:
    """The share of pixels that are not the page's white."""
    image = decode_png(png).astype(int)
    return float((np.abs(image - 255).sum(axis=2) > 30).mean())


def test_each_family_is_drawn_at_its_size_and_once_per_page(runner):
    pictures = SamplePictures(lambda: runner)
    svg = policy_sample("gen-svg", "1000001", "expert")
    html = policy_sample("gen-html", "1000001", "reference")
    page = policy_sample("webpage-prompts", load_items("webpage-prompts", limit=1)[0].id,
                         "template")
    sizes = {"svg": (512, 512), "html": page_viewport(html["text"]), "webpage": (1280, 800)}
    for family, sample in zip(("svg", "html", "webpage"), (svg, html, page), strict=True):
        assert can_draw(sample) and picture_problem(sample) is None
        picture = pictures.draw(sample)
        assert picture.problem is None, picture.problem
        assert picture.png.startswith(b"\x89PNG\r\n\x1a\n")
        height, width, _ = decode_png(picture.png).shape
        assert (width, height) == sizes[family]
        assert drawn_ink(picture.png) > 0.02, family  # a drawing, not a blank page
    renders = runner.pool.stats.renders
    assert pictures.drawn == 3
    assert pictures.draw(dict(svg)).png == pictures.draw(svg).png  # from the cache
    assert pictures.drawn == 3 and runner.pool.stats.renders == renders


def test_a_long_completion_is_kept_whole_and_drawn(runner):
    item = find_item("gen-svg", "1000002")
    svg = FAMILIES["svg"].policies["expert"](item, 0)
    padded = svg.replace("<svg", "<svg data-note='" + "x" * (TEXT_CHARS + 100) + "'", 1)
    row = model_sample("gen-svg", "1000002", padded)
    assert len(row["text"]) == TEXT_CHARS and row["completion"] == padded
    assert SamplePictures(lambda: runner).draw(row).png is not None
    cut = {name: value for name, value in row.items() if name != "completion"}
    assert "first 2,000 characters" in picture_problem(cut)
    too_long = model_sample("gen-svg", "1000002", "x" * (COMPLETION_CHARS + 1))
    assert "completion" not in too_long and picture_problem(too_long)


@pytest.mark.parametrize(("task_id", "text", "reason"), [
    ("gen-svg", "I cannot draw that, sorry.", "no SVG to draw"),
    ("gen-svg", "<svg xmlns='http://www.w3.org/2000/svg'><rect", "no SVG to draw"),
    ("gen-html", "Here is the page: <div>hi</div>", "no HTML document"),
    ("webpage-prompts", "", "the output is empty"),
])
def test_malformed_output_is_a_reason_not_a_picture(runner, task_id, text, reason):
    pictures = SamplePictures(lambda: runner)
    sample = model_sample(task_id, "1000000", text)
    assert reason in picture_problem(sample)
    picture = pictures.draw(sample)
    assert picture.png is None and reason in picture.problem and pictures.drawn == 0


def test_a_page_that_fails_in_the_browser_is_a_cached_reason(runner):
    pictures = SamplePictures(lambda: runner)
    sample = model_sample("gen-html", "1000000", HUGE_DOM)
    assert picture_problem(sample) is None  # its text looks fine: only the browser can tell
    picture = pictures.draw(sample)
    assert picture.png is None
    assert picture.problem == "the page failed in the browser: resource_exceeded (dom_nodes)"
    assert pictures.draw(sample) == picture and pictures.drawn == 1


def test_no_browser_is_a_reason_tried_again_later():
    launches = []

    def broken():
        launches.append(1)
        raise RuntimeError("Chromium not found")

    pictures = SamplePictures(broken, retry_launch_s=3600)
    sample = model_sample("gen-svg", "1000000", FAMILIES["svg"].policies["expert"](
        find_item("gen-svg", "1000000"), 0))
    first = pictures.draw(sample)
    assert first.png is None and not first.cached
    assert first.problem == "no browser to draw it with (RuntimeError: Chromium not found)"
    assert pictures.draw(sample).problem == first.problem and len(launches) == 1
