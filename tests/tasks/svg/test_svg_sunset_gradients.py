"""A reading the blind set v29 found wrong: a sky fading from deep purple through mauve to
orange was taken for a rainbow (its three colours name five families between them), so
nothing drawn on it could show a colour, and the moon on it was "missing". A rainbow
still claims no colour (rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.visibility import void_boxes

SKY = ('<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">{}</linearGradient></defs>'
       '<rect width="400" height="260" fill="url(#sky)"/>'
       '<rect y="260" width="400" height="140" fill="#4f7a35"/>'
       '<circle cx="330" cy="60" r="24" fill="#f7efb8"/>')
SUNSET = ('<stop offset="0" stop-color="#3f2f66"/><stop offset="0.55" stop-color="#9a4f7a"/>'
          '<stop offset="1" stop-color="#f39a4c"/>')
RAINBOW = "".join(f'<stop offset="{i / 6:.2f}" stop-color="{c}"/>' for i, c in enumerate(
    ("#e6194b", "#f58231", "#ffe119", "#3cb44b", "#4363d8", "#911eb4", "#000000")))


def test_what_is_drawn_on_a_sunset_gradient_shows():
    rule = "A pale yellow full moon hangs in the upper-right part of the sky"
    assert rough_verdicts(SKY.format(SUNSET), [rule]) != ["fail"]


def test_a_rainbow_gradient_still_claims_no_colour():
    facts = svg_facts(parse_svg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">'
                                + SKY.format(RAINBOW) + "</svg>"))
    assert void_boxes(facts, 512)
    sunset = svg_facts(parse_svg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">'
                                 + SKY.format(SUNSET) + "</svg>"))
    assert not void_boxes(sunset, 512)
