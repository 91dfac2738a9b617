"""The batched scorer agrees with the scalar metrics, utility, instruction score and hard
constraints to 1e-9, over episode states, perturbed boxes, ties and degenerate tasks."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from designrl.policies.layout_random import random_action
from designrl.tasks.layout.designgym import REGION_CENTERS, DesignGymEpisode
from designrl.tasks.layout.generate import FAMILIES, generate_task
from designrl.tasks.layout.metrics import (
    METRIC_NAMES,
    compute_metrics,
    hard_violation,
    instruction_of_view,
    instruction_targets,
    utility,
    view,
)
from designrl.tasks.layout.scorer import BatchScorer
from designrl.tasks.layout.spec import (
    DESIGNGYM_TASK_IDS,
    Element,
    Layout,
    TaskSpec,
    designgym_task,
)

TOL = 1e-9


def _episode_layouts(task: TaskSpec, rng: random.Random, episodes: int) -> list[Layout]:
    out = []
    for seed in range(episodes):
        episode = DesignGymEpisode(task)
        episode.reset(seed)
        out.append(episode.layout)
        while not episode.done:
            episode.advance(random_action(task, rng, decimals=None))
            out.append(episode.layout)
    return out


def _layout(task: TaskSpec, boxes: np.ndarray, z) -> Layout:
    return Layout([Element(s.id, [float(v) for v in box], int(zz))
                   for s, box, zz in zip(task.elements, boxes, z, strict=True)])


def _variants(task: TaskSpec, base: list[Layout], rng: np.random.Generator) -> list[Layout]:
    """Perturbed boxes, shuffled z, and tie and degenerate cases built from the base layouts."""
    n = len(task.elements)
    locked = np.array([bool(s.aspect_ratio) for s in task.elements])
    out = []
    for layout in base[::2]:
        boxes = np.array([e.bbox for e in layout.elements])
        z = np.array([e.z for e in layout.elements])
        # perturbed (may leave the safe area or break sizes and ratios)
        noisy = boxes + rng.normal(0.0, 0.05, boxes.shape)
        noisy[:, 2:] = np.abs(noisy[:, 2:]) + 1e-3
        out.append(_layout(task, noisy, rng.integers(1, n + 1, n)))
        # snapped to a coarse grid: many equal coordinates, gaps and anchors
        snapped = np.round(noisy * 8) / 8
        snapped[:, 2:] = np.maximum(snapped[:, 2:], 0.125)
        out.append(_layout(task, snapped, z))
        # identical x (and identical y) for several elements
        tied = boxes.copy()
        pick = rng.choice(n, size=min(n, 3), replace=False)
        tied[pick, 0] = tied[pick[0], 0]
        tied[rng.choice(n, size=min(n, 3), replace=False), 1] = tied[pick[0], 1]
        out.append(_layout(task, tied, z))
        # two elements with the same box and z (tied salience), the rest z-tied too
        same = boxes.copy()
        same[pick[-1]] = same[pick[0]]
        out.append(_layout(task, same, np.full(n, 2)))
        # zero-area boxes (h = 0 anywhere, w = 0 where the ratio is free)
        flat = boxes.copy()
        flat[rng.random(n) < 0.4, 3] = 0.0
        flat[(rng.random(n) < 0.4) & ~locked, 2] = 0.0
        out.append(_layout(task, flat, z))
    # every element on one box: one tie run, no gaps
    out.append(_layout(task, np.tile(boxes[0], (n, 1)), np.ones(n)))
    return out


def _degenerate_tasks(task: TaskSpec) -> list[TaskSpec]:
    """One group and constant importance; no reading pairs, intents or text; 1 and 2 elements."""
    flat = task.model_copy(update={
        "elements": [s.model_copy(update={"group": "all", "importance": 0.5}) for s in task.elements],
        "reading_order": [], "intent_regions": {},
    })
    no_text = task.model_copy(update={
        "elements": [s.model_copy(update={"type": "shape"}) for s in task.elements],
        "reading_order": [(task.elements[0].id, "missing")],
    })
    small = [task.model_copy(update={"elements": task.elements[:k]}) for k in (1, 2)]
    return [flat, no_text, *small]


def _layouts_for(task: TaskSpec, seed: int) -> list[Layout]:
    base = _episode_layouts(task, random.Random(seed), episodes=3)
    return base + _variants(task, base, np.random.default_rng(seed))


def _check(task: TaskSpec, layouts: list[Layout]) -> None:
    scorer = BatchScorer(task)
    boxes, z = scorer.boxes_of(layouts)
    got = scorer.metrics(boxes, z)
    got_utility = scorer.utility(boxes, z)
    got_hard = scorer.hard_violation_mask(boxes)
    briefs = [instruction_targets(b, REGION_CENTERS) for b in task.briefs]
    region_centres = {k: (x + w / 2, y + h / 2) for k, (x, y, w, h) in task.region_boxes.items()}
    briefs += [instruction_targets(b, region_centres) for b in task.briefs]
    briefs.append([(task.elements[0].id, (0.3, 0.7)), ("missing", (0.5, 0.5)),
                   (task.elements[-1].id, None)])
    briefs.append([])
    got_instruction = [scorer.instruction(boxes, targets) for targets in briefs]
    assert got.shape == (len(layouts), len(METRIC_NAMES))
    for b, layout in enumerate(layouts):
        want = compute_metrics(task, layout)
        for k, name in enumerate(METRIC_NAMES):
            assert abs(got[b, k] - want[name]) <= TOL, (task.task_id, b, name, got[b, k], want[name])
        assert abs(got_utility[b] - utility(task, want)) <= TOL, (task.task_id, b)
        assert bool(got_hard[b]) == (hard_violation(task, layout) is not None), (task.task_id, b)
        v = view(task, layout)
        for targets, values in zip(briefs, got_instruction, strict=True):
            assert abs(values[b] - instruction_of_view(v, targets)) <= TOL, (task.task_id, b)
    assert np.isfinite(got).all()


TASKS = [(t, 0) for t in DESIGNGYM_TASK_IDS] + [(f, s) for f in FAMILIES for s in (0, 1, 7)]


@pytest.mark.parametrize(("name", "seed"), TASKS)
def test_batched_matches_scalar(name, seed):
    task = designgym_task(name) if name in DESIGNGYM_TASK_IDS else generate_task(name, seed)
    layouts = _layouts_for(task, seed)
    assert len(layouts) > 40
    _check(task, layouts)


@pytest.mark.parametrize("name", ["dense_flyer_v1", "banner", "mobile"])
def test_degenerate_tasks(name):
    task = designgym_task(name) if name in DESIGNGYM_TASK_IDS else generate_task(name, 3)
    layouts = _layouts_for(task, 5)
    for variant in _degenerate_tasks(task):
        ids = [s.id for s in variant.elements]
        sub = [Layout([e for e in lay.elements if e.id in ids]) for lay in layouts]
        _check(variant, sub)


def test_hit_fallbacks_and_ties():
    """The test layouts do reach the fallback branches and tie handling they are meant to."""
    task = designgym_task("editorial_cover_v1")
    layouts = _layouts_for(task, 0)
    metrics = [compute_metrics(task, lay) for lay in layouts]
    assert any(m["spacing"] == 0.5 for m in metrics)
    assert any(m["spacing"] != 0.5 for m in metrics)
    assert any(hard_violation(task, lay) is not None for lay in layouts)
    assert any(hard_violation(task, lay) is None for lay in layouts)
    assert any(len({e.bbox[0] for e in lay.elements}) < len(lay.elements) for lay in layouts)


def test_boxes_of_reorders_and_broadcasts_z():
    task = designgym_task("poster_basic_v1")
    episode = DesignGymEpisode(task)
    episode.reset(4)
    layout = episode.layout
    shuffled = Layout(list(reversed(layout.elements)))
    scorer = BatchScorer(task)
    boxes, z = scorer.boxes_of([layout, shuffled])
    assert np.array_equal(boxes[0], boxes[1]) and np.array_equal(z[0], z[1])
    one = scorer.metrics(boxes[:1], z[0])  # z of shape (n,)
    want = compute_metrics(task, layout)
    assert all(math.isclose(one[0, k], want[n], abs_tol=TOL) for k, n in enumerate(METRIC_NAMES))
    with pytest.raises(ValueError):
        scorer.boxes_of([Layout(layout.elements[:-1])])
