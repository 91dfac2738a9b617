"""The render page: the re-serialised SVG, its viewBox and where it lands on the page."""

from __future__ import annotations

import base64
import re

import pytest

from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.page import content_box, svg_markup, svg_page
from designrl.tasks.svg.parse import parse_svg


def _markup(svg: str) -> tuple[str, object]:
    root = parse_svg(svg)
    facts = svg_facts(root)
    return svg_markup(root, facts), facts


def test_missing_namespace_and_viewbox_are_supplied():
    markup, _ = _markup('<svg width="200" height="100"><circle cx="50" cy="50" r="40"/>'
                        '<!-- note --><text>a &lt; b</text></svg>')
    assert markup.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'viewBox="0 0 200 100"' in markup and 'width="512"' in markup
    assert "note" not in markup and "a &lt; b" in markup
    reparsed = svg_facts(parse_svg(markup))
    assert [s.tag for s in reparsed.shapes] == ["circle", "text"]


def test_foreign_namespaces_and_xlink_survive():
    markup, _ = _markup(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10" '
        'inkscape:version="1.0"><defs><circle id="c" r="2"/></defs>'
        '<use xlink:href="#c" x="5" y="5"/></svg>')
    assert 'xlink:href="#c"' in markup and ':version="1.0"' in markup
    assert [s.tag for s in svg_facts(parse_svg(markup)).shapes] == ["circle"]


@pytest.mark.parametrize(
    ("attrs", "box"),
    [('viewBox="0 0 100 100"', (0, 0, 512, 512)),
     ('viewBox="0 0 200 100"', (0, 128, 512, 384)),
     ('viewBox="0 0 100 200"', (128, 0, 384, 512)),
     ('viewBox="0 0 200 100" preserveAspectRatio="xMinYMin meet"', (0, 0, 512, 256)),
     ('viewBox="0 0 200 100" preserveAspectRatio="none"', (0, 0, 512, 512)),
     ('width="300" height="150"', (0, 128, 512, 384))],
)
def test_content_box(attrs, box):
    facts = svg_facts(parse_svg(f'<svg xmlns="http://www.w3.org/2000/svg" {attrs}/>'))
    assert content_box(facts) == pytest.approx(box)


def test_page_shows_the_svg_as_an_image_from_a_data_url():
    markup, _ = _markup('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>')
    page = svg_page(markup)
    found = re.search(r'<img alt="" width="512" height="512" src="data:image/svg\+xml;base64,'
                      r'([A-Za-z0-9+/=]+)"', page)
    assert found and base64.b64decode(found.group(1)).decode() == markup
    assert "<script" not in page


def test_pattern_fills_count_with_their_colours():
    facts = svg_facts(parse_svg(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><defs>'
        '<pattern id="p" width="10" height="10"><rect width="5" height="5" fill="red"/></pattern>'
        '</defs><circle cx="50" cy="50" r="30" fill="url(#p)"/>'
        '<circle cx="5" cy="5" r="3" fill="url(#missing)"/></svg>'))
    assert [(s.tag, s.fill) for s in facts.shapes] == [("circle", ((255, 0, 0),))]
