"""Requirement sentences -> the right predicate, or unchecked."""

from __future__ import annotations

import pytest

from designrl.tasks.svg.requirements import parse_requirement

TABLE = [
    # background
    ("The overall background of the SVG must be white", "background is white"),
    ("The background must be light blue.", "background is light blue"),
    ("The background colour should be navy", "background is navy"),
    ("The SVG has a black background", "background is black"),
    ("Use a dark green background", "background is dark green"),
    ("The image must have a solid #ffeecc background", "background is #ffeecc"),
    # counts
    ("Include a red circle", "count(red circle) >= 1"),
    ("Include exactly 3 circles", "count(circle) == 3"),
    ("The SVG must contain at least two blue squares", "count(blue square) >= 2"),
    ("There should be no more than 4 lines", "count(line) <= 4"),
    ("Draw more than 3 rectangles", "count(rectangle) >= 4"),
    ("There are five stars", "count(star) == 5"),
    ("The number of triangles must be 2", "count(triangle) == 2"),
    ("A green triangle", "count(green triangle) >= 1"),
    ("Use exactly one ellipse", "count(ellipse) == 1"),
    ("Include several dots", "count(circle) >= 2"),
    ("There must be no lines", "count(line) == 0"),
    ("The drawing must not contain any triangles", "count(triangle) == 0"),
    ("Include at least 5 shapes", "count(shape) >= 5"),
    # colours
    ("Use red, white and blue", "uses red and white and blue"),
    ("The colors gold and navy must be used", "uses gold and navy"),
    ("The palette must include red or orange", "uses red or orange"),
    ("Uses #ff0000", "uses #ff0000"),
    ("All circles must be yellow", "all circle are yellow"),
    ("The square is blue", "count(blue square) >= 1"),
    ("The circle has a black outline", "circle outlined black"),
    ("Include a white square with a red border", "white square outlined red"),
    # positions
    ("The red circle is above the blue square", "red circle above blue square"),
    ("The red circle must be directly to the left of the green triangle",
     "red circle left_of green triangle"),
    ("The sun-yellow circle is below the line", None),
    ("The black circles are inside the yellow circle",
     "every black circle inside yellow circle"),
    ("The text 'STOP' is inside the red octagon", "text 'STOP' inside red octagon"),
    ("The yellow circle is in the top right corner", "yellow circle in top_right_corner"),
    ("The blue rectangle is in the bottom half", "blue rectangle in bottom"),
    ("The red octagon is centered on the canvas", "red octagon in center"),
    ("The star must be horizontally centered", "star in hcenter"),
    # text and size
    ("Contains the text 'STOP'", "count(text 'STOP') >= 1"),
    ("The word “Sale” must appear", "count(text 'Sale') >= 1"),
    ('Display the title "Quarterly Sales"', "count(text 'Quarterly Sales') >= 1"),
    ("Include the text 'I'm Feeling Lucky'", "count(text \"I'm Feeling Lucky\") >= 1"),
    ("The canvas must be 400x300", "size 400x300"),
    # not computable: left to the judge
    ("Include a large red circle", None),
    ("The sun is in the top right corner", None),
    ("Cow must be clearly recognizable with distinctive bovine features", None),
    ("Include exactly 4 sets of cutlery arranged around the table", None),
    ("The left button must be labeled 'Google Search'", None),
    ("The header must include text links for 'Gmail' and 'Images'", None),
    ("Include a brown rectangle for the walls", None),
    ("The bars must increase in height from left to right", None),
    ("Use bright colors", None),
]


@pytest.mark.parametrize(("sentence", "expected"), TABLE, ids=[t[0][:40] for t in TABLE])
def test_requirement_sentence_to_predicate(sentence, expected):
    predicate = parse_requirement(sentence)
    if expected is None:
        assert predicate is None, predicate
    else:
        assert predicate is not None, sentence
        assert predicate.describe() == expected
