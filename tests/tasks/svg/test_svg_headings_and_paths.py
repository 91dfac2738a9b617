"""Readings the blind sets v10 and v11 found missing: colours named as people name them (the
xkcd survey), text set along a path or placed by its first ``<tspan>``, a background given
as a heading, and backgrounds that are a part's (inside a border, a round coloured one,
behind a text) (rough raster, no browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import Background
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement

NS = 'xmlns="http://www.w3.org/2000/svg"'
ARC_TOP = '<path id="arc" d="M62 150 A88 88 0 0 1 238 150"/>'
ARC_BOTTOM = '<path id="arc" d="M62 150 A88 88 0 0 0 238 150"/>'


def _verdict(body: str, requirement: str, backdrop: str = "#ffffff", defs: str = "") -> str:
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 300 300"><defs>{defs}</defs>'
                                f'<rect width="300" height="300" fill="{backdrop}"/>{body}</svg>'))
    (detail,) = score_svg(facts, rasterize(facts), [requirement]).details
    return detail.verdict


def test_a_colour_near_what_people_call_its_name_is_that_colour():
    assert color_spec("dark yellow").matches((0xD5, 0xB6, 0x0A))  # the survey's dark yellow
    assert color_spec("beige").matches((0xE6, 0xDA, 0xA6))
    assert color_spec("royal blue").matches((0x05, 0x04, 0xAA))
    assert not color_spec("dark yellow").matches((0x20, 0x40, 0xC0))
    assert color_spec("deep turquoise").text == "deep turquoise"  # its own name, not "turquoise"


def _curved(words: str) -> str:
    return (f'<text font-size="21" font-weight="bold" fill="#2f5d3a">'
            f'<textPath href="#arc" startOffset="50%" text-anchor="middle">{words}</textPath>'
            f'</text>')


def test_text_along_a_path_is_read_where_the_path_runs():
    top = "The text 'BIRD WATCHER' is at the top"
    assert _verdict(_curved("BIRD WATCHER"), top, defs=ARC_TOP) == "pass"
    assert _verdict(_curved("BIRD WATCHER"), top, defs=ARC_BOTTOM) == "fail"
    assert _verdict(_curved("BIRD WACHER"), top, defs=ARC_TOP) == "fail"


def test_text_placed_by_its_first_tspan_is_there():
    sale = "The word 'SALE' is at the bottom"
    assert _verdict('<text font-size="30"><tspan x="120" y="280">SALE</tspan></text>', sale) \
        == "pass"
    assert _verdict('<text font-size="30"><tspan x="120" y="40">SALE</tspan></text>', sale) \
        == "fail"


def test_a_background_given_as_a_heading_is_the_canvas():
    heading = "Background: a soft pastel yellow."
    assert read_requirement(heading).atoms == (Background(color_spec("pastel yellow")),)
    knob = '<circle cx="150" cy="150" r="40" fill="#fbf0b8"/>'  # pastel yellow, not behind
    assert _verdict(knob, heading, backdrop="#cdeedd") == "fail"
    assert _verdict(knob, heading, backdrop="#fbf0b8") == "pass"


def test_a_background_inside_a_part_is_not_the_canvas():
    inside = "Inside the border the background is a light sky blue."
    assert not any(isinstance(a, Background) for a in read_requirement(inside).atoms)
    badge = '<circle cx="150" cy="150" r="140" fill="#2f5d3a"/><circle cx="150" cy="150" ' \
            'r="112" fill="#bfe3f5"/>'
    assert _verdict(badge, inside) != "fail"


def test_a_round_coloured_background_or_one_behind_text_is_not_the_canvas():
    for sentence in ("Behind the soap there is a round mint-green background.",
                     "A small display shows '$1.50' in green characters on a black background."):
        assert not any(isinstance(a, Background) for a in read_requirement(sentence).atoms)
    assert Background(color_spec("white")) in read_requirement(
        "A red heart on a white background.").atoms  # the drawing's subject: the canvas


def test_a_named_background_filling_a_part_inside_the_rim_is_a_doubt():
    said = "The bird is drawn against a sky blue background."  # the canvas's, as read
    assert any(isinstance(a, Background) for a in read_requirement(said).atoms)
    field = '<circle cx="150" cy="150" r="140" fill="#2f5d3a"/><circle cx="150" cy="150" ' \
            'r="112" fill="#87ceeb"/>'
    speck = '<circle cx="150" cy="150" r="140" fill="#2f5d3a"/><circle cx="150" cy="150" ' \
            'r="12" fill="#87ceeb"/>'
    assert _verdict(field, said) == "unchecked"  # the badge's field may be the one meant
    assert _verdict(speck, said) == "fail"
