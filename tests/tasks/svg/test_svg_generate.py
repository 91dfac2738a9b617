"""Generated svg items: deterministic per seed, well-formed, every requirement computed."""

from __future__ import annotations

import pytest

from designrl.tasks.layout import generate as layout_generate
from designrl.tasks.svg.generate import (
    MAX_REQUIREMENTS,
    MIN_REQUIREMENTS,
    TEST_SEED_START,
    generate_item,
    is_test_seed,
)
from designrl.tasks.svg.predicates import BackgroundColor, Relation, ShapeCount
from designrl.tasks.svg.requirements import parse_requirement
from designrl.tasks.svg.spec import SvgItem

SEEDS = [*range(150), *range(TEST_SEED_START, TEST_SEED_START + 150)]


def test_same_seed_same_item_and_seeds_differ():
    assert generate_item(7) == generate_item(7)
    assert generate_item(TEST_SEED_START + 3) == generate_item(TEST_SEED_START + 3)
    items = [generate_item(s) for s in range(50)]
    assert len({(i.prompt, i.requirements) for i in items}) == 50


def test_item_shape_and_ids():
    for seed in SEEDS:
        item = generate_item(seed)
        assert isinstance(item, SvgItem)
        assert item.id == f"gen-svg-{seed}"
        assert item.prompt.startswith("Write `svg` code for ")
        assert MIN_REQUIREMENTS <= len(item.requirements) <= MAX_REQUIREMENTS, item
        assert len(set(item.requirements)) == len(item.requirements), item


def test_every_requirement_is_computed():
    unread = [(seed, text) for seed in SEEDS for text in generate_item(seed).requirements
              if parse_requirement(text) is None]
    assert unread == []


def test_requirements_read_as_what_the_scene_says():
    """Spot checks of the reading: a background, counts of named shapes, and relations."""
    kinds = {type(parse_requirement(t)) for s in SEEDS for t in generate_item(s).requirements}
    assert {BackgroundColor, ShapeCount, Relation} <= kinds
    item = generate_item(2)
    counts = [parse_requirement(t) for t in item.requirements
              if isinstance(parse_requirement(t), ShapeCount)]
    assert any(p.selector.color is not None for p in counts), item


def test_split_follows_the_layout_family():
    assert TEST_SEED_START is layout_generate.TEST_SEED_START
    assert not is_test_seed(TEST_SEED_START - 1) and is_test_seed(TEST_SEED_START)
    assert generate_item(5) != generate_item(TEST_SEED_START + 5)


@pytest.mark.parametrize("seed", [0, 1, TEST_SEED_START])
def test_prompt_names_the_background(seed):
    item = generate_item(seed)
    background = next((parse_requirement(t) for t in item.requirements
                       if isinstance(parse_requirement(t), BackgroundColor)), None)
    if background is not None:
        assert f"on a {background.color.text} background" in item.prompt \
            or f"on an {background.color.text} background" in item.prompt
