"""Readings v12 found missing once measured: "no gradients" checked on the paints of the
visible shapes, and two texts on two like parts named by opposite places ("'WHITE' under
the left face and 'BLACK' under the right face") placed in that order, and a colour that
belongs to what a label is placed by, not to the label's part (rough raster)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.marks import Backing, NoGradient, TextOrder
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement, read_requirements

NS = 'xmlns="http://www.w3.org/2000/svg"'
FLAT = "The style is flat, using solid colours with no gradients or shadows"
LABELS = "The word 'WHITE' is printed under the left face and 'BLACK' under the right face"


def _verdict(body: str, requirement: str, defs: str = "") -> str:
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 300 300"><defs>{defs}</defs>'
                                f'<rect width="300" height="300" fill="#ffffff"/>{body}</svg>'))
    (detail,) = score_svg(facts, rasterize(facts), [requirement]).details
    return detail.verdict


def _gradient(top: str, bottom: str) -> str:
    return (f'<linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" '
            f'stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient>')


def test_no_gradients_fails_on_a_visible_gradient_and_reads_no_further():
    assert read_requirement(FLAT).atoms == (NoGradient(),)
    body = '<rect x="60" y="80" width="180" height="120" fill="url(#g)"/>'
    assert _verdict(body, FLAT, _gradient("#556677", "#223344")) == "fail"
    assert _verdict(body, FLAT, _gradient("#556677", "#556678")) == "unchecked"  # unseen
    assert _verdict('<rect x="60" y="80" width="180" height="120" fill="#445566"/>', FLAT) \
        == "unchecked"  # "shadows" is not read: flat paint is evidence, not a pass
    assert _verdict('<rect x="60" y="80" width="180" height="120" fill="#445566"/>',
                    "Use flat colours without gradients") == "pass"
    assert read_requirement("No gradients except on the sky").atoms == ()


def _labels(left: str, right: str) -> str:
    return (f'<circle cx="80" cy="120" r="50" fill="#eeeeee"/><circle cx="220" cy="120" r="50" '
            f'fill="#eeeeee"/><text x="80" y="210" font-size="24" text-anchor="middle">{left}'
            f'</text><text x="220" y="210" font-size="24" text-anchor="middle">{right}</text>')


def test_texts_on_parts_named_left_and_right_are_in_that_order():
    assert TextOrder(("WHITE", "BLACK"), "x") in read_requirement(LABELS).atoms
    assert _verdict(_labels("BLACK", "WHITE"), LABELS) == "fail"
    assert _verdict(_labels("WHITE", "BLACK"), LABELS) == "unchecked"  # "face" is not read
    below = read_requirement("The upper button says 'Yes' and the lower button says 'No'")
    assert TextOrder(("Yes", "No"), "y") in below.atoms
    hands = "The robot holds 'STOP' in its left hand and 'GO' in its right hand"
    assert not any(isinstance(a, TextOrder) for a in read_requirement(hands).atoms)


def test_a_colour_lent_to_a_thing_the_label_is_placed_by_is_not_the_labels():
    *_, screen = read_requirements(["Ten white pins stand at the far end",
                                    "An overhead screen above the pins reads 'LANE 7'"])
    assert not any(isinstance(getattr(a, "atom", a), Backing) for a in screen.atoms)  # lent
    (button,) = read_requirements(["A green button labelled 'Search' sits on the right"])
    assert any(isinstance(a, Backing) for a in button.atoms)
