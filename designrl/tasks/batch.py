"""What every batch reward function shares: the completion's text and the dataset columns.

Reward functions have TRL's signature, ``reward(prompts, completions, **columns)
-> list[float | None]``: TRL passes every dataset column as a keyword list, one
value per completion. A completion is a string, or (conversational datasets) a
list of messages whose last assistant turn is the answer. ``None`` marks a row
the function does not apply to (its column is empty there), as TRL expects in a
dataset that mixes task families.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any


def completion_text(completion: Any) -> str:
    """The text of one completion: a string, or the last assistant message's text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, Sequence):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                return _content_text(message.get("content"))
    raise TypeError(f"a completion is a string or a list of messages, not {type(completion).__name__}")


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # content parts: keep the text ones
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and part.get("type") == "text")
    return ""


def column(name: str, values: Sequence[Any] | None, count: int) -> list[Any]:
    """One dataset column as a list aligned with the completions; a clear error if it is not."""
    if values is None:
        raise ValueError(f"the dataset has no {name!r} column, which this reward needs")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"column {name!r} has {len(values)} values for {count} completions")
    return values


def batch_reward(name: str, column_name: str,
                 score: Callable[[Any, str], Awaitable[float | None]],
                 run: Callable[[Coroutine], Any]) -> Callable[..., list[float | None]]:
    """A reward function with TRL's signature, called ``name``, that awaits
    ``score(row value, completion text)`` for every completion at once, through ``run``
    (e.g. ``PoolRunner.run``, which owns the event loop); rows whose ``column_name``
    value is None get None without being scored."""

    async def scored(value: Any, text: str) -> float | None:
        return None if value is None else await score(value, text)

    def reward(prompts: Sequence[Any] | None = None, completions: Sequence[Any] = (),
               **columns: Any) -> list[float | None]:
        texts = [completion_text(c) for c in completions]
        values = column(column_name, columns.get(column_name), len(texts))

        async def all_rows() -> list[float | None]:
            return list(await asyncio.gather(*(scored(v, t) for v, t in zip(values, texts,
                                                                              strict=True))))
        return run(all_rows())

    reward.__name__ = reward.__qualname__ = name
    return reward


def component_rewards(prefix: str, column_name: str,
                      score: Callable[[Any, str], Awaitable[Any]], names: Sequence[str],
                      run: Callable[[Coroutine], Any], cache_size: int = 4096
                      ) -> list[Callable[..., list[float | None]]]:
    """TRL reward functions for the total (``{prefix}_reward``) and each named component
    (``{prefix}_{name}``) of one scoring: ``score(row value, text)`` returns a ``Scored``,
    and every function of the list reads the same one, so a completion is rendered once
    however many of them TRL calls (log the components with weight 0). A component a
    completion did not get (a page that did not load has no aesthetics) is None."""
    cache: dict[tuple[str, str], asyncio.Future] = {}

    def scored(value: Any, text: str) -> Awaitable[Any]:
        key = (json.dumps(value, sort_keys=True, default=str), text)
        if key not in cache:
            if len(cache) >= cache_size:
                cache.pop(next(iter(cache)))
            cache[key] = asyncio.ensure_future(score(value, text))
        return asyncio.shield(cache[key])

    async def total(value: Any, text: str) -> float:
        return (await scored(value, text)).total

    def component(name: str):
        async def one(value: Any, text: str) -> float | None:
            return (await scored(value, text)).components.get(name)
        return one

    return [batch_reward(f"{prefix}_reward", column_name, total, run),
            *(batch_reward(f"{prefix}_{name}", column_name, component(name), run)
              for name in names)]
