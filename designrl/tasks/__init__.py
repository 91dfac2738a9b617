"""Every task designrl runs, in one flat registry: task id -> family and where its items come from.

    from designrl.tasks import TASKS, load_rows, reward_function
    TASKS["gen-poster"].family                     # "layout"
    rows = load_rows("svg-prompts", runner=runner)  # TRL dataset rows
    svg_reward = reward_function("svg", runner)     # TRL reward function

Families:

* ``layout``: multi-turn episodes in ``designrl.tasks.layout.LayoutEnv``; a
  task's items are seeds (DesignGym's tasks and the generated families);
* ``html``, ``svg``, ``webpage``: single-turn: a chat prompt, one completion,
  and a batch reward function (TRL's signature) from the family's
  ``get_*_reward``. Rows carry the prompt and the column the reward reads
  (``reference_html``, ``requirements``, ``request``).

Tasks whose items live in a file or folder the user has (``design2code``,
``websight``, ``svgbench``) take its ``path``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from designrl.tasks.layout.generate import FAMILIES as LAYOUT_GENERATORS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS

if TYPE_CHECKING:
    from designrl.render.runner import PoolRunner

FAMILIES = ("layout", "html", "svg", "webpage")


@dataclass(frozen=True)
class Task:
    id: str
    family: str
    source: str  # what its items are
    needs_path: bool = False


TASKS: dict[str, Task] = {task.id: task for task in (
    *(Task(i, "layout", "DesignGym's task; items are seeds") for i in DESIGNGYM_TASK_IDS),
    *(Task(f"gen-{g}", "layout", f"generated {g} layouts; items are seeds")
      for g in LAYOUT_GENERATORS),
    Task("design2code", "html", "a Design2Code-style folder of N.html pages", needs_path=True),
    Task("websight", "html", "a WebSight-style JSONL file (html or text per line)",
         needs_path=True),
    Task("svg-prompts", "svg", "designrl's own prompts with requirements"),
    Task("svgbench", "svg", "SVGBench's questions.json (or a file in its format)",
         needs_path=True),
    Task("webpage-prompts", "webpage", "designrl's own webpage requests"),
)}


def family_of(task_id: str) -> str:
    try:
        return TASKS[task_id].family
    except KeyError:
        raise ValueError(f"unknown task {task_id!r}; known: {', '.join(TASKS)}") from None


def load_items(task_id: str, path: str | Path | None = None, limit: int | None = None) -> list:
    """The items of a single-turn task (``HtmlItem``, ``SvgItem`` or ``WebpageItem``)."""
    task = TASKS.get(task_id)
    family = family_of(task_id)
    if family == "layout":
        raise ValueError(f"{task_id} is a layout task: its items are seeds for LayoutEnv.reset")
    if task.needs_path and path is None:
        raise ValueError(f"task {task_id} needs a path: {task.source}")
    if task_id == "design2code":
        from designrl.tasks.html.dataset import load_design2code
        return load_design2code(path, limit)
    if task_id == "websight":
        from designrl.tasks.html.dataset import iter_websight
        return list(islice(iter_websight(path), limit))
    if task_id == "svgbench":
        from designrl.tasks.svg.dataset import load_questions
        return load_questions(path, limit)
    if task_id == "svg-prompts":
        from designrl.tasks.svg.dataset import load_prompts as load_svg_prompts
        return load_svg_prompts()[:limit]
    from designrl.tasks.webpage.dataset import load_prompts as load_webpage_prompts
    return load_webpage_prompts(path)[:limit]


def load_rows(task_id: str, path: str | Path | None = None, limit: int | None = None,
              runner: PoolRunner | None = None) -> list[dict[str, Any]]:
    """Dataset rows (``datasets.Dataset.from_list`` takes them) of a single-turn task:
    ``prompt`` (chat messages), the reward's column, ``task_id`` and ``item_id``.

    html prompts show the reference's screenshot, rendered here: they need ``runner``.
    """
    family = family_of(task_id)
    items = load_items(task_id, path, limit)
    if family == "html":
        if runner is None:
            raise ValueError("html rows show a rendered screenshot: pass a PoolRunner")
        return [_html_row(task_id, item, runner) for item in items]
    if family == "svg":
        from designrl.tasks.svg.prompt import build_messages as svg_messages
        return [{"prompt": svg_messages(item), "requirements": list(item.requirements),
                 "task_id": task_id, "item_id": item.id} for item in items]
    from designrl.tasks.webpage.prompt import build_messages as webpage_messages
    return [{"prompt": webpage_messages(item), "request": item.prompt,
             "task_id": task_id, "item_id": item.id} for item in items]


def _html_row(task_id: str, item, runner: PoolRunner) -> dict[str, Any]:
    from designrl.tasks.html.prompt import build_messages as html_messages

    render = runner.render(item.html)
    if not render.ok or not render.png:
        raise ValueError(f"{task_id} item {item.id}: the reference page does not render "
                         f"({render.error or 'no screenshot'})")
    return {"prompt": html_messages(render.png), "reference_html": item.html,
            "task_id": task_id, "item_id": item.id}


def reward_function(family: str, runner: PoolRunner | None = None,
                    **options: Any) -> Callable[..., list]:
    """The batch reward function of a single-turn family (``options`` go to its factory)."""
    if family == "html":
        from designrl.tasks.html.reward import get_html_reward
        return get_html_reward(runner, **options)
    if family == "svg":
        from designrl.tasks.svg.reward import get_svg_reward
        return get_svg_reward(runner, **options)
    if family == "webpage":
        from designrl.tasks.webpage.reward import get_webpage_reward
        return get_webpage_reward(runner, **options)
    raise ValueError(f"no batch reward function for family {family!r}: layout is scored by "
                     "LayoutEnv episodes" if family == "layout" else f"unknown family {family!r}")
