"""The free-text reader: which atoms a sentence gives, when they cover it all, and how they are
decided on a drawing (rough raster, no browser); white is strict; what the render does not
show does not count."""

from __future__ import annotations

import pytest

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import Background, Count, Exact, NoText, Relative, Shown, Text
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.generate import TEST_SEED_START, generate_item
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement
from designrl.tasks.svg.reward import EVIDENCE

NS = 'xmlns="http://www.w3.org/2000/svg"'


def _kinds(sentence: str) -> list[str]:
    return sorted(type(a).__name__ for a in read_requirement(sentence).atoms)


@pytest.mark.parametrize(("sentence", "kinds", "complete"), [
    ("The cow's hooves must be coloured brown, as if covered in soil", ["Shown"], False),
    ("Include exactly three children on top of a grassy hill", ["Alike"], False),
    ("a button labelled 'Search'", ["Text"], False),
    ("Include the text 'CITY NIGHTS' at the top right", ["Text"], True),
    ("The background should be a soft pastel blue", ["Background"], True),
    ("Set the poster against a black background", ["Background"], True),
    ("The red roof sits above the brown walls", ["Relative", "Shown", "Shown"], False),
    ("Draw three small red circles for the eyes", ["Count", "Shown"], False),
    ("There should be no text anywhere", ["NoText"], True),
    ("The image must be 800 by 600 pixels", ["Exact"], True),
    ("Include a red circle", ["Exact"], True),
    # subjective, hedged, negated, named: nothing to check
    ("The cat should look playful", [], False),
    ("The roof could be red or orange", [], False),
    ("The barn must not be red", [], False),
    ("There should be no text other than the shop name", [], False),
    ("A nurse wears a Red Cross badge", [], False),
    # a region that is a house's, not the canvas's; a square that is a window
    ("A red door sits on the left side of the house", ["Shown"], False),
    ("Include a blue square window", ["Shown"], False),
])
def test_sentences_read_into_atoms(sentence, kinds, complete):
    reading = read_requirement(sentence)
    assert _kinds(sentence) == kinds, [a.describe() for a in reading.atoms]
    assert reading.complete is complete


def test_an_exact_count_in_a_partial_reading_is_only_a_lower_bound():
    (count,) = [a for a in read_requirement("Draw exactly four small circles for the planets")
                .atoms if isinstance(a, Count)]
    assert (count.op, count.n) == (">=", 4)


def test_two_colours_of_one_patterned_thing_both_go_where_it_stands():
    striped = read_requirement("A red and white striped lighthouse stands in the middle")
    assert {(a.colors[0].text, a.region) for a in striped.atoms
            if isinstance(a, Shown)} == {("red", "center"), ("white", "center")}
    two_things = read_requirement("A red car and a white van stand in the middle")
    assert all(isinstance(a, Shown) and a.region is None for a in two_things.atoms)


def test_generated_requirements_are_all_read_exactly():
    for seed in range(TEST_SEED_START, TEST_SEED_START + 200):
        for sentence in generate_item(seed).requirements:
            reading = read_requirement(sentence)
            assert reading.complete and all(isinstance(a, Exact) for a in reading.atoms), sentence


@pytest.mark.parametrize(("rgb", "white"), [((255, 255, 255), True), ((248, 248, 250), True),
                                            ((255, 228, 225), False), ((224, 240, 255), False),
                                            ((173, 216, 230), False), ((255, 192, 203), False)])
def test_white_is_strict(rgb, white):
    assert color_spec("white").matches(rgb) is white


def _score(body: str, requirements, view="0 0 400 400"):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="{view}">{body}</svg>'))
    return score_svg(facts, rasterize(facts), requirements)


SCENE = ('<rect width="400" height="400" fill="#a8d8f0"/>'
         '<rect y="250" width="400" height="150" fill="#3fa34d"/>'
         '<circle cx="340" cy="60" r="30" fill="#ffd700"/>'
         '<polygon points="60,160 120,110 180,160" fill="#c0392b"/>'
         '<rect x="70" y="160" width="100" height="90" fill="#7a4a1e"/>'
         '<text x="200" y="380" font-size="30" fill="#ffffff">FARM</text>')
FREE = ["The cow's hooves must be coloured brown, as if covered in soil",
        "A bright yellow sun shines in the top right corner of the image",
        "The red roof sits above the brown walls",
        "Include the text 'FARM' at the bottom",
        "The background should be light blue",
        "Purple flowers grow by the barn",
        "The farm should feel peaceful"]


def test_free_text_verdicts_on_a_drawing():
    score = _score(SCENE, FREE)
    verdicts = [d.verdict for d in score.details]
    assert verdicts == ["unchecked", "unchecked", "unchecked", "pass", "pass", "fail",
                        "unchecked"], [(d.text, d.detail) for d in score.details]
    assert [a.verdict for a in score.details[0].atoms] == [True]  # brown shown, "hooves" unread
    assert score.components["coverage"] == pytest.approx(3 / 7)
    # two passes, four undecided at 0.5, three of them with every atom found (+ EVIDENCE each)
    assert score.components["requirements"] == pytest.approx((2 + 0.5 * 4 + 3 * EVIDENCE) / 7)


def test_atoms_fail_only_when_surely_broken():
    moved = SCENE.replace('cx="340" cy="60"', 'cx="60" cy="60"').replace(
        'points="60,160 120,110 180,160"', 'points="60,330 120,280 180,330"')
    score = _score(moved, FREE[:3])
    assert [d.verdict for d in score.details] == ["unchecked", "fail", "fail"]


@pytest.mark.parametrize("body", [
    '<circle cx="5000" cy="5000" r="40" fill="red"/>',  # off the canvas
    '<circle cx="200" cy="200" r="40" fill="red" opacity="0"/>',
    '<circle cx="200" cy="200" r="40" fill="red" fill-opacity="0.05"/>',
    '<circle cx="200" cy="200" r="40" fill="red"/><rect width="400" height="400" fill="#ccc"/>',
    '<circle cx="200" cy="200" r="0.5" fill="red"/>',  # a dot, not a circle anyone sees
])
def test_shapes_the_render_does_not_show_do_not_count(body):
    score = _score('<rect width="400" height="400" fill="white"/>' + body,
                   ["Include a red circle", "Red must be used"])
    assert [d.verdict for d in score.details] == ["fail", "fail"], score.details


def test_a_huge_viewbox_hides_everything():
    score = _score('<circle cx="200" cy="200" r="40" fill="red"/>', ["Include a red circle"],
                   view="0 0 1e30 1e30")
    assert score.details[0].verdict == "fail" and score.components["non_blank"] == 0.0


def test_atom_kinds_describe_themselves():
    for atom in (Shown((color_spec("red"),), "top_left"), Background(color_spec("navy")),
                 Text("Hi", color_spec("white"), ("bottom",)), NoText(),
                 Count("circle", None, ">=", 2),
                 Relative(color_spec("red"), "above", color_spec("blue"))):
        assert atom.describe()


@pytest.mark.parametrize("sentence", [
    "The text should have a 'rustic' feel",  # a manner, not words to draw
    "A dog named 'Rex' wags its tail",  # a name, not a label
    "The hat can be a red cap or a blue beanie",  # a choice between things
    "An orange carrot nose points to the right",  # a direction, not a place on the canvas
])
def test_what_is_not_a_requirement_to_draw_gives_no_such_atom(sentence):
    atoms = read_requirement(sentence).atoms
    assert not any(isinstance(a, Text) for a in atoms)
    assert not any(isinstance(a, Shown) and a.region for a in atoms)
    assert not (len(atoms) >= 2 and all(isinstance(a, Shown) for a in atoms))


def test_the_lightest_greys_are_light_grey():
    assert color_spec("light grey").matches((243, 244, 246))  # a page's very light grey
    assert not color_spec("light grey").matches((224, 240, 255))  # pale blue is not


def test_a_ring_is_a_circle_of_its_strokes_colour():
    ring = '<circle cx="200" cy="200" r="150" fill="#ffffff" stroke="#d90429" stroke-width="22"/>'
    score = _score(ring, ["In the upper part of the sign is a red circle with a red diagonal bar"])
    assert score.details[0].verdict == "unchecked", score.details[0].detail


def test_everyday_colour_names():
    assert color_spec("violet").matches((0x8E, 0x24, 0xAA))  # a rainbow's violet band
    assert color_spec("lavender").matches((230, 230, 250))  # CSS lavender itself still is
    donut = '<circle cx="200" cy="200" r="150" fill="#d9a066"/>'
    assert _score(donut, ["The baked dough ring is golden brown"]).details[0].verdict \
        == "unchecked"  # a blend of two colour words is never called absent


def test_a_line_of_text_is_not_a_stroke():
    kinds = [type(a).__name__ for a in read_requirement(
        "Above the result, a smaller grey line shows the expression '1,070 + 214'").atoms]
    assert "Stroke" not in kinds and "Text" in kinds


def test_a_text_another_is_placed_by_is_presumed():
    rule = ["The distance '2 km' is shown beneath the word 'Hospital'"]
    misspelt = ('<text x="200" y="150" font-size="30" fill="#000">Hospitol</text>'
                '<text x="200" y="200" font-size="20" fill="#000">2 km</text>')
    assert _score(misspelt, rule).details[0].verdict == "unchecked"  # 'Hospital' is another's
    above = ('<text x="200" y="150" font-size="20" fill="#000">2 km</text>'
             '<text x="200" y="200" font-size="30" fill="#000">Hospital</text>')
    assert _score(above, rule).details[0].verdict == "fail"
