"""Readings the blind set v26 found missing: of two labels set on like parts named by
opposite places ("the label 'June' beside the left Earth and 'December' beside the right
Earth") the second is written like the first, so their order is read; and two parts named
by their labels, the second's verb left out ("the 'Locked' state should be light red and
the 'Unlocked' state light green"), each have their colour (rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.marks import Backing, TextOrder
from designrl.tasks.svg.reader import read_requirement


def _label(x: int, y: int, words: str) -> str:
    return f'<text x="{x}" y="{y}" font-size="18" text-anchor="middle">{words}</text>'


def test_the_second_of_two_labels_on_opposite_parts_is_written_and_ordered():
    rule = "The label 'June' should be beside the left Earth and 'December' beside the right Earth"
    assert TextOrder(("June", "December"), "x") in read_requirement(rule).atoms
    earths = '<circle cx="80" cy="200" r="20" fill="#2a6fdb"/><circle cx="320" cy="200" r="20" fill="#2a6fdb"/>'
    assert rough_verdicts(earths + _label(80, 250, "June") + _label(320, 250, "December"), [rule]) != ["fail"]
    assert rough_verdicts(earths + _label(80, 250, "December") + _label(320, 250, "June"), [rule]) == ["fail"]
    # a name stays a name
    assert not read_requirement("A dog named 'Rex' sits by the left door and 'Max' by the right door").atoms


def test_two_parts_named_by_their_labels_each_have_their_colour():
    rule = "The 'Locked' state should be filled light red and the 'Unlocked' state light green"
    atoms = read_requirement(rule).atoms
    assert {a.words for a in atoms if isinstance(a, Backing)} == {"Locked", "Unlocked"}
    states = ('<rect x="40" y="160" width="140" height="80" rx="40" fill="{}"/>'
              '<rect x="220" y="160" width="140" height="80" rx="40" fill="{}"/>'
              + _label(110, 206, "Locked") + _label(290, 206, "Unlocked"))
    assert rough_verdicts(states.format("#f4a6a6", "#a8e6a1"), [rule]) != ["fail"]
    assert rough_verdicts(states.format("#a8e6a1", "#f4a6a6"), [rule]) == ["fail"]  # swapped
    # unlike parts, or more than a colour, are left as they were read
    assert not any(isinstance(a, Backing) for a in
                   read_requirement("The 'Yes' arrow should be green and the 'No' box red").atoms)
