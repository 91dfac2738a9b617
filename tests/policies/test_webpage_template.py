"""The webpage ``template`` policy: built from the request, deterministic, and scored
>= 0.85 on average by the webpage reward (no judge) over our 10 requests in real Chromium."""

from __future__ import annotations

import re
import statistics
import time

import pytest

from designrl.policies.webpage_template import build_page, read_request
from designrl.tasks.webpage import WebpageItem, WebpageReward, extract_page, load_prompts

MEAN_BAR = 0.85


def _page(item: WebpageItem, seed: int = 0) -> str:
    html, well_formatted = extract_page(build_page(item, seed))
    assert html is not None and well_formatted
    return html


def test_answer_is_one_self_contained_html_fence():
    for item in load_prompts():
        completion = build_page(item)
        assert completion.startswith("```html\n<!DOCTYPE html>") and completion.endswith("```")
        assert completion.count("```") == 2
        html = _page(item)
        assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", html), item.id
        assert "<link" not in html and "@import" not in html and "url(http" not in html


def test_same_seed_same_page_other_seed_other_look():
    item = load_prompts()[0]
    assert build_page(item, 3) == build_page(item, 3)
    assert build_page(item, 0) != build_page(item, 1)


def test_page_follows_the_request():
    pages = {item.id: _page(item) for item in load_prompts()}
    assert "Brightwave" in pages["landing-page"] and "Get started" in pages["landing-page"]
    assert "<nav" in pages["landing-page"] and 'id="features"' in pages["landing-page"]
    for plan in ("Free", "Pro", "Team"):
        assert f"Choose {plan}" in pages["pricing-table"]
    contact = pages["contact-form"]
    assert "<form" in contact and "<select" in contact and "<textarea" in contact
    assert 'type="email"' in contact and contact.count("<label") >= 4
    gallery = pages["image-gallery"]
    assert gallery.count('<figure class="shot"') == 8 and 'src="rick.jpg"' in gallery
    assert 'role="dialog"' in gallery and ">Next</button>" in gallery
    assert pages["faq-accordion"].count('class="qa"') == 6 and 'type="search"' in pages[
        "faq-accordion"]
    for tab in ("Description", "Specs", "Reviews"):
        assert f">{tab}</button>" in pages["product-page"]
    assert "<form" not in pages["calculator"]
    # A request for a form gets one, named after what it asks for; one without does not.
    signup = _page(WebpageItem("x", 'Build a sign-up form for "Lumo" with name, email and '
                                    "password fields."))
    assert "<form" in signup and 'type="password"' in signup and "Lumo" in signup
    assert read_request("Make a five-question quiz about the solar system").parts == ("quiz",)
    assert read_request('A page for "Acme", with a table of orders').brand == "Acme"


@pytest.mark.integration
def test_mean_reward_over_our_requests(runner):
    items = load_prompts()
    reward = WebpageReward(runner.pool)
    started = time.monotonic()
    scores = runner.run(reward.score_many([build_page(item) for item in items],
                                          [item.prompt for item in items]), timeout=240)
    print(f"\nscored {len(items)} pages in {time.monotonic() - started:.1f}s")
    for item, score in zip(items, scores, strict=True):
        weak = {k: round(v, 2) for k, v in score.components.items() if v < 0.9}
        print(f"{item.id:<18} total={score.total:.3f} weakest={weak}")
    mean = statistics.fmean(s.total for s in scores)
    print(f"mean total {mean:.3f}")
    assert all(s.error is None for s in scores), [s.error for s in scores]
    assert all(s.components["execution"] == 1.0 for s in scores)
    assert mean >= MEAN_BAR
