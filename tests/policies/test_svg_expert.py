"""The svg expert, scored by the real reward in real Chromium: near-perfect on generated test
seeds, better than nothing on every packaged prompt, and not passing requirements it was not
given."""

from __future__ import annotations

import re
import statistics

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.policies.svg_expert import draw_svg
from designrl.policies.svg_random import random_svg
from designrl.tasks.svg.colour_names import FAMILIES, color_spec
from designrl.tasks.svg.dataset import load_prompts
from designrl.tasks.svg.extract import extract_svg
from designrl.tasks.svg.generate import TEST_SEED_START, generate_item
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.predicates import Relation
from designrl.tasks.svg.requirements import parse_requirement
from designrl.tasks.svg.reward import SvgReward, prepare
from designrl.tasks.svg.spec import SvgItem

pytestmark = pytest.mark.integration

TEST_ITEMS = [generate_item(TEST_SEED_START + i) for i in range(30)]
TRIVIAL = '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"/>\n```'
_OPPOSITE = {"above": "below", "below": "above", "to the left of": "to the right of",
             "to the right of": "to the left of"}


@pytest.fixture(scope="module")
def reward():
    require_chromium()
    runner = PoolRunner(run_timeout=120.0, browsers=1, pages_per_browser=4, timeout_s=10.0)
    yield runner, SvgReward(runner.pool)
    runner.close()


def _score_all(reward, completions, requirements):
    runner, scorer = reward
    return runner.run(scorer.score_many(completions, requirements))


def test_completions_are_one_fenced_valid_svg_and_deterministic():
    for item in [*TEST_ITEMS[:10], *load_prompts()]:
        completion = draw_svg(item)
        assert completion == draw_svg(item)
        assert completion.startswith("```svg\n<svg ") and completion.endswith("</svg>\n```")
        found = extract_svg(completion)
        assert found.well_formatted and found.svg is not None
        parse_svg(found.svg)  # the safe parser accepts it
        assert not isinstance(prepare(completion), tuple)
    assert any(draw_svg(i, seed=1) != draw_svg(i) for i in TEST_ITEMS)


def test_expert_on_generated_test_seeds(reward):
    scores = _score_all(reward, [draw_svg(i) for i in TEST_ITEMS],
                        [i.requirements for i in TEST_ITEMS])
    mean = statistics.mean(s.total for s in scores)
    print(f"\nsvg expert, gen-svg test seeds {TEST_SEED_START}..+29: mean reward {mean:.4f}")
    assert all(s.components["validity"] == 1.0 for s in scores), [s.error for s in scores]
    assert all(s.components["non_blank"] == 1.0 for s in scores)
    assert mean >= 0.9
    assert all(s.components["coverage"] == 1.0 for s in scores)  # every atom decided
    floor = _score_all(reward, [random_svg(i) for i in TEST_ITEMS],
                       [i.requirements for i in TEST_ITEMS])
    floor_mean = statistics.mean(s.total for s in floor)
    print(f"svg random, the same seeds: mean reward {floor_mean:.4f}")
    assert floor_mean <= 0.4
    other_seed = _score_all(reward, [draw_svg(i, seed=5) for i in TEST_ITEMS[:10]],
                            [i.requirements for i in TEST_ITEMS[:10]])
    assert statistics.mean(s.total for s in other_seed) >= 0.9


def test_expert_on_packaged_prompts(reward):
    items = load_prompts()
    scores = _score_all(reward, [draw_svg(i) for i in items] + [TRIVIAL] * len(items),
                        [i.requirements for i in items] * 2)
    expert, trivial = scores[:len(items)], scores[len(items):]
    mean = statistics.mean(s.total for s in expert)
    print(f"\nsvg expert, svg-prompts ({len(items)} items): mean reward {mean:.4f}")
    for item, mine, empty in zip(items, expert, trivial, strict=True):
        assert mine.components["validity"] == 1.0, (item.id, mine.error)
        assert mine.total > empty.total, (item.id, mine.total, empty.total)
    assert mean >= 0.8


def _absent_colour(completion: str) -> str:
    """A basic colour word that nothing in the drawing answers to."""
    prepared = prepare(completion)
    assert not isinstance(prepared, tuple)
    painted = {c for shape in prepared.facts.shapes for c in shape.colors}
    return next(word for word in FAMILIES if word not in ("black", "white", "gray")
                and not any(color_spec(word).matches(c) for c in painted))


def _changed(item: SvgItem, completion: str) -> tuple[list[str], int] | None:
    """The item's requirements with one changed so the drawing no longer meets it: a relation
    turned around, else the first colour swapped for one the drawing does not use."""
    for index, text in enumerate(item.requirements):
        if isinstance(parse_requirement(text), Relation):
            for words, opposite in _OPPOSITE.items():
                if f" {words} " in text:
                    changed = list(item.requirements)
                    changed[index] = text.replace(f" {words} ", f" {opposite} ", 1)
                    return changed, index
    absent = _absent_colour(completion)
    for index, text in enumerate(item.requirements):
        for word in FAMILIES:
            if re.search(rf"\b{word}\b", text):
                changed = list(item.requirements)
                changed[index] = re.sub(rf"\b{word}\b", absent, text, count=1)
                if parse_requirement(changed[index]) is not None:
                    return changed, index
    return None


def test_changed_requirements_are_not_met(reward):
    """The reward is not trivially satisfied: the same drawing fails an altered requirement."""
    items = TEST_ITEMS[:12]
    completions = [draw_svg(i) for i in items]
    changes = [_changed(i, c) for i, c in zip(items, completions, strict=True)]
    assert all(change is not None for change in changes)
    originals = _score_all(reward, completions, [i.requirements for i in items])
    altered = _score_all(reward, completions, [change[0] for change in changes])
    for item, change, before, after in zip(items, changes, originals, altered, strict=True):
        index = change[1]
        assert after.details[index].verdict == "fail", (item.id, change[0][index],
                                                        after.details[index].detail)
        assert after.total < before.total, item.id
