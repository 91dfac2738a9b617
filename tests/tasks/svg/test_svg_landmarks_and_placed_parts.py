"""Readings the blind set v25 found wrong or missing: a quoted word named as where
something else goes ("hexagons flank the word 'APIARY'") is not asked for by that
requirement; and like parts named by place that have their colours ("the lower bunk
should have a blue blanket and the upper bunk a yellow blanket") give the colours' order
(rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.atoms import Relative
from designrl.tasks.svg.marks import Text
from designrl.tasks.svg.reader import read_requirement


def test_a_word_that_places_other_things_is_not_asked_for_by_them():
    rule = "Two small white hexagon outlines should flank the word 'APIARY', one on each side"
    assert not any(isinstance(a, Text) for a in read_requirement(rule).atoms)
    hexagons = "".join(f'<polygon points="{x},190 {x + 10},184 {x + 20},190 {x + 20},202 '
                       f'{x + 10},208 {x},202" fill="none" stroke="#ffffff" stroke-width="3"/>'
                       for x in (90, 290))
    misspelt = ('<rect width="400" height="400" fill="#5b3a1a"/>' + hexagons +
                '<text x="200" y="204" fill="#f4c542" font-size="28" text-anchor="middle">APAIRY</text>')
    assert rough_verdicts(misspelt, [rule]) != ["fail"]
    # a word asked for is still asked for, and a place between two quotes is still an order
    assert Text("HONEY") in read_requirement("The word 'HONEY' is above the bee").atoms
    assert read_requirement("'Accept' is to the right of 'Reject'").complete


def test_parts_named_by_place_that_have_their_colours_give_their_order():
    rule = "The lower bunk should have a blue blanket and the upper bunk a yellow blanket"
    assert any(isinstance(a, Relative) for a in read_requirement(rule).atoms)
    bunks = ('<rect x="60" y="{}" width="280" height="40" fill="#2f5fd0"/>'
             '<rect x="60" y="{}" width="280" height="40" fill="#f2c300"/>')
    assert rough_verdicts(bunks.format(260, 120), [rule]) != ["fail"]
    assert rough_verdicts(bunks.format(120, 260), [rule]) == ["fail"]  # the blankets swapped
