"""The pieces of the style-aware html reward, without a browser: the viewport a page asks
for, CSS declaration filtering, the style ladder's steps, and the screenshot terms on
hand-made images (a page scores 1 against itself, an almost empty page near 0)."""

import numpy as np
import pytest
from PIL import Image

from designrl.render.types import TextBlock
from designrl.tasks.html.appearance import appearance_scores, page_view, visible_blocks
from designrl.tasks.html.css import filter_declarations
from designrl.tasks.html.degrade import (
    STYLE_LADDER,
    colors_changed,
    half_styles,
    near_blank,
    no_layout,
    style_ladder,
)
from designrl.tasks.html.generate import generate_item
from designrl.tasks.html.ladders import kind_of, ladders
from designrl.tasks.html.reward import harmonic
from designrl.tasks.html.text_blocks import text_scores
from designrl.tasks.html.viewport import page_viewport


def test_viewport_is_the_pages_own():
    assert page_viewport("<meta name='viewport' content='width=640, initial-scale=1'>") == (640, 800)
    assert page_viewport('<meta content="width=774" name="viewport">') == (774, 800)
    assert page_viewport("<meta name=viewport content='width=device-width'>") == (1280, 800)
    assert page_viewport("<style>html { width: 900px }</style>") == (900, 800)
    assert page_viewport("<style>body{min-width:1000px}</style>") == (1016, 800)  # + margins
    assert page_viewport("<style>body{width:50px}</style><p>x</p>") == (1280, 800)  # not believed
    assert page_viewport(generate_item(1).html) == (1280, 800)


def test_css_filter_keeps_strings_urls_and_nesting():
    css = ('body{margin:0;color:#333;background:url("data:image/png;base64,AA;")}'
           '@media (max-width:600px){.a{width:10px;color:red}} a[href="x;y"]{display:block}')
    kept = filter_declarations(css, lambda prop, value: prop not in ("margin", "width", "display"))
    assert "margin" not in kept and "width:10px" not in kept and "display" not in kept
    assert 'url("data:image/png;base64,AA;")' in kept and "color:red" in kept
    assert '@media (max-width:600px){.a{' in kept and 'a[href="x;y"]{}' in kept


def test_style_ladder_changes_only_style():
    page = generate_item(2).html
    steps = dict(style_ladder(page))
    assert list(steps) == list(STYLE_LADDER)
    for name in ("colors_changed", "half_styles", "no_layout", "no_styles"):
        assert steps[name] != page
        for text in ("All rights reserved", "<footer"):
            assert text in steps[name], name
    assert "display: grid" not in no_layout(page) and "background:" in no_layout(page)
    assert "grid-template-columns" not in no_layout(page)
    recoloured = colors_changed("<html><body bgcolor='#ffffff' style='color:rgb(10,20,30)'>"
                                "<p style='border:1px solid red'>red</p></body></html>")
    assert "rgb(10,20,30)" not in recoloured and "solid red" not in recoloured
    assert "bgcolor=\"#" in recoloured and ">red</p>" in recoloured  # hex in attributes; text kept
    half = half_styles(page)
    assert half.count('class="') < page.count('class="')
    assert page[:200] in half or half.startswith("<!DOCTYPE html>")
    assert "<p>" in near_blank(page) and len(near_blank(page)) < 200


def test_a_page_without_a_doctype_keeps_none():
    page = "<html><body><div style='height:100%;background:#111'>x</div></body></html>"
    for _, step in style_ladder(page)[1:-1]:
        assert "<!DOCTYPE" not in step.upper()[:20]


def test_ladders_come_in_both_kinds():
    found = ladders(seeds=(5,))
    assert [kind_of(ladder) for ladder in found] == ["degrade", "style"]
    assert all(ladder.task == "gen-html" and ladder.rungs[0][1] == ladder.item.html
               for ladder in found)
    with pytest.raises(ValueError, match="unknown html ladder"):
        ladders(kinds=("nope",))


def _page(boxes, text=True, size=(400, 300)):
    """A white page with filled boxes; with ``text``, dark glyph-like strokes in the first."""
    image = np.full((*size[::-1], 3), 255, dtype=np.uint8)
    for x, y, w, h, colour in boxes:
        image[y:y + h, x:x + w] = colour
    textless = image.copy()
    if text:
        image[20:30, 20:180:4] = (20, 20, 20)
    return Image.fromarray(image), Image.fromarray(textless)


def test_screenshot_terms_see_colour_and_layout_and_not_white_space():
    boxes = [(0, 0, 400, 60, (30, 60, 120)), (40, 100, 150, 120, (200, 80, 40))]
    ref = page_view(*_page(boxes), 400).compact()
    same = page_view(*_page(boxes), 400).compact()
    assert appearance_scores(ref, same) == pytest.approx(
        {"ssim": 1, "palette": 1, "histogram": 1, "layout": 1, "visual": 1})
    recoloured = [(0, 0, 400, 60, (120, 40, 60)), (40, 100, 150, 120, (40, 160, 90))]
    moved = [(0, 0, 400, 60, (30, 60, 120)), (220, 160, 150, 120, (200, 80, 40))]
    empty = page_view(*_page([], text=False), 400).compact()
    colour = appearance_scores(ref, page_view(*_page(recoloured), 400).compact())
    layout = appearance_scores(ref, page_view(*_page(moved), 400).compact())
    nothing = appearance_scores(ref, empty)
    assert colour["palette"] < 0.5 and colour["layout"] > 0.9
    assert layout["layout"] < 0.8 and layout["palette"] < 0.9
    assert nothing["visual"] < 0.1 and max(nothing.values()) < 0.2


def test_text_that_draws_no_ink_is_not_text():
    image, textless = _page([(0, 0, 400, 60, (30, 60, 120))])
    drawn = TextBlock("Harbour Bakery", (20, 20, 160, 10), (20, 20, 20), (255, 255, 255), 16, 400)
    hidden = TextBlock("Fresh bread daily", (20, 200, 160, 10), (0, 0, 0), (255, 255, 255), 16, 400)
    view = page_view(image, textless, 400)
    assert visible_blocks([drawn, hidden], view) == [drawn]


def test_block_terms_count_every_character():
    def block(text, x=0, y=0):
        return TextBlock(text, (x, y, 100, 20), (0, 0, 0), (255, 255, 255), 16, 400)

    ref = [block("Harbour Bakery"), block("Fresh bread every single morning", y=40),
           block("Order a celebration cake today", y=80)]
    full = text_scores(ref, ref, 1280)
    assert full.text == full.recall == full.position == full.color == full.font == 1.0
    one = text_scores(ref, ref[:1], 1280)
    assert one.recall < 0.2 and one.precision == 1.0 and one.position < 0.35
    far = text_scores(ref, [block(b.text, x=900) for b in ref], 1280)
    assert far.text == 1.0 and far.position == 0.0


def test_the_lower_of_content_and_appearance_rules_the_total():
    assert harmonic(1.0, 1.0) == pytest.approx(1.0)
    assert harmonic(0.0, 1.0) == harmonic(1.0, 0.0) == 0.0
    assert harmonic(0.03, 0.95) < 0.08 and harmonic(1.0, 0.3) < 0.45
    assert harmonic(1.0, 0.8) > harmonic(1.0, 0.5) > harmonic(1.0, 0.3)
