"""Readings the blind set v24 found missing or wrong: figures a sentence names as written
("the numbers 12, 7 and 30", "numbered 1 to 6 from left to right") are texts to draw, in
the order given; and a clause "with a dark blue background" after a sentence about a part
("the 'B' button should be pressed, ...") gives the part's background, not the canvas's
(rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.atoms import Background
from designrl.tasks.svg.marks import Text, TextOrder
from designrl.tasks.svg.reader import read_requirement
from designrl.tasks.svg.texts import quote_numerals


def _boxes(numbers: list[int]) -> str:
    return "".join(f'<rect x="{20 + 72 * i}" y="170" width="60" height="60" fill="#dde"/>'
                   f'<text x="{50 + 72 * i}" y="206" font-size="22" text-anchor="middle">{n}</text>'
                   for i, n in enumerate(numbers))


def test_figures_named_as_written_are_texts_in_their_order():
    rule = "The boxes should contain the numbers 12, 7, 30, 5 and 18, in that order from left to right"
    atoms = read_requirement(rule).atoms
    assert Text("12") in atoms and Text("18") in atoms
    assert TextOrder(("12", "7", "30", "5", "18"), "x") in atoms
    assert rough_verdicts(_boxes([12, 7, 30, 5, 18]), [rule]) != ["fail"]
    assert rough_verdicts(_boxes([18, 5, 30, 7, 12]), [rule]) == ["fail"]
    numbered = read_requirement("The bays should be numbered 1 to 6 from left to right").atoms
    assert TextOrder(("1", "6"), "x") in numbered


def test_counts_measures_and_plain_numbers_stay_unquoted():
    for sentence in ("the number 3 buses", "the number of cats is 4", "a 3:2 ratio",
                     "exactly 5 circles", "800 by 600 pixels"):
        assert quote_numerals(sentence) == sentence


def test_a_with_clause_after_a_part_gives_the_parts_background():
    rule = "The 'B' button should be in the pressed state, with a dark blue background"
    assert not any(isinstance(a, Background) for a in read_requirement(rule).atoms)
    pressed = ('<rect width="400" height="400" fill="#ffffff"/>'
               '<rect x="40" y="40" width="60" height="60" fill="#1a3a8a"/>'
               '<text x="70" y="80" fill="#ffffff" font-size="30" text-anchor="middle">B</text>')
    assert rough_verdicts(pressed, [rule]) != ["fail"]
    # the drawing's own background, given the same way, is still the canvas's
    scene = read_requirement("A cartoon cat sits on a rug, with a pale yellow background").atoms
    assert any(isinstance(a, Background) for a in scene)
