"""When the reader may call a named colour absent: no pixel strictly that colour and no
shape painted it (tiny ones included), unless the SVG paints in ways shapes do not list or
the colour is narrowed by a word the reader does not know; and which sentences give the
canvas's background (rough raster, no browser)."""

from __future__ import annotations

import pytest

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import Background, Exact, Text
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement

NS = 'xmlns="http://www.w3.org/2000/svg"'
WARM = ('<rect x="40" y="40" width="120" height="80" fill="#e8743b"/>'  # orange: loosely red
        '<circle cx="280" cy="150" r="50" fill="#c2185b"/>')  # raspberry: loosely red too
SCARF = "A red scarf should be wrapped around his neck"


def _verdict(body: str, requirement: str, backdrop: str = "#ffffff") -> str:
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 300">'
                                f'<rect width="400" height="300" fill="{backdrop}"/>{body}</svg>'))
    (detail,) = score_svg(facts, rasterize(facts), [requirement]).details
    return detail.verdict


SMALL_WARM = ('<rect x="40" y="40" width="40" height="30" fill="#e8743b"/>'
              '<circle cx="280" cy="150" r="15" fill="#c2185b"/>')


def test_a_colour_only_other_colours_loosely_resemble_is_absent():
    assert _verdict(SMALL_WARM, SCARF) == "fail"
    assert _verdict(SMALL_WARM + '<rect x="200" y="60" width="60" height="14" fill="#d62828"/>',
                    SCARF) != "fail"


def test_plentiful_near_shades_make_an_absence_a_doubt_that_costs_a_little():
    """Orange and raspberry over 5 % of the canvas may be what a person calls red (on blind
    sets such failures were wrong about as often as right): undecided, leaning down."""
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 300">'
                                f'<rect width="400" height="300" fill="#ffffff"/>{WARM}</svg>'))
    score = score_svg(facts, rasterize(facts), [SCARF])
    (detail,) = score.details
    assert detail.verdict == "unchecked"
    assert [a.lean for a in detail.atoms] == [1.0]
    assert score.components["requirements"] < 0.5


@pytest.mark.parametrize("detail", [
    '<line x1="20" y1="250" x2="380" y2="250" stroke="#d62828" stroke-width="1"/>',
    '<text x="200" y="260" font-size="9" fill="#d62828">red</text>',
    '<circle cx="200" cy="260" r="1.5" fill="#d62828"/>' * 3,
])
def test_thin_or_tiny_shapes_painted_the_colour_keep_it_from_being_absent(detail):
    """A 1-unit line, small letters or tiny dots erode out of the strict mask, yet they are
    painted red: not absent."""
    assert _verdict(WARM + detail, SCARF) != "fail"


def test_paint_the_shapes_do_not_list_is_never_called_absent():
    flood = ('<defs><filter id="f"><feFlood flood-color="#d62828"/></filter></defs>'
             '<rect x="0" y="0" width="5" height="5" fill="#e8743b" filter="url(#f)"/>')
    assert _verdict(WARM + flood, SCARF) != "fail"


def test_tiny_stars_count_as_the_pieces_they_are():
    stars = "".join(f'<circle cx="{30 + 32 * i}" cy="{20 + 7 * (i % 3)}" r="1.2" fill="#ffffff"/>'
                    for i in range(12))
    rule = "At least ten tiny white stars are scattered across the sky above the buildings"
    assert _verdict(stars, rule, backdrop="#14305c") != "fail"
    few = "".join(f'<circle cx="{30 + 32 * i}" cy="20" r="1.2" fill="#ffffff"/>' for i in range(4))
    assert _verdict(few, rule, backdrop="#14305c") == "fail"


@pytest.mark.parametrize(("rule", "paint"), [
    ("The bottom layer should be coloured a light wheat brown", "#e3c48d"),
    ("The sand should be a sandy yellow", "#e2c391"),
    ("The pages are an off-white, slightly warm colour", "#faf3e3"),
    ("The book lies on a light brown wooden desk", "#c89b6a"),
    ("The background around the clock should be light grey", "#e4e6e9"),
])
def test_shades_people_name_loosely_are_not_failed(rule, paint):
    assert _verdict(f'<rect x="20" y="20" width="200" height="150" fill="{paint}"/>', rule) \
        != "fail"


def test_pale_shades_match_their_names():
    assert color_spec("off-white".replace("-", " ")).matches((250, 243, 227))
    assert not color_spec("white").matches((250, 243, 227))
    assert color_spec("light brown").matches((200, 155, 106))
    assert not color_spec("light brown").matches((90, 60, 30))  # dark brown is not light
    assert color_spec("light gray").matches((238, 238, 238))


def test_a_tone_before_a_two_word_colour_admits_its_darker_or_lighter_shades():
    """"Deep royal blue" is royal blue (#4169e1) darkened: #1d3f9a, though far from the CSS
    shade, is one, and so not absent; navy, past halfway to black, and lighter blues are not;
    what the two-word name allows stays allowed on the tone's side."""
    deep = color_spec("deep royal blue")
    assert deep.matches((0x1D, 0x3F, 0x9A)) and deep.matches((0x41, 0x69, 0xE1))
    assert not deep.matches((0x00, 0x00, 0x80)) and not deep.matches((0x87, 0xA0, 0xF0))
    assert color_spec("light sky blue").matches((0x87, 0xCE, 0xFA))  # CSS lightskyblue
    assert color_spec("pale sky blue").matches((0xCF, 0xE8, 0xF7))  # lighter: still a sky blue
    assert not color_spec("pale sky blue").matches((0x4A, 0x90, 0xC0))  # darker is not pale
    assert color_spec("deep forest green").matches((0x1F, 0x5A, 0x3A))  # what forest green allows
    body = '<ellipse cx="200" cy="150" rx="30" ry="45" fill="#1d3f9a"/>'
    rule = "The peacock's body and neck must be a deep royal blue"
    assert _verdict(body, rule) != "fail"
    assert _verdict(body.replace("#1d3f9a", "#7a3fb0"), rule) == "fail"  # purple


@pytest.mark.parametrize(("sentence", "canvas"), [
    ("Set the poster against a black background", True),
    ("The background should be a soft yellow", True),
    ("The icon background should be a light blue circle", False),
    ("The screen should have a light grey background", False),
    ("The card has rounded corners and a dark navy background, centred on a light grey page",
     False),
    ("The icon should sit on a rounded square tile with a light blue background", False),
    ("The background of the chart should be white", False),
    ("The background of the image must be a light blue sky", True),
])
def test_only_the_drawing_s_own_background_is_read_off_the_canvas_rim(sentence, canvas):
    atoms = read_requirement(sentence).atoms
    assert any(isinstance(a, Background) or (isinstance(a, Exact) and "background" in
                                             a.describe()) for a in atoms) is canvas, atoms


def test_a_colour_after_a_label_may_be_the_labelled_part_s():
    atoms = read_requirement("A full-width button labelled 'Log in' in teal sits below the "
                             "checkbox").atoms
    assert Text("Log in") in atoms and not any(isinstance(a, Text) and a.color for a in atoms)


def test_a_thing_placed_in_a_corner_needs_something_drawn_there():
    rule = "A compass rose must appear in the bottom-right corner of the map"
    rose = '<circle cx="{x}" cy="250" r="25" fill="none" stroke="#333" stroke-width="3"/>'
    assert _verdict(rose.format(x=340), rule) == "unchecked"  # never passes: what it is
    assert _verdict(rose.format(x=60), rule) == "fail"  # the corner is bare


def test_a_colour_named_by_two_words_is_never_called_absent():
    """"Golden tan" is tan, a shade "gold" does not name: the reader cannot call it absent."""
    rule = "The desert sand covers the lower third of the picture in a golden tan colour"
    sand = '<rect x="0" y="200" width="400" height="100" fill="#d2a86a"/>'
    assert _verdict(sand, rule) != "fail"


def test_a_qualified_colour_is_not_placed_by_its_strict_reading():
    """The gold sun is not the "golden tan" sand: tan along the bottom is not a failure."""
    rule = "The desert sand covers the lower third of the picture in a golden tan colour"
    scene = ('<circle cx="330" cy="60" r="30" fill="#ffd700"/>'
             '<rect x="0" y="200" width="400" height="100" fill="#d2a86a"/>')
    assert _verdict(scene, rule) != "fail"
