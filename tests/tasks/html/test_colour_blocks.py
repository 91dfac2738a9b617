"""Design2Code's colour-injection text blocks: the pixel arithmetic without a browser, then
the whole extraction and the ``blocks="design2code"`` reward through real Chromium."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from designrl.render.types import TextBlock
from designrl.tasks.html.colour_blocks import (
    PALETTE_SIZE,
    SHIFT,
    blocks_from_renders,
    colour_boxes,
    inject_colours,
    palette_colour,
    palette_indices,
    shifted_pixels,
)

POOL_PAGES = 2
POOL_TIMEOUT_S = 15.0
WHITE = (255, 255, 255)


def _block(text, color, bbox=(0.0, 0.0, 10.0, 10.0)) -> TextBlock:
    return TextBlock(text=text, bbox=bbox, color=color, background=WHITE, font_size=16.0,
                     font_weight=400)


def _canvas(height=40, width=60) -> np.ndarray:
    return np.full((height, width, 3), 255, dtype=np.uint8)


def _paint(first, second, index, rows, cols):
    """Draw palette colour ``index`` into both renders, shifted in the second."""
    first[rows, cols] = palette_colour(index)
    second[rows, cols] = palette_colour(index, SHIFT)


def _png(image: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG")
    return out.getvalue()


# The pixel arithmetic.


def test_palette_is_distinct_and_decodes_back():
    colours = [palette_colour(i) for i in range(PALETTE_SIZE)]
    assert len(set(colours)) == PALETTE_SIZE
    image = np.array(colours, dtype=np.uint8).reshape(64, 64, 3)
    assert (palette_indices(image) == np.arange(PALETTE_SIZE).reshape(64, 64)).all()
    near = np.clip(image.astype(int) + 3, 0, 255).astype(np.uint8)  # within the tolerance
    assert (palette_indices(near) == np.arange(PALETTE_SIZE).reshape(64, 64)).all()
    between = np.full((1, 1, 3), 18, dtype=np.uint8)  # halfway between two levels
    assert palette_indices(between)[0, 0] == -1
    assert palette_indices(np.full((1, 1, 3), 255, dtype=np.uint8))[0, 0] == -1


def test_shifted_colours_wrap_around():
    top = palette_colour(PALETTE_SIZE - 1)  # 250 in every channel
    assert palette_colour(PALETTE_SIZE - 1, SHIFT) == tuple((v + SHIFT) % 256 for v in top)


def test_only_pixels_moved_by_the_shift_count():
    first = np.array([[[10, 10, 10], [250, 100, 10], [10, 10, 10], [10, 10, 10],
                       [10, 10, 10], [90, 90, 90]]], dtype=np.uint8)
    second = np.array([[[60, 60, 60], [44, 150, 60], [55, 57, 65], [40, 40, 40],
                        [60, 10, 60], [90, 90, 90]]], dtype=np.uint8)
    # exact; wrapped past 255; within ±8; moved too little (an anti-aliased edge);
    # one channel still; unchanged (an image)
    assert shifted_pixels(first, second).tolist() == [[True, True, True, False, False, False]]


def test_boxes_group_moved_pixels_by_their_first_colour():
    first, second = _canvas(), _canvas()
    _paint(first, second, 3, slice(5, 12), slice(4, 30))
    _paint(first, second, 3, slice(20, 22), slice(40, 45))  # the same element, further on
    _paint(first, second, 700, slice(25, 35), slice(2, 9))
    first[30:38, 50:58] = second[30:38, 50:58] = palette_colour(9)  # an image in that colour
    first[2, 2], second[2, 2] = (80, 80, 80), (100, 100, 100)  # an anti-aliased edge pixel
    assert colour_boxes(first, second) == {3: (4, 5, 41, 17), 700: (2, 25, 7, 10)}


def test_boxes_compare_renders_of_different_sizes_over_their_common_part():
    first, second = _canvas(40, 60), _canvas(30, 60)
    _paint(first, second, 5, slice(2, 6), slice(2, 6))
    _paint(first, second[:30], 6, slice(28, 40), slice(10, 20))
    assert colour_boxes(first, second) == {5: (2, 2, 4, 4), 6: (10, 28, 10, 2)}


def test_injection_follows_the_doctype_and_survives_an_unclosed_tail():
    page = "<!DOCTYPE html><html><body><p>hi</p><!-- never closed"
    injected = inject_colours(page, SHIFT)
    assert injected.startswith("<!DOCTYPE html><style>")
    assert injected.endswith("<html><body><p>hi</p><!-- never closed")
    assert f"+ {SHIFT})" in injected and "<script>" in injected
    assert inject_colours("<p>hi</p>").endswith("</script><p>hi</p>")


def test_blocks_take_text_and_colour_from_the_original_render_and_box_from_pixels():
    first, second = _canvas(80, 120), _canvas(80, 120)  # a 2x screenshot of a 60 x 40 page
    _paint(first, second, 0, slice(10, 20), slice(20, 60))
    _paint(first, second, 2, slice(40, 50), slice(0, 30))
    plain = SimpleNamespace(png=_png(first), width=60, height=40, text_blocks=[
        _block("Title", palette_colour(0)),
        _block("Hidden", palette_colour(1)),  # drew no pixels: dropped
        _block("Extra", palette_colour(2)),  # in no normal render: kept, black on white
    ])
    shifted = SimpleNamespace(png=_png(second), width=60, height=40)
    original = [_block("Title", (200, 30, 30), (9.0, 4.0, 22.0, 7.0)),
                _block("Hidden", (0, 0, 255))]
    blocks = blocks_from_renders(plain, shifted, original)
    assert [b.text for b in blocks] == ["Title", "Extra"]
    assert blocks[0].color == (200, 30, 30) and blocks[0].bbox == (10.0, 5.0, 20.0, 5.0)
    assert blocks[1].color == (0, 0, 0) and blocks[1].bbox == (0.0, 20.0, 15.0, 5.0)


# Through Chromium.

PAGE = """<!DOCTYPE html><html><head><style>
body { margin: 0; padding: 20px; background: #f4efe6; font: 32px/1 sans-serif; }
h1 { font-size: 40px; color: #c0392b; border: 3px solid currentColor; padding: 6px;
     margin: 0 0 20px; }
p { color: rgb(39, 174, 96); opacity: .8; margin: 0 0 20px; }
li { color: #2c5fa8; background: url(rick.jpg); }
</style></head><body>
<h1>Heading Ship</h1>
<p>Green grass here<svg width="30" height="30"><circle cx="15" cy="15" r="14"
   fill="currentColor"/></svg></p>
<ul><li>Blue list thing</li></ul>
<img src="rick.jpg" width="80" height="60">
</body></html>"""
EXPECTED = {"Heading Ship": (192, 57, 43), "Green grass here": (39, 174, 96),
            "Blue list thing": (44, 95, 168)}
D2C_PAGES = 3


def _extract(runner, html):
    from designrl.tasks.html.colour_blocks import extract_colour_blocks

    original = runner.render(html)
    assert original.ok, original.error
    return original, runner.run(extract_colour_blocks(runner.pool, html, original.text_blocks))


def _centre(block):
    x, y, w, h = block.bbox
    return np.array([x + w / 2, y + h / 2])


def _on_page(block, render) -> bool:
    x, y, w, h = block.bbox
    return w > 1 and h > 1 and x + w > 0 and y + h > 0 and x < render.width and y < render.height


@pytest.mark.integration
def test_hand_written_page_blocks_have_text_original_colour_and_glyph_boxes(runner):
    original, blocks = _extract(runner, PAGE)
    assert {b.text: b.color for b in original.text_blocks} == EXPECTED
    assert {b.text: b.color for b in blocks} == EXPECTED
    dom = {b.text: b for b in original.text_blocks}
    for block in blocks:
        x, y, w, h = block.bbox
        dx, dy, dw, dh = dom[block.text].bbox
        # The glyphs lie inside the DOM's text box (the border, the list marker and the
        # currentColor icon, painted in the text colour, are not counted) and fill most of it.
        assert dx - 2 <= x and x + w <= dx + dw + 2 and dy - 2 <= y and y + h <= dy + dh + 2, (
            block.text, block.bbox, dom[block.text].bbox)
        assert w >= 0.9 * dw and h >= 0.6 * dh, (block.text, block.bbox, dom[block.text].bbox)
        assert np.abs(_centre(block) - _centre(dom[block.text])).max() <= 4


@pytest.mark.integration
def test_design2code_pages_find_most_dom_blocks_in_place(runner):
    from shared_data import require_shared

    from designrl.tasks.html.dataset import load_design2code

    items = load_design2code(require_shared("data/design2code"), limit=D2C_PAGES)
    assert len(items) == D2C_PAGES
    found = total = 0
    for item in items:
        original, blocks = _extract(runner, item.html)
        dom = [b for b in original.text_blocks if _on_page(b, original)]  # not text-indent: -9999px
        assert blocks, item.id
        free = list(blocks)
        for block in dom:
            same = [b for b in free if b.text == block.text]
            if not same:
                continue
            nearest = min(same, key=lambda b: np.abs(_centre(b) - _centre(block)).max())
            assert nearest.color == block.color, (item.id, block.text)
            if np.abs(_centre(nearest) - _centre(block)).max() <= 10:
                found += 1
                free.remove(nearest)
        total += len(dom)
    assert found >= 0.7 * total, (found, total)


@pytest.mark.integration
def test_design2code_blocks_reward_ranks_a_ladder(runner):
    from shared_data import require_shared

    from designrl.tasks.html.degrade import ladder
    from designrl.tasks.html.reward import HtmlReward

    reference = require_shared("data/design2code/2.html").read_text()
    steps = dict(ladder(reference, seed=0))
    reward = HtmlReward(runner.pool, blocks="design2code")
    scores = {name: runner.run(reward.score(reference, steps[name]))
              for name in ("reference", "no_text", "blank")}
    own = scores["reference"]
    assert own.total >= 0.95 and own.components["design2code"] >= 0.95, own
    assert own.components["block_match"] >= 0.95 and own.components["text"] == 1.0, own
    # a page with none of the reference's text scores 0, like a blank one: content gates
    assert own.total > scores["no_text"].total >= scores["blank"].total == 0.0, scores
    assert len(reward._reference_blocks) == 1  # the reference's blocks were extracted once
