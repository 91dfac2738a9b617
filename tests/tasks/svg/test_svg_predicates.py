"""Predicate verdicts on hand-written SVGs, and the geometry and colours they rest on."""

from __future__ import annotations

import pytest

from designrl.tasks.svg.colour_names import color_spec, colour_families, parse_color
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.page import content_box
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.predicates import Scene
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.requirements import parse_requirement

NS = 'xmlns="http://www.w3.org/2000/svg"'


def scene_of(body: str, attrs: str = 'viewBox="0 0 200 200"') -> Scene:
    facts = svg_facts(parse_svg(f"<svg {NS} {attrs}>{body}</svg>"))
    return Scene(facts, rasterize(facts), content_box(facts))


def verdict(body: str, requirement: str, attrs: str = 'viewBox="0 0 200 200"') -> bool:
    predicate = parse_requirement(requirement)
    assert predicate is not None, requirement
    passed, _ = predicate.check(scene_of(body, attrs))
    return passed


SCENE = """
  <style>.sun { fill: gold } #sea { fill: #1e3a8a }</style>
  <defs>
    <linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1"
      style="stop-color: blue"/></linearGradient>
    <polygon id="star" points="0,-10 2.9,-4 9.5,-3.1 4.8,1.5 5.9,8.1 0,5 -5.9,8.1 -4.8,1.5
      -9.5,-3.1 -2.9,-4"/>
  </defs>
  <rect width="200" height="200" fill="#87ceeb"/>
  <circle class="sun" cx="170" cy="30" r="20"/>
  <rect id="sea" y="150" width="200" height="50"/>
  <g transform="translate(20 20) scale(2)"><rect width="10" height="10" fill="url(#g)"/></g>
  <polygon points="60,140 80,100 100,140" style="fill: white; stroke: black"/>
  <path d="m110 100 h20 v20 h-20 z" fill="rgb(255, 128, 0)"/>
  <path d="M20 120 a10 10 0 1 0 20 0 a10 10 0 1 0 -20 0" fill="hsl(120, 100%, 25%)"/>
  <g fill="yellow"><use href="#star" x="100" y="40"/><use href="#star" x="130" y="60"/></g>
  <line x1="0" y1="145" x2="200" y2="145" stroke="#333" stroke-width="2"/>
  <text x="100" y="185" font-size="16" text-anchor="middle" fill="white">Hello
    <tspan>World</tspan></text>
  <circle cx="10" cy="10" r="5" fill="red" opacity="0"/>
  <circle cx="10" cy="10" r="5" fill="red" style="display: none"/>
  <ellipse cx="150" cy="120" rx="8" ry="8" fill="none" stroke="purple" stroke-width="2"/>
"""


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        ("The background must be sky blue", True),
        ("The background must be white", False),
        ("Include a gold circle", True),  # <style> class rule
        ("The sun must be yellow", None),
        ("Include a yellow circle", True),
        ("Include a dark blue rectangle", True),  # <style> id rule
        ("Use red and blue", True),  # gradient stops
        ("Include exactly 2 squares", True),  # gradient rect (scaled) and the orange path
        ("Include an orange square", True),  # relative path commands
        ("Include a white triangle", True),
        ("The triangle has a black outline", True),
        ("Include exactly 2 stars", True),  # <use> of a polygon, fill inherited from <g>
        ("All stars must be yellow", True),
        ("Include a dark green circle", True),  # arcs drawing a circle; hsl()
        ("Include exactly 3 circles", True),  # sun, arc path, round ellipse; hidden ones skipped
        ("Include a purple circle", True),  # unfilled: its stroke colour counts
        ("Include exactly 1 line", True),
        ("There must be no red circles", True),  # opacity 0 and display none draw nothing
        ("Contains the text 'hello world'", True),
        ("The text 'Hello World' is in the bottom half", True),
        ("The text 'Hello World' is inside the dark blue rectangle", True),
        ("The gold circle is in the top right corner", True),
        ("The gold circle is in the top left corner", False),
        ("The gold circle is above the dark blue rectangle", True),
        ("The gold circle is below the dark blue rectangle", False),
        ("The orange square is to the right of the white triangle", True),
        ("The white triangle is to the right of the orange square", False),
        ("There must be no rectangles", False),
        ("Include at most 4 rectangles", True),  # the sky is background, not a rectangle
        ("The canvas must be 200x200", True),
        ("The canvas must be 400x300", False),
    ],
)
def test_predicate_verdicts_on_a_scene(requirement, expected):
    predicate = parse_requirement(requirement)
    if expected is None:
        assert predicate is None
        return
    assert predicate is not None, requirement
    passed, detail = predicate.check(scene_of(SCENE))
    assert passed is expected, detail


def test_transforms_move_shapes():
    body = ('<rect x="0" y="90" width="20" height="20" fill="blue"/>'
            '<g transform="translate(100,0)"><circle cx="10" cy="100" r="5" fill="red"/></g>')
    assert verdict(body, "The red circle is to the right of the blue square")
    body = '<g transform="rotate(180 100 100)"><circle cx="20" cy="20" r="5" fill="red"/></g>'
    assert verdict(body, "The red circle is in the bottom right corner")
    body = '<g transform="matrix(1 0 0 1 150 150)"><circle r="5" fill="red"/></g>'
    assert verdict(body, "The red circle is in the bottom right corner")


def test_non_uniform_scale_turns_a_circle_into_an_ellipse():
    body = '<circle cx="50" cy="50" r="20" fill="red" transform="scale(2 1)"/>'
    assert verdict(body, "Include exactly 1 ellipse")
    assert verdict(body, "There must be no circles")


def test_background_is_read_from_pixels_even_without_a_rect():
    assert verdict('<circle cx="100" cy="100" r="20" fill="red"/>',
                   "The background must be white")  # transparent SVG on the white page
    body = '<rect x="-10" y="-10" width="220" height="220" fill="navy"/><circle r="5"/>'
    assert verdict(body, "The background must be dark blue")


def test_background_ignores_letterboxing_of_a_wide_canvas():
    body = '<rect width="400" height="100" fill="black"/><circle cx="200" cy="50" r="20" fill="red"/>'
    assert verdict(body, "The background must be black", attrs='viewBox="0 0 400 100"')


def test_size_without_viewbox_comes_from_width_and_height():
    body = '<circle cx="280" cy="20" r="10" fill="red"/>'
    attrs = 'width="300" height="200"'
    assert verdict(body, "The canvas must be 300x200", attrs)
    assert verdict(body, "The red circle is in the top right corner", attrs)


def test_unnamespaced_svg_is_accepted():
    facts = svg_facts(parse_svg('<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="2"/></svg>'))
    assert [s.tag for s in facts.shapes] == ["circle"]


@pytest.mark.parametrize(
    ("value", "rgb", "alpha"),
    [("red", (255, 0, 0), 1.0), ("#f80", (255, 136, 0), 1.0), ("#ff000080", (255, 0, 0), 128 / 255),
     ("rgb(100%, 50%, 0%)", (255, 128, 0), 1.0), ("rgba(0, 0, 255, 0.5)", (0, 0, 255), 0.5),
     ("hsl(120, 100%, 25%)", (0, 128, 0), 1.0), ("  RebeccaPurple ", (102, 51, 153), 1.0)],
)
def test_parse_color(value, rgb, alpha):
    color = parse_color(value)
    assert color.rgb == rgb and color.alpha == pytest.approx(alpha)


@pytest.mark.parametrize("value", ["none", "transparent", "url(#g)", "#12", "rgb(1,2)", "blurple"])
def test_parse_color_rejects(value):
    assert parse_color(value) is None


@pytest.mark.parametrize(
    ("phrase", "rgb", "expected"),
    [("red", (220, 20, 60), True), ("red", (255, 165, 0), False), ("orange", (255, 140, 0), True),
     ("light blue", (173, 216, 230), True), ("light blue", (0, 0, 139), False),
     ("dark blue", (0, 0, 128), True), ("navy", (0, 0, 255), False), ("gold", (255, 255, 0), True),
     ("gray", (128, 128, 128), True), ("white", (250, 250, 250), True),
     ("black", (30, 30, 30), True), ("brown", (139, 69, 19), True), ("pink", (255, 105, 180), True),
     ("purple", (128, 0, 128), True), ("green", (0, 100, 0), True), ("sky blue", (135, 206, 235), True),
     ("#ff8800", (250, 130, 10), True), ("#ff8800", (0, 0, 255), False)],
)
def test_color_spec_matching(phrase, rgb, expected):
    assert color_spec(phrase).matches(rgb) is expected, sorted(colour_families(rgb))
