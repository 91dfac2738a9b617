"""Colours one requirement gives an object, lent to the sentences that place it: read, and
decided on drawings (rough raster, no browser); a missing colour is never this sentence's
failure."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import Background, Backing, Lent, Pieces, Relative, Shown, Text
from designrl.tasks.svg.binding import (
    as_canvas,
    lend_colors,
    list_labels,
    object_colors,
    quote_labels,
    subject_nouns,
)
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement, read_requirements
from designrl.tasks.svg.words import COLOR_RE, FUNCTION_WORDS

NS = 'xmlns="http://www.w3.org/2000/svg"'
FARM = ["The barn must be painted red, with white trim around its door",
        "A bright yellow sun shines over the farm",
        "A green street-name sign hangs on the pole",
        "A red octagonal stop sign sits on the pole",
        "The barn should stand on the left side of the canvas",
        "The sun should be in the upper-right part of the sky",
        "The street-name sign should be above the stop sign",
        "The barn door should be open",
        "The cow's hooves must be brown"]


def _object_colors(sentences):
    return object_colors(sentences, COLOR_RE, FUNCTION_WORDS)


def test_objects_take_the_one_colour_the_list_gives_them():
    colors = _object_colors(FARM)
    assert colors["barn"] == "red" and colors["sun"] == "bright yellow"
    assert colors["stop sign"] == "red" and colors["street-name sign"] == "green"
    assert "sign" not in colors  # red in one sentence, green in another
    assert "pole" not in colors and "trim" not in colors


def test_a_colour_is_lent_only_to_bare_mentions_of_its_object():
    colors = _object_colors(FARM)

    def lend(sentence):
        return lend_colors(sentence, colors, COLOR_RE, FUNCTION_WORDS)

    assert lend(FARM[4]) == "The red barn should stand on the left side of the canvas"
    assert lend(FARM[6]) == "The green street-name sign should be above the red stop sign"
    assert lend(FARM[7]) == FARM[7]  # the door is not red
    assert lend("The barn must be blue") == "The barn must be blue"  # names its own colour
    assert lend("The barn's roof is tall") == "The barn's roof is tall"


def test_lent_atoms_place_and_never_complete():
    readings = read_requirements(FARM)
    placed = readings[4]
    assert not placed.complete
    assert any(isinstance(a, Lent) and isinstance(a.atom, Shown) and a.atom.region == "left"
               for a in placed.atoms)
    assert any(isinstance(a, Lent) and isinstance(a.atom, Relative) for a in readings[6].atoms)
    assert not any(isinstance(a, Lent) for a in readings[7].atoms)
    assert readings[1].atoms == read_requirement(FARM[1]).atoms  # read as written


def _verdicts(body: str, requirements):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 300">'
                                f'<rect width="400" height="300" fill="#aee0f7"/>{body}</svg>'))
    return [d.verdict for d in score_svg(facts, rasterize(facts), requirements).details]


BARN_LEFT = '<rect x="30" y="150" width="100" height="120" fill="#c0392b"/>'
SUN_RIGHT = '<circle cx="340" cy="50" r="30" fill="#ffe135"/>'


def test_a_moved_object_fails_and_a_recoloured_one_is_left_to_its_own_sentence():
    rules = [FARM[0], FARM[1], FARM[4], FARM[5]]
    assert _verdicts(BARN_LEFT + SUN_RIGHT, rules)[2:] == ["unchecked", "unchecked"]
    moved = BARN_LEFT.replace('x="30"', 'x="290"') + SUN_RIGHT.replace('cx="340"', 'cx="50"')
    assert _verdicts(moved, rules)[2:] == ["fail", "fail"]
    recoloured = BARN_LEFT.replace("#c0392b", "#7f8c8d") + SUN_RIGHT
    assert _verdicts(recoloured, rules)[:3] == ["fail", "unchecked", "unchecked"]


def test_a_tiles_background_is_not_the_canvas_and_the_icon_is_the_canvas():
    tile = read_requirement("The icon should sit on a rounded tile with a light blue background")
    assert not any(isinstance(a, Background) for a in tile.atoms)
    assert any(isinstance(a, Background) for a in
               read_requirement("The badge should sit on a light blue background").atoms)
    corner = read_requirement("A yellow sun sits in the upper-left part of the icon")
    assert Shown(corner.atoms[0].colors, "top_left") in corner.atoms


TANK = ["The water inside the tank should be light blue",
        "Include exactly four fish swimming in the tank",
        "Green seaweed should grow on the left side of the tank",
        "The bottom of the tank should be covered with beige sand",
        "A yellow sun peeks out", "The sun should be in the upper part of the sky",
        "The rays should be thin around the sun"]


def test_the_thing_the_list_is_about_is_the_canvas_but_a_coloured_part_is_not():
    subjects = subject_nouns(TANK, FUNCTION_WORDS, _object_colors(TANK))
    assert subjects == {"tank"}  # "the sun" is as frequent, but the list colours it
    assert as_canvas(TANK[2], subjects).endswith("on the left side of the canvas")
    assert as_canvas("A logo at the left end of the tank lid", subjects).endswith("tank lid")
    assert as_canvas("The tank should be wider than it is tall", subjects) == \
        "The canvas should be wider than it is tall"


def test_a_colour_shown_clearly_but_not_in_its_region_fails():
    seaweed = '<rect x="{x}" y="150" width="30" height="140" fill="#2e8b3a"/>'
    verdicts = _verdicts(seaweed.format(x=30), TANK[:3])
    assert verdicts[2] == "unchecked"
    assert _verdicts(seaweed.format(x=350), TANK[:3])[2] == "fail"


def test_a_colour_inside_another_fails_only_when_wholly_outside_it():
    rule = "A gold star must sit in the centre of the white stripe"
    assert Relative(color_spec("gold"), "inside", color_spec("white")) in \
        read_requirement(rule).atoms
    stripe = '<rect y="100" width="400" height="100" fill="#ffffff"/>'
    star = '<circle cx="{x}" cy="{y}" r="15" fill="#ffc21a"/>'
    assert _verdicts(stripe + star.format(x=200, y=150), [rule]) == ["unchecked"]
    assert _verdicts(stripe + star.format(x=40, y=40), [rule]) == ["fail"]


def test_fewer_things_of_a_colour_than_counted_fails():
    rules = ["The candles should be light blue", "Include exactly five candles on the cake"]
    (pieces,) = [a for a in read_requirements(rules)[1].atoms if isinstance(a, Lent)]
    assert pieces.atom == Pieces(color_spec("light blue"), 5)
    candle = '<rect x="{x}" y="100" width="10" height="40" fill="#8fd3ff"/>'
    five = "".join(candle.format(x=100 + 30 * i) for i in range(5))
    four = "".join(candle.format(x=100 + 30 * i) for i in range(4))
    assert _verdicts(five, rules)[1] == "unchecked"
    assert _verdicts(four, rules)[1] == "fail"


def test_the_top_of_a_part_is_not_the_canvas_top():
    atoms = read_requirement("Five light blue candles stand on the top tier").atoms
    assert not any(isinstance(a, Shown) and a.region for a in atoms)


def test_a_thing_placed_beside_others_is_in_the_scene_not_the_frame():
    scene = ["The snowman should stand in the centre", "The snowman wears a hat",
             "A tree should stand to the left of the snowman", "The snowman is smiling"]
    assert subject_nouns(scene, FUNCTION_WORDS, _object_colors(scene)) == frozenset()


def test_centred_in_a_part_or_vertically_is_not_centred_on_the_canvas():
    for rule in ("A button labelled 'Go' with the text centred in the button",
                 "The title 'Menu' should be centred vertically"):
        assert not any(isinstance(a, Text) and a.regions for a in read_requirement(rule).atoms)


def test_higher_than_is_above():
    rule = "The yellow moon should be higher than the gray buildings"
    assert Relative(color_spec("yellow"), "above", color_spec("gray")) in \
        read_requirement(rule).atoms


def test_a_part_named_by_a_label_quoted_elsewhere_has_its_colour_there():
    rules = ["A button labelled 'Search' sits to the right of the field",
             "The Search button must be orange", "The text on the Search button must be white"]
    assert list_labels(rules) == ["Search"]
    assert quote_labels(rules[1], ["Search"]) == "The 'Search' button must be orange"
    readings = read_requirements(rules)
    assert Backing(color_spec("orange"), "Search") in readings[1].atoms
    assert not any(isinstance(a, Backing) for a in readings[2].atoms)  # the text's colour
    assert not any(isinstance(a, Backing) for a in  # a quoted name, not a labelled part
                   read_requirement("The 'Sun' should be yellow").atoms)
