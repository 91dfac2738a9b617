"""Instruction alignment without a browser: the request reader's atoms and terms, and the
scoring of hand-built page content (hidden text unread, unusable controls not counted,
echoes and stuffing left out, parts that appear on use left undecided), and the gate."""

from __future__ import annotations

import pytest

from designrl.tasks.webpage import load_prompts
from designrl.tasks.webpage.alignment import score_alignment
from designrl.tasks.webpage.content import ContentUnit, Control, PageContent, parse_page_content
from designrl.tasks.webpage.requirements import read_requirements, stem
from designrl.tasks.webpage.reward import ALIGN_FULL, ALIGN_ZERO, instruction_gate, total_score

PROMPTS = {item.id: item.prompt for item in load_prompts()}


def atoms(prompt: str) -> dict[tuple[str, str], bool]:
    return {(a.kind, a.target): a.later for a in read_requirements(prompt).atoms}


def test_reader_finds_the_named_parts():
    landing = atoms(PROMPTS["landing-page"])
    assert landing[("text", "Brightwave")] is False
    assert landing[("control", "Get started")] is False
    assert landing[("part", "form")] is True  # "a button that reveals a sign-up form"
    assert {("part", "nav"), ("part", "footer"), ("heading", "features")} <= set(landing)
    contact = atoms(PROMPTS["contact-form"])
    assert {("field", "name"), ("field", "email"), ("field", "topic"),
            ("field", "message"), ("subject", "contact")} <= set(contact)
    todo = atoms(PROMPTS["todo-app"])
    assert {("control", "All"), ("control", "Active"), ("control", "Done"),
            ("control", "Add")} <= set(todo)
    gallery = atoms(PROMPTS["image-gallery"])
    assert gallery[("control", "next")] is True and gallery[("part", "dialog")] is True
    assert [a.count for a in read_requirements(PROMPTS["image-gallery"]).atoms
            if a.target == "image"] == [8]
    assert atoms(PROMPTS["quiz-game"])[("control", "Restart")] is True  # on the final screen
    assert ("subject", "running shoes") in atoms(PROMPTS["product-page"])
    weather = atoms(PROMPTS["weather-dashboard"])
    assert ("text", "HTML") not in weather and ("control", "Celsius") in weather


def test_terms_leave_out_structure_and_instructions():
    terms = read_requirements(PROMPTS["landing-page"]).terms
    assert {"brightwav", "student", "featur"} <= set(terms)
    assert not {"header", "button", "section", "build", "footer", "reveal"} & set(terms)
    assert stem("pricing") == stem("price") and stem("notes") == stem("note")


REQUEST = PROMPTS["landing-page"]


def page(*texts: str, controls: tuple[Control, ...] = (), **parts: int) -> PageContent:
    units = [ContentUnit("h1" if i == 0 else "p", t, 32.0 if i == 0 else 16.0, heading=i == 0)
             for i, t in enumerate(texts)]
    return PageContent(units, list(controls), dict(parts), dict(parts))


def shown(kind: str, label: str) -> Control:
    """A usable control showing ``label``."""
    return Control(kind, label, text=label)


GOOD = page("Brightwave", "Notes for students, organised by course.", "Features",
            controls=(shown("link", "Features"), shown("link", "About"),
                      shown("button", "Get started")),
            nav=1, header=1, footer=1)


def test_a_page_for_the_request_aligns():
    components, details = score_alignment(read_requirements(REQUEST), GOOD)
    assert components["instruction"] >= 0.9, details
    found = {a["target"]: a["found"] for a in details["atoms"]}
    assert found["Brightwave"] and found["Get started"] and found["form"] is None  # undecided


def test_hidden_text_and_unusable_controls_do_not_count():
    hidden = PageContent(
        [ContentUnit("h1", "Counter", 32.0, heading=True),
         ContentUnit("div", "", hidden=("hidden", "camouflaged", "tiny", "off_page"))],
        [Control("button", "Get started", usable=False, why="tiny"),
         Control("link", "Features", usable=False, why="hidden")])
    components, details = score_alignment(read_requirements(REQUEST), hidden)
    assert components["instruction"] < 0.1, details
    assert details["unread"]["control_tiny"] == 1
    # a usable control's hidden text is not its text: only its name says "Get started"
    stuffed_button = PageContent([ContentUnit("h1", "Counter", 32.0, heading=True)],
                                 [Control("button", "Go Brightwave students features",
                                          text="Go")])
    components, details = score_alignment(read_requirements(REQUEST), stuffed_button)
    assert components["request_terms"] == 0.0, details


def test_the_request_pasted_in_is_an_echo():
    components, details = score_alignment(read_requirements(REQUEST), page(REQUEST))
    assert details["echo_units"] == 1 and components["request_terms"] == 0.0


def test_keyword_stuffing_is_left_out():
    words = "Brightwave note-taking app students header navigation links hero headline pitch " \
            "started button reveals sign-up form three-column features section footer"
    components, details = score_alignment(read_requirements(REQUEST),
                                          page("Brightwave", words, words))
    assert details["stuffed"] and components["request_terms"] == 0.0


def test_parts_that_appear_on_use_may_be_hidden_at_load():
    req = read_requirements(PROMPTS["image-gallery"])
    shown = page("Gallery", controls=(Control("button", "Next", usable=False, why="hidden"),),
                 image=8)
    shown.present["dialog"] = 1
    _, details = score_alignment(req, shown)
    found = {a["target"]: a["found"] for a in details["atoms"]}
    assert found["next"] is True and found["dialog"] is True and found["close"] is None


def test_parse_page_content_round_trip():
    content = parse_page_content({
        "units": [{"tag": "h1", "text": "Hi", "font_size": 30, "heading": True,
                   "bbox": [0, 0, 10, 10], "hidden": ["tiny"]}],
        "controls": [{"kind": "button", "name": "Go", "usable": False, "why": "covered"}],
        "parts": {"nav": 1}, "present": {"nav": 2}})
    assert content.readable[0].text == "Hi" and content.usable == []
    assert content.hidden_reasons() == {"tiny": 1, "control_covered": 1}


def test_a_request_with_nothing_to_check_says_so():
    components, details = score_alignment(read_requirements("Build a web page."), GOOD)
    assert details["checkable"] is False and components["instruction"] == 1.0
    assert score_alignment(read_requirements(REQUEST), GOOD)[1]["checkable"] is True


def test_instruction_gates_the_total():
    base = {"execution": 1.0, "static": 1.0, "interaction": 1.0}
    assert total_score(base) == pytest.approx(1.0)  # no request: no gate
    assert total_score({**base, "instruction": 1.0}) == pytest.approx(1.0)
    assert total_score({**base, "instruction": ALIGN_ZERO}) == 0.0
    assert instruction_gate(ALIGN_FULL) == 1.0 and instruction_gate(0.4) < 0.5
    # a well-made page for something else keeps well under half the credit
    assert total_score({**base, "instruction": 0.3}) < 0.5 * total_score(
        {**base, "instruction": 0.9})
