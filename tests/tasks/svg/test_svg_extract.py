"""Finding the SVG in a completion."""

from __future__ import annotations

import time

import pytest

from designrl.tasks.svg.extract import extract_svg

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="1"/></svg>'


@pytest.mark.parametrize(
    ("completion", "svg", "formatted"),
    [
        (f"```svg\n{SVG}\n```", SVG, True),
        (f"```xml\n{SVG}\n```", SVG, True),
        (f"```\n{SVG}\n```", SVG, True),
        (SVG, SVG, True),
        (f"  \n{SVG}\n", SVG, True),
        (f"Here is the drawing:\n```svg\n{SVG}\n```\nEnjoy!", SVG, False),
        (f"Sure. {SVG} Done.", SVG, False),
        ("```python\nprint(1)\n```\n```svg\n" + SVG + "\n```", SVG, False),
        (f"```svg\n{SVG}\n<p>extra</p>\n```", SVG, False),
        ('<SVG width="4"></SVG>', '<SVG width="4"></SVG>', True),
        ('<svg><svg x="1"><rect/></svg><g/></svg> tail', '<svg><svg x="1"><rect/></svg><g/></svg>',
         False),
        ('<?xml version="1.0" encoding="UTF-8"?>\n' + SVG,
         '<?xml version="1.0" encoding="UTF-8"?>\n' + SVG, True),
        ("Some <!DOCTYPE html> chatter then " + SVG, SVG, False),
        (f"first {SVG} second <svg></svg>", SVG, False),
    ],
)
def test_extracts_the_first_svg(completion, svg, formatted):
    found = extract_svg(completion)
    assert found.error is None
    assert found.svg == svg
    assert found.well_formatted is formatted


def test_keeps_a_doctype_before_the_svg_so_the_parser_can_refuse_it():
    hostile = '<!DOCTYPE svg [<!ENTITY a "b">]>\n<svg>&a;</svg>'
    assert extract_svg(f"```svg\n{hostile}\n```").svg == hostile


@pytest.mark.parametrize(
    ("completion", "code"),
    [
        ("no drawing here", "no_svg"),
        ("<svgfoo></svgfoo>", "no_svg"),
        ('<svg viewBox="0 0 1 1"><circle r="1"/>', "unclosed_svg"),
        ("```svg\n<svg><g>\n```", "unclosed_svg"),
    ],
)
def test_reports_why_nothing_was_extracted(completion, code):
    found = extract_svg(completion)
    assert found.svg is None
    assert found.error.startswith(code)


@pytest.mark.parametrize(
    "completion",
    [
        "<!DOCTYPE " * 150_000 + "<svg></svg>",
        "<!--" * 300_000 + "<svg></svg>",
        "<svg" * 400_000,
        "```svg\n" + "<svg>" * 300_000,
    ],
)
def test_hostile_text_is_handled_in_linear_time(completion):
    started = time.monotonic()
    extract_svg(completion)
    assert time.monotonic() - started < 2.0
