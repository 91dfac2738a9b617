"""Readings of text and lines in free-text requirements: quoted figures, centred titles, one
place per quote, the colour of unquoted text, percentages that add up, coloured lines; each
decided on drawings (rough raster, no browser)."""

from __future__ import annotations

import pytest

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import (
    Backing,
    Count,
    Lettering,
    PercentSum,
    Proportion,
    Shaped,
    Stroke,
    Text,
    TextOrder,
)
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement

NS = 'xmlns="http://www.w3.org/2000/svg"'
TIMES = "The elapsed time '1:24' should be on the left and the total time '3:58' on the right"
TITLE = "The chart must have the title 'Quarterly Revenue' centred at the top"
WHITE_LABEL = "The text on the Log in button must be white"


def _verdicts(body: str, requirements):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 300">'
                                f'<rect width="400" height="300" fill="#ffffff"/>{body}</svg>'))
    return [d.verdict for d in score_svg(facts, rasterize(facts), requirements).details]


def test_a_quoted_figure_is_text_to_draw():
    assert read_requirement("The text '10%' should appear beneath the battery").atoms == (
        Text("10%"),)
    # on opposite sides: the pair's own order, wherever it sits (a dialog's two buttons
    # "on the left" and "on the right" may both sit in the canvas's right half)
    assert {Text("1:24"), Text("3:58"), TextOrder(("1:24", "3:58"), "x")} <= set(
        read_requirement(TIMES).atoms)


def test_centred_text_is_centred_across_the_canvas():
    (title,) = read_requirement(TITLE).atoms
    assert set(title.regions) == {"hcenter", "top"}
    centred = '<text x="200" y="30" font-size="18" text-anchor="middle">Quarterly Revenue</text>'
    left = '<text x="10" y="30" font-size="18">Quarterly Revenue</text>'
    assert _verdicts(centred, [TITLE]) == ["unchecked"]  # "chart" is not read
    assert _verdicts(left, [TITLE]) == ["fail"]


def test_each_quote_keeps_its_own_place():
    right = ('<text x="20" y="200" font-size="12">1:24</text>'
             '<text x="380" y="200" font-size="12" text-anchor="end">3:58</text>')
    swapped = right.replace("1:24", "X").replace("3:58", "1:24").replace("X", "3:58")
    assert _verdicts(right, [TIMES]) == ["unchecked"]
    assert _verdicts(swapped, [TIMES]) == ["fail"]


@pytest.mark.parametrize(("sentence", "lettering"), [
    (WHITE_LABEL, True),
    ("The planet labels should be written in white or light grey text", True),
    ("The title bar should be dark blue", False),  # a part, not its text
    ("The heading area must be white", False),
])
def test_the_colour_of_unquoted_text(sentence, lettering):
    reading = read_requirement(sentence)
    assert any(isinstance(a, Lettering) for a in reading.atoms) is lettering
    assert not reading.complete


def test_text_in_no_named_colour_fails():
    button = '<rect x="100" y="200" width="200" height="40" fill="#6c4ce0"/>'
    white = button + '<text x="200" y="225" fill="#ffffff" text-anchor="middle">Log in</text>'
    dark = white.replace("#ffffff", "#2a1a66")
    assert _verdicts(white, [WHITE_LABEL]) == ["unchecked"]
    assert _verdicts(dark, [WHITE_LABEL]) == ["fail"]


def test_text_on_a_part_of_its_named_colour_is_not_failed_for_its_own_colour():
    """"The title 'Menu' in teal": white letters on a teal bar may be what is meant (the
    bar's teal); dark letters on white are not, nor yellow letters inside a white rim."""
    sentence = "The title 'Menu' in teal sits at the top"
    bar = '<rect width="400" height="70" fill="#14b8a6"/>'
    title = '<text x="200" y="45" font-size="28" text-anchor="middle" fill="{}">Menu</text>'
    assert _verdicts(bar + title.format("#ffffff"), [sentence]) == ["unchecked"]
    assert _verdicts(title.format("#1e293b"), [sentence]) == ["fail"]
    sign = ('<polygon points="150,50 250,50 320,120 320,200 250,270 150,270 80,200 80,120" '
            'fill="#c62828" stroke="#ffffff" stroke-width="8"/>'
            '<text x="200" y="175" font-size="60" text-anchor="middle" fill="#ffd600">STOP</text>')
    assert _verdicts(sign, ["The word 'STOP' is in the centre in large white letters"]) == ["fail"]


def test_a_word_split_across_text_elements_is_not_failed():
    """A crossbuck's 'RAILROAD' set as 'RAIL' and 'ROAD' either side of the crossing."""
    sentence = "The sign reads 'RAILROAD' in black capital letters"
    split = ''.join(f'<text x="{x}" y="100" font-size="20" fill="#111111">{w}</text>'
                    for x, w in ((60, "RAIL"), (240, "ROAD")))
    assert _verdicts(split, [sentence]) == ["unchecked"]
    assert _verdicts(split.replace("ROAD", "WAY"), [sentence]) == ["fail"]


def test_percentages_must_add_up():
    rule = "The percentages shown in the legend must add up to 100%"
    assert read_requirement(rule).atoms == (PercentSum(100.0),)
    legend = '<text x="300" y="{y}">{name} {p}%</text>'
    right = "".join(legend.format(y=40 + 20 * i, name=n, p=p)
                    for i, (n, p) in enumerate([("A", 48), ("B", 27), ("C", 17), ("D", 8)]))
    assert _verdicts(right, [rule]) == ["unchecked"]  # "legend" is not read
    assert _verdicts(right.replace("48%", "53%"), [rule]) == ["fail"]
    assert _verdicts('<text x="9" y="40">48%</text>', [rule]) == ["unchecked"]  # one alone


def test_a_place_followed_by_a_preposition_is_still_read():
    rule = "The time '1:24' should be on the left under the bar and the time '3:58' on the right"
    assert TextOrder(("1:24", "3:58"), "x") in read_requirement(rule).atoms


def test_two_labels_on_opposite_sides_of_a_part_are_in_order_not_in_canvas_halves():
    rule = ("Two buttons sit at the bottom right of the dialog: a white 'Later' button on the "
            "left and a blue 'Install' button on the right")
    buttons = ('<rect x="220" y="230" width="60" height="30" fill="#ffffff" stroke="#999"/>'
               '<rect x="300" y="230" width="60" height="30" fill="#1e88e5"/>')
    later = '<text x="230" y="250" font-size="12">Later</text>'
    install = '<text x="310" y="250" font-size="12" fill="#fff">Install</text>'
    assert _verdicts(buttons + later + install, [rule]) != ["fail"]
    swapped = later.replace("230", "310") + install.replace("310", "230")
    assert _verdicts(buttons + swapped, [rule]) == ["fail"]


def test_a_coloured_line_is_a_stroke_or_a_thin_shape():
    rule = "The temperature should be plotted as a red line"
    assert Stroke(color_spec("red")) in read_requirement(rule).atoms
    line = '<polyline points="20,200 120,120 220,160 380,40" fill="none" stroke="{c}"/>'
    area = '<polygon points="20,200 120,120 220,160 380,40 380,290 20,290" fill="#f4b6b6"/>'
    thin = '<rect x="20" y="150" width="360" height="4" fill="#d62828"/>'
    assert _verdicts(area + line.format(c="#d62828"), [rule]) == ["unchecked"]
    assert _verdicts(thin, [rule]) == ["unchecked"]
    assert _verdicts(area + line.format(c="#1f77b4"), [rule]) == ["fail"]  # only a red area


def test_a_shape_word_fails_only_when_that_colour_is_surely_another_shape():
    rule = "A red octagonal stop sign should be mounted on a pole"
    assert Shaped("octagon", color_spec("red")) in read_requirement(rule).atoms
    octagon = '<polygon points="170,60 230,60 270,100 270,160 230,200 170,200 130,160 130,100"' \
              ' fill="#c1121f"/>'
    hexagon = '<polygon points="160,60 240,60 280,130 240,200 160,200 120,130" fill="#c1121f"/>'
    blob = '<path d="M150 60 C 250 40, 300 200, 200 210 S 100 120, 150 60 Z" fill="#c1121f"/>'
    assert _verdicts(octagon, [rule]) == ["unchecked"]  # "mounted on a pole" is not read
    assert _verdicts(hexagon, [rule]) == ["fail"]
    assert _verdicts(blob, [rule]) == ["unchecked"]  # a curved outline could be anything


@pytest.mark.parametrize(("sentence", "texts"), [
    ("Include a row of four navigation links: 'Home', 'Deals', 'Orders' and 'Help'", 4),
    ("The legend should list 'Aurora' and 'Brisk'", 2),
    ("Three cats named 'Tom', 'Kit' and 'Max' sleep", 0),  # names, not words to draw
])
def test_a_list_of_short_quotes_is_words_to_draw(sentence, texts):
    assert sum(isinstance(a, Text) for a in read_requirement(sentence).atoms) == texts


def test_things_drawn_as_shapes_are_counted_as_those_shapes():
    rule = "Include exactly five trees, drawn as dark green circles"
    assert Count("circle", color_spec("dark green"), "==", 5) in read_requirement(rule).atoms
    tree = '<circle cx="{x}" cy="150" r="12" fill="#1b5e20"/>'
    assert _verdicts("".join(tree.format(x=40 + 60 * i) for i in range(5)), [rule]) == [
        "unchecked"]
    assert _verdicts("".join(tree.format(x=30 + 50 * i) for i in range(7)), [rule]) == ["fail"]


def test_the_drawings_proportions_when_it_is_the_subject():
    rule = "The flag should be wider than it is tall, in roughly a 3:2 ratio"
    assert read_requirement(rule).atoms == (Proportion(2.0), Proportion(1.5, True))
    assert read_requirement("The lake should be wider than it is tall").atoms == ()

    def verdict(view, body=""):
        facts = svg_facts(parse_svg(f'<svg {NS} viewBox="{view}">{body}'
                                    '<circle cx="50" cy="50" r="10" fill="red"/></svg>'))
        return score_svg(facts, rasterize(facts), [rule]).details[0].verdict

    assert verdict("0 0 300 200") == "unchecked"  # "flag" is not read
    assert verdict("0 0 200 200") == "fail"
    assert verdict("0 0 200 200", '<rect y="40" width="200" height="133" fill="blue"/>') == \
        "unchecked"  # a 3:2 flag on a square canvas


@pytest.mark.parametrize(("rules", "body"), [
    (["A red line of text reads 'Hello'"],
     '<text x="40" y="100" font-size="20" fill="#d00000">Hello</text>'),
    (["Include exactly three fluffy white clouds in the sky"],
     "".join(f'<g fill="#ffffff"><ellipse cx="{x}" cy="60" rx="30" ry="14"/>'
             f'<ellipse cx="{x + 20}" cy="50" rx="20" ry="12"/></g>' for x in (60, 170, 280))),
    (["The labels should be written in dark grey text"],
     '<text x="40" y="100" fill="#444444">Jan</text><text x="90" y="100" fill="#444">Feb</text>'),
    (["A boat with white triangular sails floats on the sea"],
     '<path d="M200 60 Q 250 120 240 180 L 200 180 Z" fill="#ffffff" stroke="#333"/>'),
    (["The title 'Menu' should be centred at the top of the card"],
     '<text x="200" y="30" font-size="22" text-anchor="middle">Menu</text>'),
])
def test_honest_drawings_of_tricky_sentences_are_not_failed(rules, body):
    assert "fail" not in _verdicts('<rect width="400" height="300" fill="#87ceeb"/>' + body,
                                   rules)


def test_a_labelled_part_has_its_colour_around_the_label():
    rule = "A wide purple button labelled 'Log in' sits below the form"
    assert Backing(color_spec("purple"), "Log in") in read_requirement(rule).atoms
    for other in ("The field holds grey placeholder text that says 'Search'",
                  "The station on the red line should be labelled 'Harbour'"):
        assert not any(isinstance(a, Backing) for a in read_requirement(other).atoms)
    label = '<text x="200" y="205" font-size="16" text-anchor="middle" fill="#fff">Log in</text>'
    button = '<rect x="120" y="185" width="160" height="30" fill="{c}"/>'
    assert _verdicts(button.format(c="#6c4ce0") + label, [rule]) == ["unchecked"]
    elsewhere = '<circle cx="40" cy="40" r="25" fill="#6c4ce0"/>'  # purple, not the button
    assert _verdicts(elsewhere + button.format(c="#888888") + label, [rule]) == ["fail"]


def test_a_quote_that_must_itself_appear_is_words_to_draw():
    rule = "The unit 'km/h' must appear below the centre of the dial"
    assert read_requirement(rule).atoms == (Text("km/h"),)
    assert Text("Total: $49.00") in read_requirement(
        "The order total 'Total: $49.00' should be displayed above the fields").atoms
    for other in ("A 'rustic' feel should appear", "The dog named 'Rex' must appear on the left"):
        assert not any(isinstance(a, Text) for a in read_requirement(other).atoms)
    dial = '<circle cx="200" cy="150" r="80" fill="#222"/>'
    unit = '<text x="200" y="200" font-size="18" text-anchor="middle" fill="#fff">{u}</text>'
    assert _verdicts(dial + unit.format(u="km/h"), [rule]) == ["unchecked"]
    assert _verdicts(dial + unit.format(u="mph"), [rule]) == ["fail"]


def test_words_in_differently_styled_tspans_are_read_with_their_own_paint_and_place():
    """"<tspan fill=grey>Orbit</tspan><tspan fill=purple>Labs</tspan>": the text reads
    "OrbitLabs", yet each word is shown, in its own colour, Labs after Orbit on the line."""
    logo = ('<text x="100" y="120" font-size="40"><tspan font-weight="bold" fill="#2e2e33">'
            'Orbit</tspan><tspan dx="8" font-weight="300" fill="#6b3fd4">Labs</tspan></text>')
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 300">{logo}</svg>'))
    (text,) = [s for s in facts.drawn if s.tag == "text"]
    orbit, labs = text.runs
    assert (orbit.text, labs.text) == ("Orbit", "Labs") and orbit.bbox[2] < labs.bbox[0]
    assert set(text.fill) == {(0x2E, 0x2E, 0x33), (0x6B, 0x3F, 0xD4)}  # not the text's black
    assert _verdicts(logo, ["The word 'Orbit' must appear",
                            "The word 'Labs' must be written in purple",
                            "The word 'Orbit' must be written in purple"]) == \
        ["pass", "pass", "fail"]


def test_labels_of_two_parts_named_by_place_are_ordered_not_each_put_in_both_places():
    # v17: both places were asked of the first label, whose centre cannot be in both
    rule = "The upper-left island is labelled 'Gull Island' and the lower-right island 'Kestrel Isle'"
    assert Text("Gull Island") in read_requirement(rule).atoms
    islands = ('<ellipse cx="100" cy="80" rx="60" ry="40" fill="#7cbf6a"/>'
               '<ellipse cx="300" cy="220" rx="70" ry="45" fill="#6fb35c"/>')
    label = '<text x="{x}" y="{y}" font-size="14" text-anchor="middle">{words}</text>'
    honest = label.format(x=100, y=85, words="Gull Island") + \
        label.format(x=300, y=225, words="Kestrel Isle")
    swapped = label.format(x=100, y=85, words="Kestrel Isle") + \
        label.format(x=300, y=225, words="Gull Island")
    assert _verdicts(islands + honest, [rule]) != ["fail"]
    assert _verdicts(islands + swapped, [rule]) == ["fail"]
