"""Readings the blind sets v27 and v28 found wrong or missing: stars "on each side of the
word 'OUTFITTERS'" are placed by the word, which that sentence does not ask for; and of
two texts, one said to lead ("stacked vertically, with 'App server 1' on top") gives
their order (rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.marks import Text, TextOrder
from designrl.tasks.svg.reader import read_requirement


def _box(y: int, words: str) -> str:
    return (f'<rect x="120" y="{y}" width="160" height="50" fill="#3cb371"/>'
            f'<text x="200" y="{y + 31}" font-size="16" text-anchor="middle">{words}</text>')


def test_a_word_with_things_on_each_side_of_it_only_places_them():
    rule = "A small cream star should sit on each side of the word 'OUTFITTERS'"
    assert not any(isinstance(a, Text) for a in read_requirement(rule).atoms)
    stars = ('<rect width="400" height="400" fill="#1f3b2d"/>'
             '<circle cx="60" cy="200" r="8" fill="#fff6d5"/><circle cx="340" cy="200" r="8" fill="#fff6d5"/>'
             '<text x="200" y="206" fill="#fff6d5" font-size="24" text-anchor="middle">OUTFITERS</text>')
    assert rough_verdicts(stars, [rule]) != ["fail"]


def test_one_of_two_texts_said_to_lead_gives_their_order():
    rule = ("Two green boxes labelled 'App server 1' and 'App server 2' are stacked vertically "
            "in the middle, with 'App server 1' on top.")
    assert TextOrder(("App server 1", "App server 2"), "y") in read_requirement(rule).atoms
    assert rough_verdicts(_box(120, "App server 1") + _box(230, "App server 2"), [rule]) != ["fail"]
    assert rough_verdicts(_box(120, "App server 2") + _box(230, "App server 1"), [rule]) == ["fail"]
    sides = read_requirement("Two buttons 'Yes' and 'No', with 'No' on the left").atoms
    assert TextOrder(("No", "Yes"), "x") in sides
