"""Interactive checks through real Chromium: what counts as a response and what does not."""

from __future__ import annotations

import asyncio

import pytest

from designrl.tasks.webpage import WebpageReward

pytestmark = pytest.mark.integration

STYLE = ("<style>body{font-family:sans-serif;margin:40px;color:#111}"
         "button,a{display:inline-block;min-height:44px;min-width:44px;padding:8px 16px}</style>")

PAGES = {
    "alert_thanks": "<main><h1>Hi</h1><button onclick=\"alert('Thanks!')\">Say thanks</button>"
                    "</main>",
    "anchor_links": "<main><nav><a href='#far'>Go to the end</a> <a href='#'>Nowhere</a></nav>"
                    "<div style='height:3000px'></div><h2 id='far'>The end</h2></main>",
    "hover_only": "<style>button:hover{background:#c00;color:#fff;outline:4px solid #f90}"
                  "</style><main><h1>Hover</h1><button>Looks alive</button></main>",
    "restless": "<main><h1>Clock</h1><p id='t'>0</p><button>Does nothing</button>"
                "<button id='add' onclick=\"document.body.append(Object.assign("
                "document.createElement('p'), {textContent: 'added'}))\">Add</button></main>"
                "<script>let n = 0; setInterval(() => { t.textContent = ++n; }, 60);</script>",
    "restless_scrolled": "<main><h1>Ticker</h1><div style='height:700px'></div>"
                         "<p id='t' style='font-size:40px'>0</p><div style='height:300px'>"
                         "</div><button>Does nothing</button><div style='height:2000px'></div>"
                         "</main><script>let n = 0; setInterval(() => "
                         "{ t.textContent = ++n; }, 60);</script>",
    "live_filter": "<main><h1>Fruit</h1><label for='q'>Filter</label> <input id='q'>"
                   "<ul id='l'><li>apple</li><li>pear</li><li>plum</li></ul></main><script>"
                   "q.addEventListener('input', () => { for (const li of l.children) "
                   "li.hidden = !li.textContent.includes(q.value); });</script>",
    "css_toggle": "<style>.panel{display:none;padding:40px;background:#036;color:#fff}"
                  "#t:checked ~ .panel{display:block}</style><main><h1>Toggle</h1>"
                  "<input type='checkbox' id='t' aria-label='Show more'>"
                  "<div class='panel'>More details appear here</div></main>",
    "details": "<main><h1>FAQ</h1><details><summary>Why?</summary><p>Because.</p></details>"
               "</main>",
    "static_text": "<main><h1>Just words</h1><p>Nothing to press here at all.</p></main>",
    "fake_axe": "<script>window.axe = {run: () => Promise.resolve({violations: []})};"
                "const real = window.getComputedStyle; window.getComputedStyle = (e, p) => "
                "real(e, p);</script><main><h1>Faint</h1>"
                "<p style='color:#ddd'>Hard to read on white</p></main>",
    "csp": "<meta http-equiv='Content-Security-Policy' content=\"script-src 'none'\">"
           "<main><h1>Strict</h1><p style='color:#ddd'>Hard to read on white</p></main>",
}


@pytest.fixture(scope="module")
def scores(runner):
    reward = WebpageReward(runner.pool)
    names = list(PAGES)

    async def score_all():
        return await asyncio.gather(
            *(reward.score(f"<!DOCTYPE html><html lang='en'><head><title>{n}</title>{STYLE}"
                           f"</head><body>{PAGES[n]}</body></html>") for n in names))

    return dict(zip(names, runner.run(score_all()), strict=True))


def records(score) -> dict[str, dict]:
    return {r["label"]: r for r in score.details["interactions"]["records"]}


def test_a_dialog_is_a_response(scores):
    rec = records(scores["alert_thanks"])['button "Say thanks"']
    assert rec["passed"] and "dialog" in rec["via"]
    assert scores["alert_thanks"].components["stable"] == 1.0


def test_anchor_followed_but_hash_link_is_dead(scores):
    recs = records(scores["anchor_links"])
    assert recs['a "Go to the end"']["passed"] and "anchor" in recs['a "Go to the end"']["via"]
    assert not recs['a "Nowhere"']["passed"]
    assert scores["anchor_links"].components["interaction"] == 0.5


def test_hover_and_focus_styles_are_not_a_response(scores):
    rec = records(scores["hover_only"])['button "Looks alive"']
    assert not rec["passed"] and rec["reason"] == "no_response"


def test_a_restless_page_needs_more_than_its_own_ticking(scores):
    score = scores["restless"]
    assert score.details["interactions"]["restless"]
    recs = records(score)
    assert not recs['button "Does nothing"']["passed"]
    assert recs['button#add "Add"']["passed"]
    # The ticker moved when the button was scrolled into view: still not a response.
    scrolled = records(scores["restless_scrolled"])['button "Does nothing"']
    assert not scrolled["passed"], scrolled


def test_typing_that_filters_live_is_a_response(scores):
    rec = records(scores["live_filter"])['input#q "Filter"']
    assert rec["kind"] == "field" and rec["passed"] and "dom" in rec["via"]


def test_css_only_changes_are_seen_in_pixels(scores):
    rec = records(scores["css_toggle"])['input#t "Show more"']
    assert rec["kind"] == "toggle" and rec["passed"] and rec["via"] == ["pixels"]
    details = records(scores["details"])['summary "Why?"']
    assert details["passed"]


def test_nothing_to_interact_with_scores_zero(scores):
    score = scores["static_text"]
    assert score.details["interactions"]["attempted"] == 0
    assert score.components["interaction"] == 0.0
    assert score.total <= 0.5


def test_axe_cannot_be_faked_or_blocked_by_the_page(scores):
    for name in ("fake_axe", "csp"):
        axe = scores[name].details["static"]["axe"]
        assert "error" not in axe, axe
        assert "color-contrast" in {v["id"] for v in axe["violations"]}, (name, axe)
        assert scores[name].components["axe"] < 1.0
