"""The registry: every task family, one line each, and the calls that dispatch through it.

    from designrl.tasks import FAMILIES, TASKS, find_item, load_rows, reward_functions
    FAMILIES["svg"].policies                       # model-free policies by name
    TASKS["gen-poster"].family                     # "layout"
    item = find_item("gen-svg", "1000003")         # a seed, or a dataset item's id
    rows = load_rows("svg-prompts", runner=runner)  # TRL dataset rows
    svg_funcs = reward_functions("svg", runner)    # TRL reward functions: total, components

Families (``designrl.tasks.family.Family``):

* ``layout``: multi-turn episodes in ``LayoutEnv``; a task's items are seeds
  (DesignGym's tasks and the generated families);
* ``html``, ``svg``, ``webpage``: single-turn: a chat prompt, one completion, a
  render and a reward. Items are seeds of a generator (``gen-html``, ``gen-svg``),
  a set shipped with designrl, or a user's file (``needs_path``).

Splits: seeds below ``TEST_SEED_START`` are train, from it test; a dataset item is
test when a stable hash of its id says so (a fifth of them).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from designrl.tasks import html, layout, svg, webpage
from designrl.tasks.family import TEST_SEED_START, Family, Task

if TYPE_CHECKING:
    from designrl.render.runner import PoolRunner

FAMILIES: dict[str, Family] = {f.name: f for f in (
    layout.FAMILY,
    html.FAMILY,
    svg.FAMILY,
    webpage.FAMILY,
)}
TASKS: dict[str, Task] = {t.id: t for f in FAMILIES.values() for t in f.tasks}
TEST_SHARE = 5  # one dataset item in TEST_SHARE is in the test split


def family_of(task_id: str) -> str:
    try:
        return TASKS[task_id].family
    except KeyError:
        raise ValueError(f"unknown task {task_id!r}; known: {', '.join(TASKS)}") from None


def get_family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown family {name!r}; known: {', '.join(FAMILIES)}") from None


def is_test_item(task_id: str, key: str | int) -> bool:
    """Whether an item is in its task's test split (held out from training)."""
    if TASKS[task_id].seeded:
        return int(key) >= TEST_SEED_START
    return zlib.crc32(str(key).encode()) % TEST_SHARE == 0


def _checked(task_id: str, path: str | Path | None) -> Task:
    task = TASKS[task_id] if task_id in TASKS else TASKS[family_of(task_id)]  # names the known
    if FAMILIES[task.family].multi_turn:
        raise ValueError(f"{task_id} is a layout task: its items are seeds for LayoutEnv.reset")
    if task.needs_path and path is None:
        raise ValueError(f"task {task_id} needs a path: {task.source}")
    if path is not None and not task.reads_path:
        raise ValueError(f"task {task_id} reads no file: {task.source}")
    return task


def _loaded(task_id: str, path: str | None) -> tuple:
    """A dataset's items, read again when its file changes."""
    stamp = None if path is None else Path(path).stat().st_mtime_ns
    return _read(task_id, path, stamp)


@lru_cache(maxsize=16)
def _read(task_id: str, path: str | None, stamp: int | None) -> tuple:
    return tuple(TASKS[task_id].load(Path(path) if path is not None else None))


def load_items(task_id: str, path: str | Path | None = None, limit: int | None = None,
               seeds: list[int] | None = None) -> list:
    """The items of a single-turn task: a dataset's (in order), or a generator's for
    ``seeds`` (default: the first ``limit`` or 3 test seeds)."""
    task = _checked(task_id, path)
    if task.generate is not None:
        seeds = seeds if seeds is not None else [TEST_SEED_START + i for i in range(limit or 3)]
        return [task.generate(s) for s in seeds]
    return list(islice(_loaded(task_id, None if path is None else str(path)), limit))


def find_item(task_id: str, key: str | int, path: str | Path | None = None) -> Any:
    """One item of a single-turn task: by seed for a generated task, else by its id."""
    task = _checked(task_id, path)
    if task.generate is not None:
        try:
            return task.generate(int(key))
        except ValueError:
            raise ValueError(f"{task_id} items are seeds (integers), not {key!r}") from None
    items = _loaded(task_id, None if path is None else str(path))
    for item in items:
        if item.id == str(key):
            return item
    known = ", ".join(i.id for i in items[:10]) + (", ..." if len(items) > 10 else "")
    raise ValueError(f"{task_id} has no item {key!r}; its items: {known}")


def load_rows(task_id: str, path: str | Path | None = None, limit: int | None = None,
              runner: PoolRunner | None = None,
              seeds: list[int] | None = None) -> list[dict[str, Any]]:
    """Dataset rows (``datasets.Dataset.from_list`` takes them) of a single-turn task:
    ``prompt`` (chat messages), the reward's column, ``task_id`` and ``item_id``; the items
    are ``load_items``'s (a generated task's ``seeds``, by default test seeds).

    html prompts show the reference's screenshot, rendered here: they need ``runner``.
    """
    family = FAMILIES[family_of(task_id)]
    items = load_items(task_id, path, limit, seeds)
    if family.reference is not None and runner is None:
        raise ValueError("html rows show a rendered screenshot: pass a PoolRunner")
    rows = []
    for item in items:
        screenshot = None if family.reference is None else reference_screenshot(
            family, item, runner, task_id)
        rows.append({"prompt": family.messages(item, screenshot), family.column: family.column_value(item),
                     "task_id": task_id, "item_id": item.id})
    return rows


def reference_screenshot(family: Family, item: Any, runner: PoolRunner, task_id: str) -> bytes:
    """The screenshot of an item's reference page (what an html prompt shows), at the
    viewport the reward scores it at."""
    html = family.reference(item)
    options = {} if family.reference_viewport is None else {
        "viewport": family.reference_viewport(html)}
    render = runner.render(html, **options)
    if not render.ok or not render.png:
        raise ValueError(f"{task_id} item {item.id}: the reference page does not render "
                         f"({render.error or 'no screenshot'})")
    return render.png


def reward_functions(family: str, runner: PoolRunner | None = None,
                     components: Sequence[str] | None = None,
                     **options: Any) -> list[Callable[..., list]]:
    """TRL reward functions of a single-turn family: its total (``<family>_reward``), then
    each named component (``<family>_<name>``; default: all of the family's), every one
    reading the same scoring of a completion; ``options`` go to the family's factory
    (``get_svg_rewards`` and its kin). They pickle; without ``runner`` each process starts
    its own browser pool on the first call.

        funcs = reward_functions("svg", runner)
        GRPOTrainer(..., reward_funcs=funcs,
                    args=GRPOConfig(reward_weights=[1] + [0] * (len(funcs) - 1)))

    >>> [f.__name__ for f in reward_functions("webpage", components=["execution"])]
    ['webpage_reward', 'webpage_execution']
    """
    return _single_turn(family).batch_rewards(runner, components, **options)


def reward_function(family: str, runner: PoolRunner | None = None,
                    **options: Any) -> Callable[..., list]:
    """The batch reward function of a single-turn family, its total (``options`` go to its
    factory).

    >>> reward_function("svg").__name__
    'svg_reward'
    """
    return _single_turn(family).batch_rewards(runner, (), **options)[0]


def _single_turn(family: str) -> Family:
    """A family scored by batch reward functions (every family but layout)."""
    record = get_family(family)
    if record.multi_turn:
        raise ValueError(f"{family} is scored by its episodes (LayoutEnv), not by batch "
                         "reward functions")
    return record
