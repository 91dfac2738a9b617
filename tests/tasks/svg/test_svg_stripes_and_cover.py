"""Stripes of two named colours and a colour covering a stated part of the canvas: what a
drawing that only lays the named colours out as blocks lacks (rough raster, no browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement

NS = 'xmlns="http://www.w3.org/2000/svg"'
STRIPED = "A red and white striped lighthouse stands in the middle of the image"
COVERS = "The sea should be dark blue and cover the bottom half of the canvas"


def _atom(body: str, requirement: str, describes: str):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 300 300">'
                                f'<rect width="300" height="300" fill="#101010"/>{body}</svg>'))
    (detail,) = score_svg(facts, rasterize(facts), [requirement]).details
    (atom,) = [a for a in detail.atoms if describes in a.check]
    return detail.verdict, atom


def _tower(bands: int) -> str:
    """A tower of ``bands`` alternating red and white bands, red first."""
    return "".join(f'<rect x="130" y="{60 + 30 * i}" width="40" height="30" '
                   f'fill="{"#d62828" if i % 2 == 0 else "#ffffff"}"/>' for i in range(bands))


def test_two_colours_called_stripes_are_read_as_stripes():
    assert [a.describe() for a in read_requirement(STRIPED).atoms][0] == "red and white stripes"
    assert "red and white stripes" in [
        a.describe() for a in read_requirement("A striped red-and-white tent stands left").atoms]
    listed = "A barber pole with red, white and blue diagonal stripes stands in the centre"
    assert not any("stripes" in a.describe() for a in read_requirement(listed).atoms)


def test_stripes_pass_when_the_colours_take_turns_and_fail_as_two_blocks():
    verdict, atom = _atom(_tower(5), STRIPED, "stripes")
    assert atom.verdict is True and verdict == "unchecked"  # "lighthouse" is not read
    blocks = ('<rect x="100" y="100" width="50" height="100" fill="#d62828"/>'
              '<rect x="150" y="100" width="50" height="100" fill="#ffffff"/>')
    verdict, atom = _atom(blocks, STRIPED, "stripes")
    assert atom.verdict is False and verdict == "fail"
    verdict, atom = _atom(_tower(3), STRIPED, "stripes")  # red, white, red: a band, perhaps
    assert atom.verdict is None


def test_a_thin_outline_between_stripes_does_not_break_them():
    outlined = _tower(5) + "".join(f'<line x1="130" x2="170" y1="{90 + 30 * i}" y2="{90 + 30 * i}" '
                                   f'stroke="#000000" stroke-width="2"/>' for i in range(4))
    assert _atom(outlined, STRIPED, "stripes")[1].verdict is True


def test_a_colour_covering_a_part_counts_and_a_strip_of_it_leans_down():
    sea = '<rect y="150" width="300" height="150" fill="#0a2a6b"/>'
    verdict, atom = _atom(sea, COVERS, "fills the part")
    assert atom.verdict is True and verdict == "unchecked"
    strip = '<rect y="270" width="300" height="30" fill="#0a2a6b"/>'
    verdict, atom = _atom(strip, COVERS, "fills the part")
    assert atom.verdict is None and atom.lean == 1.0 and verdict == "unchecked"
    assert not any("fills the part" in a.describe() for a in read_requirement(
        "A big navy front pocket covers the lower half of the bag.").atoms)
