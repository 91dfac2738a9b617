"""Generated html items: deterministic, varied, self-contained, and scored as references."""

from __future__ import annotations

import re

import numpy as np
import pytest

from designrl.policies.html_bounds import blank_page, reference_page
from designrl.tasks.html.generate import TEST_SEED_START, generate_item
from designrl.tasks.html.reward import HtmlReward
from designrl.tasks.html.visual import decode_png
from designrl.tasks.layout import generate as layout_generate

SEEDS = (0, 1, 2, 17, TEST_SEED_START)


def test_same_seed_same_item():
    for seed in SEEDS:
        a, b = generate_item(seed), generate_item(seed)
        assert a == b and a.id == f"gen-html-{seed}"


def test_seeds_give_distinct_pages():
    pages = {generate_item(seed).html for seed in range(40)}
    assert len(pages) == 40
    titles = {re.search(r"<title>(.*?)</title>", page).group(1) for page in pages}
    assert len(titles) >= 20


def test_pages_are_complete_and_self_contained():
    for seed in range(40):
        page = generate_item(seed).html
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        assert "http" not in page and "<script" not in page and "lorem" not in page.lower()
        assert not re.search(r"""(?:src|href)\s*=\s*["']?//""", page)
        assert "url(" not in page and "<link" not in page
        for tag in ("<header", "<nav", "<main", "<footer", "<h2", "<p>", 'class="button'):
            assert tag in page, (seed, tag)
        assert "<svg" in page or "data:image/svg+xml;base64," in page


def test_split_seed_is_the_layout_familys():
    assert TEST_SEED_START == layout_generate.TEST_SEED_START


@pytest.mark.integration
def test_pages_render_and_score_as_their_own_references(runner):
    reward = HtmlReward(runner.pool)
    for seed in SEEDS:
        item = generate_item(seed)
        render = runner.render(item.html)
        assert render.ok and not render.page_errors and not render.blocked_requests, (
            seed, render.error)
        image = decode_png(render.png)
        assert image.shape[1] == 1280 and float(image.std()) > 10, seed
        assert len(render.text_blocks) >= 20, seed
        assert render.page_height > 1000, seed
        assert render.seconds < 3.0, (seed, render.seconds)  # "well under a second" when warm
        same = runner.run(reward.score(item.html, reference_page(item)))
        empty = runner.run(reward.score(item.html, blank_page(item)))
        print(f"\n{item.id}: self {same.total:.3f}, empty {empty.total:.3f}")
        assert same.total >= 0.95 and same.error is None, (seed, same.components)
        assert empty.total <= 0.05, (seed, empty.components)
        assert np.isclose(same.components["validity"], 1.0)
