"""Two readings that must not fail a drawing for what it draws small or draws as a shape
(rough raster, no browser): white triangular teeth too small to count as evidence still
forbid "no white triangle", and a '404' whose '0' is drawn as a face between two text
'4's is not "no text '404'"."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize

NS = 'xmlns="http://www.w3.org/2000/svg"'
TEETH = "Its mouth is open in a smile that shows white triangular teeth."
NUMBER = "A huge '404' is written in the centre of the page in dark blue."
EYE = '<circle cx="260" cy="120" r="12" fill="#ffffff"/>'  # a sizeable white circle


def _atom(body: str, requirement: str, describes: str):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400">'
                                f'<rect width="400" height="400" fill="#4caf50"/>{body}</svg>'))
    (detail,) = score_svg(facts, rasterize(facts), [requirement]).details
    (atom,) = [a for a in detail.atoms if describes in a.check]
    return detail.verdict, atom


def _teeth(n: int) -> str:
    return "".join(f'<polygon points="{246 + 14 * i},148 {255 + 14 * i},148 {250 + 14 * i},158" '
                   f'fill="#ffffff"/>' for i in range(n))


def _digits(middle: str) -> str:
    four = '<text x="{x}" y="230" font-family="Arial" font-size="96" fill="#1d3557" ' \
           'text-anchor="middle">{t}</text>'
    return (four.format(x=135, t="4") + middle + four.format(x=265, t="4"))


def test_small_white_teeth_keep_the_triangles_undecided():
    verdict, atom = _atom(EYE + _teeth(4), TEETH, "white triangle")
    assert atom.verdict is None and verdict != "fail"
    assert "small" in atom.detail


def test_without_them_a_white_circle_alone_is_no_white_triangle():
    verdict, atom = _atom(EYE, TEETH, "white triangle")
    assert atom.verdict is False and verdict == "fail"


def test_big_white_triangles_pass():
    big = '<polygon points="100,100 200,100 150,200" fill="#ffffff"/>'
    assert _atom(EYE + big, TEETH, "white triangle")[1].verdict is True


def test_a_letter_drawn_between_text_pieces_is_not_missing_text():
    face = '<circle cx="200" cy="197" r="33" fill="none" stroke="#1d3557" stroke-width="12"/>'
    verdict, atom = _atom(_digits(face), NUMBER, "text '404'")
    assert atom.verdict is None and verdict != "fail"


def test_other_text_pieces_still_fail():
    five = ('<text x="200" y="230" font-family="Arial" font-size="96" fill="#1d3557" '
            'text-anchor="middle">5</text>')
    assert _atom(_digits("").replace(">4<", ">7<", 1), NUMBER, "text '404'")[1].verdict is False
    assert _atom(five, NUMBER, "text '404'")[1].verdict is False
    assert _atom("", NUMBER, "text '404'")[1].verdict is False
