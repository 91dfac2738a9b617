"""A reading the blind set v16 found wrong: the thing a list is mostly about, taken as the
canvas, may be one part of a scene, so its proportions are not the canvas's ("the
waterfall is taller than it is wide" in a landscape jungle scene; rough raster, no
browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.marks import Proportion
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirements

NS = 'xmlns="http://www.w3.org/2000/svg"'
SCENE = ["A tall waterfall pours from the top of a cliff in the middle of the picture",
         "The pool at the foot of the waterfall is turquoise",
         "A rainbow appears on the right side of the waterfall",
         "The waterfall is clearly taller than it is wide",
         "The sky above the cliff is light blue"]


def _scene(width: int, height: int) -> str:
    """A landscape jungle scene, its waterfall ``width`` × ``height`` in the middle."""
    return (f'<svg {NS} viewBox="0 0 400 300"><rect width="400" height="300" fill="#bfe6f7"/>'
            '<rect y="150" width="400" height="150" fill="#5f9a56"/>'
            f'<rect x="{200 - width // 2}" y="{250 - height}" width="{width}" '
            f'height="{height}" fill="#d6eef8"/>'
            '<ellipse cx="200" cy="264" rx="150" ry="30" fill="#2ec4c0"/></svg>')


def _verdict(svg: str) -> str:
    facts = svg_facts(parse_svg(svg))
    return score_svg(facts, rasterize(facts), SCENE).details[3].verdict


def test_the_subjects_proportions_are_read_as_a_parts():
    assert read_requirements(SCENE)[3].atoms == (Proportion(0.5, part=True),)
    # a sentence about the drawing itself stays the canvas's
    flag = read_requirements(["The flag should be wider than it is tall",
                              "The flag has a red stripe at the top of the flag"])[0]
    assert flag.atoms == (Proportion(2.0),)


def test_a_tall_part_of_a_wide_scene_is_not_failed_and_a_squat_one_is():
    assert _verdict(_scene(50, 186)) == "unchecked"  # 8 % of the canvas, tall
    assert _verdict(_scene(120, 60)) == "fail"  # no shape of 4 % or more is tall
