"""Counts the geometry cannot see whole (shapes repeated by a pattern fill, squares drawn as
one compound path) stay undecided, not failed; a small glyph on a dark shape is seen."""

from __future__ import annotations

import numpy as np

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.atoms import Count, Pieces
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.predicates import Scene, text_matches
from designrl.tasks.svg.raster import rasterize
from designrl.tasks.svg.reader import read_requirement
from designrl.tasks.svg.visibility import _backdrop, _seen

NS = 'xmlns="http://www.w3.org/2000/svg"'
GRID = "The board must be a square grid of 8 by 8 squares"
PATTERN = ('<defs><pattern id="p" width="50" height="50" patternUnits="userSpaceOnUse">'
           '<rect width="50" height="50" fill="#f0d9b5"/><rect width="25" height="25" '
           'fill="#8b5a2b"/><rect x="25" y="25" width="25" height="25" fill="#8b5a2b"/>'
           '</pattern></defs>')


def _verdicts(body: str, requirements):
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400">'
                                f'<rect width="400" height="400" fill="#ffffff"/>{body}</svg>'))
    return [d.verdict for d in score_svg(facts, rasterize(facts), requirements).details]


def test_a_pattern_fill_may_hold_the_counted_shapes():
    assert Count("square", None, ">=", 8) in read_requirement(GRID).atoms
    board = '<rect x="0" y="0" width="400" height="400" fill="url(#p)"/>'
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400">{PATTERN}{board}</svg>'))
    assert [s.patterned for s in facts.shapes] == [True]
    assert _verdicts(PATTERN + board, [GRID]) == ["unchecked"]
    framed = '<rect x="40" y="40" width="320" height="320" fill="#4e2e14"/>' \
        '<rect x="50" y="50" width="300" height="300" fill="url(#p)"/>'
    assert _verdicts(PATTERN + framed, [GRID]) == ["unchecked"]
    assert _verdicts('<rect x="50" y="50" width="300" height="300" fill="#8b5a2b"/>',
                     [GRID]) == ["fail"]  # one square, no pattern: surely not 64


def test_squares_drawn_as_one_compound_path_are_not_too_few():
    d = "".join(f"M{x} {y}h40v40h-40z" for x in range(0, 400, 80) for y in range(0, 160, 80))
    assert _verdicts(f'<path d="{d}" fill="#333333"/>', [GRID]) == ["unchecked"]


def test_pieces_of_a_colour_in_a_pattern_are_not_counted_short():
    body = PATTERN + '<rect width="400" height="400" fill="url(#p)"/>'
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400">{body}</svg>'))
    scene = Scene(facts, rasterize(facts), (0, 0, 512, 512))
    assert Pieces(color_spec("brown"), 20).check(scene)[0] is None
    assert Pieces(color_spec("brown"), 20).check(
        Scene(svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400"><rect width="40" '
                                  'height="40" fill="#8b5a2b"/></svg>')),
              scene.image, scene.box))[0] is False


def test_a_glyph_on_a_dark_shape_blends_into_that_shape_not_the_page():
    cream, frame = (240, 217, 181), (78, 46, 20)
    region = np.zeros((19, 12, 3), dtype=np.int32) + np.array(frame)
    region[6:15, 3:8] = (np.array(cream) + np.array(frame)) // 2  # anti-aliased glyph edges
    region[9:12, 4:7] = cream
    assert _backdrop(region, cream) == frame
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="0 0 400 400"><rect width="400" '
                                'height="400" fill="#ffffff"/><text x="10" y="30" '
                                'font-size="14" fill="#f0d9b5">a</text></svg>'))
    text = next(s for s in facts.shapes if s.tag == "text")
    image = np.full((512, 512, 3), 255, dtype=np.uint8)
    x0, y0 = int(text.bbox[0] * 1.28), int(text.bbox[1] * 1.28)
    image[y0:y0 + 19, x0:x0 + 12] = region.astype(np.uint8)
    assert _seen(text, facts, image, (0, 0, 512, 512), (255, 255, 255), 512) is not None


def test_a_row_of_short_labels_shows_each_of_them():
    rule = "The file letters 'a' to 'h' should be printed along the bottom of the frame"
    row = '<text x="200" y="390" font-size="14" text-anchor="middle" fill="#000">{t}</text>'
    assert _verdicts(row.format(t="a b c d e f g h"), [rule]) == ["unchecked"]
    assert _verdicts(row.format(t="b c d e f g"), [rule]) == ["fail"]
    assert text_matches("8", "1 2 3 4 5 6 7 8")
    assert not text_matches("Log in", "The button must read Log in and be blue and wide")


def test_an_exact_count_short_of_a_pattern_fill_is_undecided():
    rule = "There must be exactly 64 squares"
    board = '<rect x="0" y="0" width="400" height="400" fill="url(#p)"/>'
    assert _verdicts(PATTERN + board, [rule]) == ["unchecked"]
    squares = "".join(f'<rect x="{x}" y="0" width="20" height="20" fill="#8b5a2b"/>'
                      for x in range(0, 400, 40))
    assert _verdicts(squares, [rule]) == ["fail"]  # ten squares and no pattern


def test_a_letter_set_inside_a_longer_word_is_undecided():
    rule = "The file letters 'a' to 'h' should be printed along the bottom of the frame"
    row = '<text x="200" y="390" font-size="14" text-anchor="middle" fill="#000">{t}</text>'
    assert _verdicts(row.format(t="abcdefgh"), [rule]) == ["unchecked"]
    assert _verdicts(row.format(t="bcdefg"), [rule]) == ["fail"]
