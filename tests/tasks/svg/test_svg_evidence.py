"""Evidence the reader cannot turn into a verdict but scores a little: things counted by
their alike parts, a thing's usual colour where the sentence places it; and the label
checks that can fail: a part named by its quoted label, texts in a stated order. Each
case pairs a drawing that meets the sentence with one that breaks it (rough raster, no
browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize

NS = 'xmlns="http://www.w3.org/2000/svg"'
GROUND = '<rect width="400" height="400" fill="#cfe8f7"/><rect y="300" width="400" height="100" fill="#6aa84f"/>'


def _score(body: str, requirements, ground: str = GROUND):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400">{ground}{body}</svg>'))
    return score_svg(facts, rasterize(facts), requirements)


def _leaves(n: int, scale: float = 1.0) -> str:
    """``n`` leaves (an ellipse and a vein each), each its own colour and angle."""
    colors = ["#e67e22", "#c0392b", "#f1c40f", "#d35400", "#b03a2e", "#e74c3c"]
    return "".join(
        f'<g transform="translate({40 + 70 * i},{340 + 10 * (i % 2)}) rotate({25 * i - 40}) '
        f'scale({scale})"><ellipse rx="16" ry="8" fill="{colors[i]}"/>'
        f'<line x1="-16" y1="0" x2="16" y2="0" stroke="#7a3b10" stroke-width="2"/></g>'
        for i in range(n))


LEAVES = ["Exactly five fallen leaves lie scattered on the grass"]


def test_things_are_counted_by_their_alike_parts():
    five, four = _score(_leaves(5), LEAVES), _score(_leaves(4), LEAVES)
    assert [a.verdict for a in five.details[0].atoms] == [True], five.details[0].detail
    assert [a.verdict for a in four.details[0].atoms] == [None]
    # evidence, never a pass or a fail: five alike shapes may be something else
    assert five.details[0].verdict == four.details[0].verdict == "unchecked"
    assert five.total > four.total


def test_specks_are_not_things():
    specks = _score(_leaves(5, scale=0.05), LEAVES)
    assert [a.verdict for a in specks.details[0].atoms] == [None], specks.details[0].detail


def test_each_does_not_count_things():
    score = _score(_leaves(3), ["Each turbine should have three blades"])
    assert not any(a.check.endswith("alike things") for a in score.details[0].atoms)


SUN = ["The sun should appear in the top-right corner"]


def test_a_things_usual_colour_is_evidence_where_it_is_placed():
    right = _score('<circle cx="340" cy="60" r="30" fill="#ffd700"/>', SUN)
    left = _score('<circle cx="60" cy="60" r="30" fill="#ffd700"/>'
                  '<ellipse cx="330" cy="70" rx="40" ry="16" fill="#ffffff"/>', SUN)  # a cloud
    assert right.total > left.total
    assert right.details[0].verdict == left.details[0].verdict == "unchecked"


def test_a_red_sun_is_never_failed_on_its_usual_colour():
    red = _score('<circle cx="340" cy="60" r="30" fill="#e03020"/>'
                 '<rect x="20" y="320" width="40" height="40" fill="#ffd700"/>', SUN)
    assert red.details[0].verdict == "unchecked", red.details[0].detail


def _label(text: str, x: int, y: int) -> str:
    return f'<text x="{x}" y="{y}" font-size="20" text-anchor="middle" fill="#222">{text}</text>'


def test_a_part_named_by_its_label_is_where_its_label_is():
    lions = ["The 'Lions' enclosure is in the top-left part of the map"]
    box = '<rect x="{x}" y="40" width="120" height="80" rx="12" fill="#f4d58d"/>'
    top_left = _score(box.format(x=30) + _label("Lions", 90, 85), lions)
    top_right = _score(box.format(x=250) + _label("Lions", 310, 85), lions)
    assert top_left.details[0].verdict == "unchecked"
    assert top_right.details[0].verdict == "fail", top_right.details[0].detail


ORDER = ["The second-level boxes are labelled 'Sales', 'Engineering' and 'Finance', "
         "from left to right"]


def test_texts_in_the_order_a_sentence_gives():
    def boxes(*names):
        return "".join(_label(name, 70 + 130 * i, 200) for i, name in enumerate(names))

    ordered = _score(boxes("Sales", "Engineering", "Finance"), ORDER)
    swapped = _score(boxes("Engineering", "Sales", "Finance"), ORDER)
    twice = _score(boxes("Sales", "Engineering", "Finance", "Sales"), ORDER)
    assert [a.verdict for a in ordered.details[0].atoms] == [True, True, True, True]
    assert swapped.details[0].verdict == "fail", swapped.details[0].detail
    assert twice.details[0].verdict == "unchecked"  # which 'Sales' is meant is not known


def test_two_texts_around_a_relation():
    sentence = ["The 'Accept all' button is to the right of the 'Reject' button"]
    right = _score(_label("Reject", 100, 200) + _label("Accept all", 300, 200), sentence)
    left = _score(_label("Accept all", 100, 200) + _label("Reject", 300, 200), sentence)
    assert right.details[0].verdict == "unchecked"
    assert left.details[0].verdict == "fail", left.details[0].detail


STRIPES = ["The left stripe is forest green, the middle stripe is off-white, and the right "
           "stripe is crimson"]


def test_like_parts_named_by_place_keep_their_order():
    def flag(*fills):
        return "".join(f'<rect x="{20 + 120 * i}" y="80" width="120" height="240" fill="{f}"/>'
                       for i, f in enumerate(fills))

    right = _score(flag("#228b22", "#faf8ef", "#dc143c"), STRIPES, ground="")
    swapped = _score(flag("#dc143c", "#faf8ef", "#228b22"), STRIPES, ground="")
    assert right.details[0].verdict == "unchecked"
    assert swapped.details[0].verdict == "fail", swapped.details[0].detail


def test_ice_cream_is_not_a_colour():
    from designrl.tasks.svg.reader import read_requirement

    assert [a.describe() for a in read_requirement(
        "A drip of pink ice cream runs down the cone").atoms] == ["pink shown"]


def test_a_colour_left_only_as_a_sliver_is_weak_evidence():
    roof = ["The roofs of the towers are purple"]
    towers = '<rect x="{x}" y="200" width="60" height="100" fill="#9e9e9e"/>'
    purple = "".join(towers.format(x=x) + f'<polygon points="{x},200 {x + 30},130 {x + 60},200" '
                     'fill="#7b2cbf"/>' for x in (60, 280))
    recoloured = purple.replace("#7b2cbf", "#c0392b") + \
        '<rect x="190" y="100" width="24" height="16" fill="#7b2cbf"/>'  # a purple pennant
    full, sliver = _score(purple, roof), _score(recoloured, roof)
    assert full.details[0].verdict == sliver.details[0].verdict == "unchecked"
    assert [a.verdict for a in sliver.details[0].atoms] == [True]  # purple is shown, a little
    assert full.details[0].atoms[0].strength == 1.0 > sliver.details[0].atoms[0].strength
    assert full.total > sliver.total


def test_a_triangle_points_where_its_outline_narrows():
    play = ["The play button contains a white triangle pointing right"]
    right = '<polygon points="150,120 150,280 290,200" fill="#ffffff"/>'
    left = '<polygon points="290,120 290,280 150,200" fill="#ffffff"/>'
    disc = '<circle cx="210" cy="200" r="120" fill="#e91e63"/>'
    assert [a.verdict for a in _score(disc + right, play).details[0].atoms
            if a.check.endswith("pointing right")] == [True]
    flipped = _score(disc + left, play).details[0]
    assert flipped.verdict == "fail", flipped.detail  # the only white triangle points left


FISH = ["The goldfish faces to the left, with its tail fin on the right side of its body"]


def _fish(mirror: bool) -> str:
    fish = ('<ellipse cx="200" cy="200" rx="70" ry="40" fill="#f39c12"/>'
            '<polygon points="265,200 320,160 320,240" fill="#e67e22"/>'
            '<circle cx="160" cy="190" r="6" fill="#111111"/>')
    return f'<g transform="translate(400 0) scale(-1 1)">{fish}</g>' if mirror else fish


def test_a_figure_faces_the_way_its_eye_sits():
    left, right = _score(_fish(False), FISH), _score(_fish(True), FISH)
    facing = [[a.verdict for a in s.details[0].atoms if a.check == "facing left"]
              for s in (left, right)]
    assert facing == [[True], [None]]  # evidence only: a mirrored fish is not failed
    assert left.total > right.total


def test_all_the_same_size_when_the_repeated_shapes_are_alike():
    rule = ["All of the dots are the same size"]
    dots = "".join(f'<circle cx="{60 + 70 * i}" cy="200" r="20" fill="#e74c3c"/>' for i in range(5))
    bigger = dots.replace('cx="200" cy="200" r="20"', 'cx="200" cy="200" r="34"')
    same, one_bigger = _score(dots, rule), _score(bigger, rule)
    assert [a.verdict for a in same.details[0].atoms] == [True]
    assert [a.verdict for a in one_bigger.details[0].atoms] == [None]
    assert same.total > one_bigger.total
