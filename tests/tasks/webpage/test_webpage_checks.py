"""The pure checks behind each static component, the gates and the total: no browser."""

from __future__ import annotations

import numpy as np
import pytest

from designrl.render.types import ElementBox, RenderResult, TextBlock
from designrl.tasks.webpage.axe import AxeViolation, score_axe
from designrl.tasks.webpage.colour import (
    contrast_ratio,
    dominant_colours,
    hue_pair_score,
    score_contrast,
    score_harmony,
)
from designrl.tasks.webpage.facts import LayoutFacts, TextUnit, facts_from_render
from designrl.tasks.webpage.interaction_records import Interaction, score_interactions
from designrl.tasks.webpage.layout import (
    overlapping_pairs,
    score_alignment,
    score_overlap,
    score_text_fit,
)
from designrl.tasks.webpage.pixel_change import box_mask, changed_mask, count_changed
from designrl.tasks.webpage.reward import (
    ERROR_FACTOR,
    execution_components,
    total_score,
)
from designrl.tasks.webpage.space import is_blank, score_whitespace
from designrl.tasks.webpage.static import STATIC_WEIGHTS, static_components, static_score
from designrl.tasks.webpage.typography import score_type_scale, size_levels

WHITE = (255, 255, 255)


def unit(x, y, w, h, *, size=16.0, chars=20, heading=False, **flags) -> TextUnit:
    return TextUnit(tag="p", bbox=(x, y, w, h), rects=((x, y, w, h),), font_size=size,
                    font_weight=700 if heading else 400, chars=chars, heading=heading, **flags)


def facts(*units: TextUnit, scroll_width=1280) -> LayoutFacts:
    return LayoutFacts(1280, 800, scroll_width, 800, list(units))


def block(text, color, background=WHITE, bbox=(10, 10, 100, 20), size=16.0, weight=400):
    return TextBlock(text, bbox, color, background, size, weight)


# Colour


def test_contrast_ratio_matches_wcag():
    assert contrast_ratio((0, 0, 0), WHITE) == pytest.approx(21.0)
    assert contrast_ratio(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast_ratio((118, 118, 118), WHITE) == pytest.approx(4.54, abs=0.01)


def test_contrast_scores_by_drawn_background_and_size():
    good = [block("Readable text", (17, 17, 17))]
    faint = [block("Faint text", (200, 200, 200))]
    assert score_contrast(good, None)[0] == 1.0
    assert score_contrast(faint, None)[0] < 0.2
    # 3:1 passes for large text only.
    grey = (148, 148, 148)
    assert score_contrast([block("Big", grey, size=28)], None)[0] == 1.0
    assert score_contrast([block("Small", grey, size=14)], None)[0] < 1.0
    # White text on a dark picture the DOM does not know about: the pixels decide.
    image = np.full((100, 200, 3), 20, dtype=np.uint8)
    on_dark = [block("Hero", WHITE, background=WHITE, bbox=(10, 10, 100, 30))]
    assert score_contrast(on_dark, None)[0] == 0.0
    assert score_contrast(on_dark, image)[0] == 1.0
    assert score_contrast([], None)[0] == 1.0


def test_harmony_counts_colours_and_judges_hues():
    image = np.full((100, 100, 3), 250, dtype=np.uint8)
    assert score_harmony(image)[0] == pytest.approx((0.6 + 1.0) / 2)  # one colour: monotone
    image[:, :30] = (30, 60, 200)  # blue
    image[:, 30:50] = (230, 120, 20)  # orange: complementary to blue
    score, info = score_harmony(image)
    assert info["dominant"] == 3 and info["chromatic"] == 2 and score == 1.0
    clash = np.full((100, 100, 3), 250, dtype=np.uint8)
    clash[:, :30] = (200, 30, 30)  # red
    clash[:, 30:50] = (40, 180, 40)  # green, 120 deg off: triadic, fine
    clash[:, 50:70] = (230, 200, 20)  # yellow: 50 deg from red, off every scheme
    assert score_harmony(clash)[0] < 1.0
    confetti = np.zeros((100, 100, 3), dtype=np.uint8)
    confetti[:] = (np.arange(100)[:, None, None] // 10) * np.array([37, 91, 53]) % 256
    assert score_harmony(confetti)[1]["dominant"] == 10
    assert score_harmony(confetti)[0] < 0.8
    assert hue_pair_score(0, 180) == 1.0 and hue_pair_score(0, 75) < 1.0
    assert dominant_colours(np.zeros((0, 0, 3), dtype=np.uint8)) == []


# Layout


def test_overlap_finds_text_drawn_over_text_and_occluded_text():
    clean = facts(unit(0, 0, 200, 20), unit(0, 30, 200, 20), unit(220, 0, 100, 20))
    assert score_overlap(clean)[0] == 1.0
    crossed = facts(unit(0, 0, 200, 20), unit(50, 5, 200, 20), unit(0, 100, 10, 10))
    assert overlapping_pairs(crossed.units) == [(0, 1)]
    assert score_overlap(crossed)[0] == pytest.approx(1 / 1.5)
    # Touching line boxes (tight line-height) are not an overlap.
    assert overlapping_pairs([unit(0, 0, 200, 20), unit(0, 18, 200, 20)]) == []
    hidden = facts(unit(0, 0, 200, 20, occluded=True))
    assert score_overlap(hidden)[1]["occluded"] == 1 and score_overlap(hidden)[0] < 1.0


def test_text_fit_counts_clipped_text_and_page_overflow():
    units = [unit(0, i * 30, 100, 20) for i in range(10)]
    assert score_text_fit(facts(*units))[0] == 1.0
    units[0] = unit(0, 0, 100, 20, clipped=True)
    assert score_text_fit(facts(*units))[0] == pytest.approx(0.7)
    assert score_text_fit(facts(*units, scroll_width=1500))[0] == pytest.approx(0.35)


def test_alignment_rewards_shared_edges():
    column = facts(*(unit(40, 40 + 30 * i, 100 + 37 * i, 20) for i in range(6)))
    assert score_alignment(column)[0] == 1.0
    centred = facts(*(unit(640 - w / 2, 40 + 30 * i, w, 20)
                      for i, w in enumerate((300, 120, 500, 80))))
    assert score_alignment(centred)[0] == 1.0
    scattered = facts(*(unit(17 + 61 * i, 13 + 47 * i, 90 + 11 * i, 20) for i in range(6)))
    assert score_alignment(scattered)[0] == 0.0
    assert score_alignment(facts(unit(0, 0, 10, 10)))[0] == 1.0


# Typography


def test_type_scale_prefers_a_few_modular_levels_with_larger_headings():
    good = [unit(0, 0, 10, 10, size=40, chars=20, heading=True),
            unit(0, 0, 10, 10, size=24, chars=40, heading=True),
            unit(0, 0, 10, 10, size=16, chars=800), unit(0, 0, 10, 10, size=14, chars=100)]
    score, info = score_type_scale(good)
    assert score == 1.0 and info["body_px"] == 16.0
    flat = [unit(0, 0, 10, 10, size=16, chars=100, heading=True),
            unit(0, 0, 10, 10, size=16, chars=800)]
    assert score_type_scale(flat)[0] < 0.75
    muddle = [unit(0, 0, 10, 10, size=s, chars=100) for s in (11, 12, 13, 14, 15, 17, 19, 21)]
    assert score_type_scale(muddle)[0] < score
    assert [s for s, _ in size_levels([unit(0, 0, 1, 1, size=16), unit(0, 0, 1, 1, size=16.4)])] \
        == [pytest.approx(16.2)]
    assert score_type_scale([])[0] == 0.0


# Pixels


def test_blank_and_whitespace():
    white = np.full((200, 300, 3), 255, dtype=np.uint8)
    assert is_blank(white, [block("x", (0, 0, 0))])[0]
    drawn = white.copy()
    drawn[50:60, 20:280] = 0
    assert not is_blank(drawn, [block("x", (0, 0, 0))])[0]
    assert is_blank(drawn, [], [ElementBox("html", (0, 0, 300, 200), 0, -1)])[0]
    assert not is_blank(drawn, [], [ElementBox("canvas", (0, 0, 300, 200), 2, 1)])[0]
    assert is_blank(None)[0]

    page = np.full((400, 400, 3), 255, dtype=np.uint8)
    for y in range(40, 360, 40):  # text-like stripes across the middle
        page[y:y + 6, 60:340:3] = 0
    balanced, info = score_whitespace(page)
    assert balanced > 0.8 and info["balance"] > 0.9
    lopsided = np.full((400, 400, 3), 255, dtype=np.uint8)
    lopsided[40:360:40, 10:150:3] = 0
    assert score_whitespace(lopsided)[0] < balanced
    cramped = (np.random.default_rng(0).integers(0, 255, (400, 400, 3))).astype(np.uint8)
    assert score_whitespace(cramped)[0] == 0.0
    assert score_whitespace(white)[0] == 0.0  # nothing there at all


# axe


def test_axe_score_weights_impact_and_nodes():
    assert score_axe([])[0] == 1.0
    one = score_axe([AxeViolation("color-contrast", "serious", 1, ("wcag2aa",))])[0]
    assert one == pytest.approx(1 / 1.6)
    many = score_axe([AxeViolation("color-contrast", "serious", 25, ("wcag2aa",))])[0]
    assert many == pytest.approx(1 / 4.0)
    advice = score_axe([AxeViolation("region", "moderate", 1, ("best-practice",))])[0]
    assert advice == pytest.approx(1 / 1.15)


# Interaction scoring and pixel diffs


def test_interaction_score_and_pixel_masks():
    assert score_interactions([]) == 0.0
    records = [Interaction("button", "a", passed=True), Interaction("link", "b")]
    assert score_interactions(records) == 0.5
    before = np.zeros((50, 80, 3), dtype=np.uint8)
    after = before.copy()
    after[10:20, 10:20] = 255
    assert changed_mask(before, after).sum() == 100
    assert count_changed(before, after, box_mask(after.shape, [(12, 12, 4, 4)])) == 0
    assert count_changed(before, after, box_mask(after.shape, [(40, 30, 5, 5)], pad=0)) == 100
    ticking = np.zeros(after.shape[:2], dtype=bool)
    ticking[10:12, 22:24] = True  # changed on its own just beside the region: all discounted
    assert count_changed(before, after, None, ticking) == 0
    ticking[:] = False
    ticking[40:45, 60:70] = True  # far away: the region still counts
    assert count_changed(before, after, None, ticking) == 100


# Gates and total


def _render(**kw) -> RenderResult:
    defaults = {"png": b"x", "width": 300, "height": 200,
                "text_blocks": [block("Hello", (0, 0, 0))]}
    return RenderResult(**{**defaults, **kw})


def test_execution_gate_and_total():
    image = np.full((200, 300, 3), 255, dtype=np.uint8)
    image[50:60, 20:280] = 0
    comps, _ = execution_components(_render(), image, [])
    assert comps == {"loads": 1.0, "non_blank": 1.0, "no_page_errors": 1.0, "stable": 1.0,
                     "execution": 1.0}
    assert execution_components(_render(), image, ["ReferenceError"])[0]["execution"] \
        == ERROR_FACTOR
    assert execution_components(_render(), image, [], "timeout")[0]["execution"] == ERROR_FACTOR
    failed = RenderResult.failure("timeout", timed_out=True)
    assert execution_components(failed, None, [])[0]["execution"] == 0.0
    blank = np.full((200, 300, 3), 255, dtype=np.uint8)
    assert execution_components(_render(), blank, [])[0]["execution"] == 0.0

    comps = {"execution": 1.0, "static": 0.8, "interaction": 0.5}
    assert total_score(comps) == pytest.approx(0.65)
    assert total_score({**comps, "judge": 1.0}) == pytest.approx(0.7 * 0.65 + 0.3)
    assert total_score({**comps, "execution": 0.0}) == 0.0


def test_static_components_from_a_render_alone():
    image = np.full((200, 300, 3), 255, dtype=np.uint8)
    image[20:40, 20:200] = 20
    render = _render(text_blocks=[block("Heading", (20, 20, 20), bbox=(20, 20, 180, 20),
                                        size=32)])
    comps, details = static_components(render, image, facts_from_render(render, 300))
    assert set(comps) == set(STATIC_WEIGHTS) - {"axe"}
    assert all(0.0 <= v <= 1.0 for v in comps.values())
    assert "axe" not in details
    assert 0.0 <= static_score(comps) <= 1.0
    assert static_score({}) == 0.0
    assert static_score({"axe": 0.0, "contrast": 1.0}) == pytest.approx(1.5 / 3.5)
