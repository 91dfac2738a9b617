"""Readings the blind set v14 found wrong: a shape named as a thing's outline ("the flag is
a rectangle") is not a count of that primitive, and a thing set on another drawn thing
("the pot rests on a table") is a part of the scene, not the canvas (rough raster, no
browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize

NS = 'xmlns="http://www.w3.org/2000/svg"'


def _details(svg: str, requirements: list[str]):
    facts = svg_facts(parse_svg(svg))
    return score_svg(facts, rasterize(facts), requirements).details


def _verdicts(svg: str, requirements: list[str]) -> list[str]:
    return [d.verdict for d in _details(svg, requirements)]


def _flag(width: int, height: int) -> str:
    """A saltire flag that fills its canvas, drawn as four triangles: no ``<rect>``."""
    cx, cy = width // 2, height // 2
    return (f'<svg {NS} viewBox="0 0 {width} {height}">'
            f'<polygon points="0,0 {width},0 {cx},{cy}" fill="#1b7a3e"/>'
            f'<polygon points="0,{height} {width},{height} {cx},{cy}" fill="#1b7a3e"/>'
            f'<polygon points="0,0 0,{height} {cx},{cy}" fill="#1b2a5e"/>'
            f'<polygon points="{width},0 {width},{height} {cx},{cy}" fill="#1b2a5e"/></svg>')


def test_a_thing_said_to_be_a_rectangle_is_its_outline_not_a_rect_element():
    requirement = "The flag is a rectangle, wider than it is tall, in roughly a 3:2 ratio"
    (detail,) = _details(_flag(300, 200), [requirement])
    assert detail.verdict != "fail"
    assert [a.verdict for a in detail.atoms] == [True, True]  # its proportions, no count
    assert _verdicts(_flag(300, 200), ["Include a rectangle"]) == ["fail"]  # a shape asked for


POT_LIST = ["The background is a plain cream wall",
            "The pot is shallow and rectangular, much wider than it is tall",
            "The pot has a deep blue glaze",
            "The pot rests on a brown wooden table along the bottom of the picture",
            "A small tree grows from the pot"]


def _pot_scene(pot_width: int, pot_height: int) -> str:
    return (f'<svg {NS} viewBox="0 0 400 400"><rect width="400" height="400" fill="#f4efe3"/>'
            f'<rect y="330" width="400" height="70" fill="#8b5a2b"/>'
            f'<rect x="{200 - pot_width // 2}" y="{330 - pot_height}" width="{pot_width}" '
            f'height="{pot_height}" fill="#1f3f8f"/>'
            f'<rect x="195" y="150" width="10" height="{180 - pot_height}" fill="#6b4423"/>'
            f'<circle cx="200" cy="140" r="50" fill="#2f5d34"/></svg>')


def test_a_thing_resting_on_another_is_not_the_canvas():
    # the list talks mostly about the pot, but the pot stands on the table: the square
    # canvas's proportions say nothing of it
    assert _verdicts(_pot_scene(160, 40), POT_LIST)[1] != "fail"
