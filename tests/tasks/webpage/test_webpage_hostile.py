"""Hostile pages: each comes back as a scored result within its cap, and the pool keeps
serving right after. Bad completions are scored failures, never exceptions."""

from __future__ import annotations

import time

import pytest
from webpage_support import FIXTURES

from designrl.tasks.webpage import WebpageReward

pytestmark = pytest.mark.integration
POOL_TIMEOUT_S = 4.0  # a page that never finishes loading costs this much

# Generous caps: the machine is shared and Chromium timings are noisy. The action
# timeout is 3 s; leaving a hung page (closing its context) adds a little.
CAP_S = 20.0
AFTER = "<!DOCTYPE html><html lang='en'><head><title>ok</title></head><body><main>" \
        "<h1>Still serving</h1><button onclick=\"this.textContent = 'done'\">Press</button>" \
        "</main></body></html>"


def score_timed(runner, html: str, **kwargs):
    reward = WebpageReward(runner.pool, **kwargs)
    started = time.monotonic()
    score = runner.run(reward.score(html), timeout=120)
    return score, time.monotonic() - started


def assert_still_serving(runner, *, full: bool = False):
    if full:  # a whole scoring, interactions included
        score, seconds = score_timed(runner, AFTER)
        assert score.components["interaction"] == 1.0 and score.total > 0.5, score.details
    else:
        started = time.monotonic()
        result = runner.run(runner.pool.render(AFTER))
        seconds = time.monotonic() - started
        assert result.ok and [b.text for b in result.text_blocks][0] == "Still serving"
    assert seconds < CAP_S


@pytest.mark.parametrize(("fixture", "stopped"), [
    ("click_infinite_loop", {"timeout"}),
    ("click_alert_loop", {"too_many_dialogs"}),
    # Building 200k nodes may itself outlast the 3 s action cap on a loaded machine.
    ("click_huge_dom", {"resource_exceeded", "timeout"}),
    ("click_navigates_away", {None}),
])
def test_hostile_click_handlers(runner, fixture, stopped):
    html = (FIXTURES / "hostile" / f"{fixture}.html").read_text()
    score, seconds = score_timed(runner, html)
    print(f"\n{fixture}: total={score.total:.3f} in {seconds:.2f}s, "
          f"stopped={score.details['interactions']['stopped']}")
    assert seconds < CAP_S
    assert 0.0 <= score.total <= 1.0
    assert score.components["loads"] == 1.0
    interactions = score.details["interactions"]
    assert interactions["stopped"] in stopped
    assert interactions["passed"] < interactions["attempted"]
    if stopped == {None}:  # leaving is blocked: recorded as no response, not a crash
        assert score.components["stable"] == 1.0
        reasons = {r["reason"] for r in interactions["records"]}
        assert "no_response: blocked_navigation" in reasons
        assert score.components["interaction"] == 0.0
    else:
        assert score.components["stable"] == 0.0
        assert interactions["records"][-1]["reason"] == interactions["stopped"]
    assert_still_serving(runner)


@pytest.mark.parametrize(("completion", "error"), [
    ("Sorry, I can't help with that.", "no_html_document"),
    ("<!DOCTYPE html><html><body><script>while (true) {}</script></body></html>", "timeout"),
    ("<!DOCTYPE html><html><body>" + "x" * 3_000_000 + "</body></html>", "input_too_large"),
    ("<!DOCTYPE html><html><body><p>hi</p><script>for (;;) alert(1)</script></body></html>",
     "too_many_dialogs"),
])
def test_bad_completions_are_scored_failures(runner, completion, error):
    score, seconds = score_timed(runner, completion)
    assert score.total == 0.0 and score.error == error, (score.error, score.details)
    assert seconds < CAP_S


def test_the_whole_page_has_a_cap(runner):
    html = (FIXTURES / "hostile" / "click_infinite_loop.html").read_text()
    score, seconds = score_timed(runner, html, page_timeout_s=1.0)
    assert score.error == "page_timeout" and score.total == 0.0
    assert seconds < 10.0
    assert_still_serving(runner, full=True)
