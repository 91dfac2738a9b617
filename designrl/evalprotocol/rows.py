"""An Eval Protocol row as the episode it runs: which task item, which policy, which prompt.

The row names its item in ``input_metadata.row_id`` (Eval Protocol's id of a dataset row,
sent as ``metadata.row_id``): ``"<task>:<key>"``, as ``"gen-svg:1000003"`` (a seed) or
``"svg-prompts:traffic-light"`` (an item id; ``f"{task_id}:{item_id}"`` of a
``designrl.tasks.load_rows`` row, whose generated ids read as their seeds: ``gen-svg:gen-
svg-1000003`` is ``gen-svg:1000003``); a bare ``"<key>"`` is an item of
``completion_params["task"]`` (default ``gen-svg``, the svg family).
``completion_params["dataset"]`` names a registered dataset for tasks that read one
(``svgbench``). ``completion_params["model"]`` is the policy, by our names (``expert``,
``random``, ``vllm:<served model>``, ``vllm:latest``, ``predictions:<set>``).

The row's messages must ask what the item asks: a row with a user message whose text is
not the item's prompt is refused (it would be scored against requirements it never
stated); a row with none is asked the item's prompt. Either way the policy sees the
item's messages (``Family.messages``), and the trace shows those. html items (their
prompt is a rendered screenshot) and layout tasks (multi-turn) are not run this way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from designrl.evalprotocol.wire import InitRequest
from designrl.tasks import FAMILIES, TASKS, find_item

DEFAULT_TASK = "gen-svg"


class RowError(ValueError):
    """A row that names no runnable item or policy; the message says what to send."""


@dataclass(frozen=True)
class RowTarget:
    """What a row runs: the task, the item's key (a seed or an id), the dataset a dataset
    task reads (a registered name), and the policy."""

    task_id: str
    key: str
    policy: str
    dataset: str | None = None

    @property
    def seed(self) -> int | None:
        return int(self.key) if TASKS[self.task_id].seeded else None


def row_target(init: InitRequest) -> RowTarget:
    """The task item and policy ``init`` names (``RowError`` says what is missing)."""
    params = init.completion_params
    policy = params.get("model")
    if not isinstance(policy, str) or not policy.strip():
        raise RowError("completion_params.model names the policy: expert, random, "
                       "vllm:<served model>, vllm:latest or predictions:<set>")
    default = params.get("task") or DEFAULT_TASK
    if not isinstance(default, str) or default not in TASKS:
        raise RowError(f"completion_params.task {str(default)[:100]!r} is not a task; "
                       f"known: {', '.join(runnable_tasks())}")
    task_id, key = _split(init.metadata.row_id, default)
    _check_task(task_id, init.metadata.row_id)
    if TASKS[task_id].seeded:  # a generated item's id (load_rows' item_id) names its seed
        key = key.removeprefix(f"{task_id}-")
    if TASKS[task_id].seeded and not key.isdecimal():
        raise RowError(f"row_id {init.metadata.row_id!r}: {task_id} items are seeds; name "
                       f"one as '{task_id}:<seed>', e.g. '{task_id}:1000003'")
    dataset = params.get("dataset")
    if dataset is not None and not isinstance(dataset, str):
        raise RowError("completion_params.dataset names a registered dataset (a string)")
    return RowTarget(task_id=task_id, key=key, policy=policy.strip(), dataset=dataset)


def runnable_tasks() -> list[str]:
    """Tasks a row may name: single-turn ones whose prompt is text."""
    return [t for t, task in TASKS.items() if _runs(task.family)]


def _runs(family: str) -> bool:
    return not FAMILIES[family].multi_turn and FAMILIES[family].reference is None


def _split(row_id: str, default_task: str) -> tuple[str, str]:
    task_id, sep, key = row_id.partition(":")
    if sep and task_id in TASKS:
        return task_id, key
    return default_task, row_id


def _check_task(task_id: str, row_id: str) -> None:
    if not _runs(TASKS[task_id].family):
        raise RowError(f"row_id {row_id!r} names a {TASKS[task_id].family} task; Eval "
                       f"Protocol rows run these tasks: {', '.join(runnable_tasks())}")


def item_messages(target: RowTarget, path: str | None,
                  row_messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The item's prompt messages, checked against the row's: ``RowError`` if the item does
    not exist or the row's user message asks something else. ``path`` is the file of
    the registered dataset a dataset task reads."""
    try:
        item = find_item(target.task_id, target.key, path)
    except ValueError as exc:
        raise RowError(str(exc)) from None
    messages = FAMILIES[TASKS[target.task_id].family].messages(item, None)
    asked = _last_user_text(row_messages)
    if asked is not None and _plain(asked) != _plain(_last_user_text(messages) or ""):
        raise RowError(f"the row's user message is not the prompt of {target.task_id} item "
                       f"{target.key!r}: send that item's messages (designrl.tasks.load_rows "
                       f"gives them) or no user message; it begins "
                       f"{_plain(_last_user_text(messages) or '')[:80]!r}")
    return messages


def _last_user_text(messages: list[dict[str, Any]]) -> str | None:
    for message in reversed(messages):
        if message.get("role") == "user":
            return _text(message.get("content"))
    return None


def _text(content: Any) -> str:
    """A message's text: the string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text") or "" for part in content
                       if isinstance(part, dict) and part.get("type") == "text")
    return ""


def _plain(text: str) -> str:
    return " ".join(text.split())
