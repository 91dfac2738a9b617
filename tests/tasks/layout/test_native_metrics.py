"""The C extension (``_cmetrics``) computes exactly what metrics.py's Python computes.

``metrics.evaluate`` uses the extension when it is built. These tests compare it
with the Python functions (``metrics_of_view``, ``utility``,
``hard_violation_of_view``, ``instruction_of_view``) bit for bit (``float.hex``) on
tens of thousands of layouts: reset states and random-action states of both
profiles on DesignGym's tasks and on generated tasks of every family (non-square
canvases included), then the same layouts perturbed (jitter, ties from coarse
grids and copied boxes, zero-area and negative boxes, tiny and large scales, z
ties, shuffled, partial and duplicated element orders) with brief and random
instruction targets. A layout the extension leaves to Python (non-finite or int
coordinates, unknown ids, math domain errors) must give the same result, or the
same exception, through ``evaluate``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from designrl.policies.layout_random import random_action
from designrl.tasks.layout import metrics
from designrl.tasks.layout.default_profile import DefaultEpisode
from designrl.tasks.layout.designgym import REGION_CENTERS, DesignGymEpisode
from designrl.tasks.layout.generate import FAMILIES, generate_task
from designrl.tasks.layout.metrics import (
    METRIC_NAMES,
    LayoutView,
    hard_violation_of_view,
    instruction_of_view,
    instruction_targets,
    metrics_of_view,
    task_info,
    utility,
)
from designrl.tasks.layout.spec import (
    DESIGNGYM_TASK_IDS,
    Element,
    Layout,
    TaskSpec,
    designgym_task,
)

needs_native = pytest.mark.skipif(
    not metrics.native_available(),
    reason=("C extension designrl.tasks.layout._cmetrics is not built "
            f"({metrics.NATIVE_IMPORT_ERROR}); nothing to compare"),
)


@pytest.fixture(autouse=True)
def _restore_path():
    before = metrics.native_active()
    yield
    metrics.use_native(before)


def test_extension_built_when_required():
    """With DESIGNRL_REQUIRE_NATIVE=1 (e.g. in CI) a missing build is a failure, not a skip."""
    if os.environ.get("DESIGNRL_REQUIRE_NATIVE") != "1":
        pytest.skip("DESIGNRL_REQUIRE_NATIVE is not 1: the C extension is optional")
    assert metrics.native_available(), (
        f"designrl.tasks.layout._cmetrics did not build or import: {metrics.NATIVE_IMPORT_ERROR}")
    assert all(task_info(designgym_task(t)).native is not None for t in DESIGNGYM_TASK_IDS)


# --------------------------------------------------------------------------- helpers


def _tasks() -> list[TaskSpec]:
    tasks = [designgym_task(t) for t in DESIGNGYM_TASK_IDS]
    tasks += [generate_task(family, seed) for family in FAMILIES for seed in range(5)]
    assert any(t.canvas_aspect != 1.0 for t in tasks)
    return tasks


def _episode_layouts(task: TaskSpec, seeds: range, rng: random.Random) -> list[Layout]:
    """Reset and random-action states of both profiles' episodes."""
    layouts = []
    for make in (DesignGymEpisode, DefaultEpisode):
        episode = make(task)
        for seed in seeds:
            episode.reset(seed)
            layouts.append(episode.layout)
            while not episode.done:
                episode.advance(random_action(task, rng, decimals=None))
                if episode.last_action_error is None:
                    layouts.append(episode.layout)
    return layouts


def _perturbed(layout: Layout, task: TaskSpec, rng: random.Random) -> Layout:
    """The layout with one or more random perturbations (ties, degenerate boxes, orders)."""
    elements = [e.copy() for e in layout.elements]
    for _ in range(rng.choice([1, 1, 2, 3])):
        kind = rng.randrange(10)
        if kind == 6:  # shuffled element order
            rng.shuffle(elements)
        elif kind == 7 and len(elements) > 1:  # some elements missing
            elements = rng.sample(elements, rng.randint(1, len(elements) - 1))
        elif kind == 8:  # an element twice
            elements.insert(rng.randrange(len(elements) + 1), rng.choice(elements).copy())
        else:
            _perturb_boxes(elements, kind, rng)
    return Layout(elements)


def _perturb_boxes(elements: list, kind: int, rng: random.Random) -> None:
    """Perturbation ``kind`` of the boxes or z values, in place (any kind but 6 and 8; 7
    is boxes anywhere, as 9 is)."""
    if kind == 0:  # jitter at some scale
        scale = rng.choice([1e-9, 1e-6, 1e-3, 0.02, 0.2])
        for e in elements:
            e.bbox = [v + rng.gauss(0.0, scale) for v in e.bbox]
    elif kind == 1:  # a coarse grid: many equal coordinates (sort and rank ties)
        grid = rng.choice([0.05, 0.1, 0.25])
        for e in elements:
            e.bbox = [round(v / grid) * grid for v in e.bbox]
    elif kind == 2:  # copied boxes: full overlaps, equal anchors and salience
        source = rng.choice(elements)
        for e in rng.sample(elements, rng.randint(1, len(elements))):
            e.bbox = list(source.bbox)
    elif kind == 3:  # zero-area, negative and tiny boxes
        for e in rng.sample(elements, rng.randint(1, len(elements))):
            i = rng.choice([2, 3])
            e.bbox[i] = rng.choice([0.0, -0.0, -0.05, 1e-12, 5e-10])
    elif kind == 4:  # z ties, negative and large z
        pool = rng.choice([[1], [1, 2], list(range(-3, 4)), [10**6, 2**52]])
        for e in elements:
            e.z = rng.choice(pool)
    elif kind == 5:  # the whole layout scaled (1e-310: subnormals)
        factor = rng.choice([1e-310, 1e-300, 1e-160, 1e-8, 3.0, 1e6, 1e40])
        for e in elements:
            e.bbox = [v * factor for v in e.bbox]
    else:  # boxes anywhere, partly off the canvas
        for e in rng.sample(elements, rng.randint(1, len(elements))):
            e.bbox = [rng.uniform(-0.5, 1.2), rng.uniform(-0.5, 1.2),
                      rng.uniform(0.0, 0.9), rng.uniform(0.0, 0.9)]


def _targets(task: TaskSpec, rng: random.Random) -> list[tuple]:
    """Instruction targets: a brief's (DesignGym's centres) or random ones, with missing
    elements and missing regions."""
    brief = rng.choice(task.briefs)
    if rng.random() < 0.5:
        return instruction_targets(brief, REGION_CENTERS)
    ids = [s.id for s in task.elements] + ["ghost"]
    return [(rng.choice(ids), None if rng.random() < 0.15 else (rng.random(), rng.random()))
            for _ in range(rng.randint(0, 4))]


def _python(task: TaskSpec, layout: Layout, targets: list) -> tuple:
    v = LayoutView(task_info(task), layout)
    m = metrics_of_view(v)
    return m, utility(task, m), hard_violation_of_view(v), instruction_of_view(v, targets)


def _bits(result: tuple) -> tuple:
    """A result with every float as its exact bits (so -0.0 != 0.0 and NaN == NaN)."""
    m, util, violation, instruction = result
    assert list(m) == list(METRIC_NAMES)
    assert all(type(x) is float for x in m.values()) and type(util) is float
    assert type(instruction) is float
    return tuple(x.hex() for x in m.values()), util.hex(), violation, instruction.hex()


def _check(task: TaskSpec, layout: Layout, targets: list) -> tuple[bool, str | None]:
    """C vs Python on one layout: (whether the C path took it, the hard violation)."""
    pack = task_info(task).native
    assert pack is not None
    try:
        want = _python(task, layout, targets)
    except ValueError as exc:  # math domain error (log of a non-positive ratio)
        assert metrics._cmetrics.evaluate(pack, layout.elements, targets, True) is None
        metrics.use_native(True)
        with pytest.raises(type(exc)):
            metrics.evaluate(task, layout, targets)
        return False, None
    got = metrics._cmetrics.evaluate(pack, layout.elements, targets, True)
    assert got is not None, (task.task_id, layout)
    assert _bits(got) == _bits(want), (task.task_id, layout.to_json(), targets)
    short = metrics._cmetrics.evaluate(pack, layout.elements, targets, False)
    if want[2] is None:
        assert _bits(short) == _bits(want)
    else:
        assert short == (None, None, want[2], None)
    return True, want[2]


# --------------------------------------------------------------------------- tests


@needs_native
def test_native_equals_python_on_many_layouts():
    rng = random.Random(20240611)
    checked = native = violations = 0
    for task in _tasks():
        seeds = range(8) if task.task_id in DESIGNGYM_TASK_IDS else range(3)
        for layout in _episode_layouts(task, seeds, rng):
            for candidate in [layout] + [_perturbed(layout, task, rng) for _ in range(4)]:
                took, violation = _check(task, candidate, _targets(task, rng))
                checked += 1
                native += took
                violations += violation is not None
    print(f"{checked} layouts compared, {native} on the C path, {violations} with a hard violation")
    assert checked >= 12_000, checked
    assert native >= 0.85 * checked, (native, checked)  # Python raises on the others
    assert violations > 100


@needs_native
def test_native_metrics_on_random_boxes():
    """Boxes drawn at random (overlapping, off-canvas, tiny) on every generated family."""
    rng = random.Random(7)
    checked = 0
    tasks = _tasks()
    for task in tasks:
        ids = [s.id for s in task.elements]
        for _ in range(150):
            elements = [Element(i, [rng.uniform(-0.2, 1.0), rng.uniform(-0.2, 1.0),
                                    rng.uniform(1e-6, 0.8), rng.uniform(1e-6, 0.8)],
                                rng.randint(0, 5)) for i in ids]
            if rng.random() < 0.5:
                rng.shuffle(elements)
            checked += _check(task, Layout(elements), _targets(task, rng))[0]
    assert checked == 150 * len(tasks)  # positive sizes: no domain errors, all on the C path


@needs_native
@pytest.mark.parametrize("factor", [1e-320, 1e-310, 1e-300, 1e-20, 1e20, 1e99])
def test_native_metrics_at_extreme_scales(factor):
    """Scaled reset layouts: subnormal coordinates (math.dist's max_e < -1023 branch, pow
    underflow) up to the largest scale the C path takes (|coordinate| <= 1e100)."""
    rng = random.Random(factor)
    for task in _tasks():
        for layout in _episode_layouts(task, range(1), rng)[:3]:
            scaled = Layout([Element(e.id, [v * factor for v in e.bbox], e.z)
                             for e in layout.elements])
            _check(task, scaled, _targets(task, rng))


@pytest.mark.parametrize("bad", ["nan", "inf", "int", "huge", "ghost", "z_float", "z_huge"])
def test_layouts_the_extension_declines_still_match(bad):
    """Layouts outside the C path's domain go through Python: same values, same errors."""
    task = designgym_task("poster_basic_v1")
    episode = DesignGymEpisode(task)
    episode.reset(1)
    layout = episode.layout.copy()
    e = layout.elements[1]
    if bad == "nan":
        e.bbox[0] = float("nan")
    elif bad == "inf":
        e.bbox[3] = float("inf")
    elif bad == "int":
        e.bbox = [0, 0, 1, 1]
    elif bad == "huge":
        e.bbox[1] = 1e200
    elif bad == "ghost":
        e.id = "ghost"
    elif bad == "z_float":
        e.z = 2.5
    else:
        e.z = 10**30
    targets = instruction_targets(episode.brief, REGION_CENTERS)
    results = {}
    for path in (True, False):
        metrics.use_native(path)
        try:
            results[path] = repr(metrics.evaluate(task, layout, targets))
        except Exception as exc:  # noqa: BLE001 - both paths must raise the same
            results[path] = f"raises {type(exc).__name__}: {exc}"
        finally:
            metrics.use_native(True)
    assert results[True] == results[False]


@pytest.mark.parametrize("make", [DesignGymEpisode, DefaultEpisode])
@needs_native
def test_episodes_identical_on_both_paths(make):
    """Whole episodes, record for record (repr: exact floats), on both scoring paths."""
    rng = random.Random(f"episodes:{make.__name__}")
    for task in _tasks()[::3]:
        for seed in range(2):
            actions = [random_action(task, rng, decimals=None) for _ in range(task.max_steps)]
            records = {}
            for native in (True, False):
                metrics.use_native(native)
                episode = make(task)
                trace = [episode.reset(seed)]
                trace += [episode.step(a) for a in actions]
                trace.append(episode.step({"action_type": "finalize"}))
                records[native] = repr(trace)
            assert len(set(records.values())) == 1, (task.task_id, seed)


def test_use_native_and_env_switch():
    assert metrics.use_native(False) is False and not metrics.native_active()
    assert metrics.use_native(True) is metrics.native_available()
    # The switch is the entry points' (the CLI's here, the services' from their settings).
    code = ("import os; from designrl.cli import use_environment; use_environment(os.environ); "
            "from designrl.tasks.layout import metrics; print(metrics.native_active())")
    env = {**os.environ, "DESIGNRL_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
