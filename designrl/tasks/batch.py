"""TRL reward functions: picklable callables, one per named reward component and the total.

Reward functions have TRL's signature, ``reward(prompts, completions, **columns)
-> list[float | None]``: TRL passes every dataset column as a keyword list, one
value per completion. A completion is a string, or (conversational datasets) a
list of messages whose last assistant turn is the answer. ``None`` marks a row
the function does not apply to (its column is empty there), as TRL expects in a
dataset that mixes task families.

A family's functions (``component_rewards``) are ``RewardFunction`` objects that
share one ``Scoring``: what builds the family's scorer (a picklable factory taking
a started browser pool), the dataset column it reads, and the numbers scored so
far, so a completion is scored once however many of the functions TRL calls (log
the components with weight 0 in ``GRPOConfig.reward_weights``). They hold no live
thread or event loop: the runner (this process's browser pool, or a bare event
loop for a scorer that needs no browser) is taken on the first call in each
process and is never pickled, so the functions go to subprocesses and forked
workers as they are. Functions pickled apart and loaded in one process share one
``Scoring`` again.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import uuid
import weakref
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from designrl.render.runner import PoolRunner

Numbers = tuple[float, dict[str, float]]  # a completion's total and named components
_UNSET = object()


def completion_text(completion: Any) -> str:
    """The text of one completion: a string, or the last assistant message's text.

    >>> completion_text([{"role": "user", "content": "hi"},
    ...                  {"role": "assistant", "content": [{"type": "text", "text": "<svg/>"}]}])
    '<svg/>'
    """
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


class _LoopRunner:
    """An event loop on a daemon thread, for scorers that need no browser (its pool is None)."""

    pool = None

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True,
                         name="designrl-reward-loop").start()

    def run(self, coro: Coroutine) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()


_loops: dict[int, _LoopRunner] = {}  # by pid: a fork starts its own
_loops_lock = threading.Lock()
_live: weakref.WeakValueDictionary[str, Scoring] = weakref.WeakValueDictionary()


def _loop_runner() -> _LoopRunner:
    """This process's bare event loop, started on first use."""
    with _loops_lock:
        if os.getpid() not in _loops:
            _loops[os.getpid()] = _LoopRunner()
        return _loops[os.getpid()]


def _process_runner(pool_options: dict[str, Any]) -> PoolRunner:
    from designrl.rollout.browser import process_runner

    return process_runner(**pool_options)


class Scoring:
    """One family's scoring of completions, shared by its reward functions.

    ``make_scorer(pool)`` builds the scorer (an ``ItemScorer``: its ``score_column(value,
    text)`` returns a ``Scored``, or None for a row it cannot score) on a started browser
    pool, or on None when ``browser`` is False; it must pickle (a class, a
    ``functools.partial``, a module-level function). ``runner``: a started ``PoolRunner``
    to use in this process; without one (and after unpickling) the process's own pool is
    started on the first call, with ``pool_options`` (``designrl.rollout.browser``).
    ``cache_size``: how many completions' numbers are kept.
    """

    def __init__(self, column_name: str, make_scorer: Callable[[Any], Any], *,
                 browser: bool = True, runner: PoolRunner | None = None,
                 pool_options: dict[str, Any] | None = None, cache_size: int = 4096,
                 key: str | None = None) -> None:
        self.column_name = column_name
        self.make_scorer = make_scorer
        self.browser = browser
        self.pool_options = dict(pool_options or {})
        self.cache_size = cache_size
        self.key = key or uuid.uuid4().hex  # names it across pickling
        self.scored = 0  # completions scored (not read from the cache), in this process
        self._given = runner
        self._pid = os.getpid()
        self._scorer: Any = None
        self._scorer_pool: Any = _UNSET
        self._cache: dict[tuple[str, str], Numbers | None] = {}
        self._lock = threading.Lock()
        _live[self.key] = self

    def __reduce__(self):
        # the spec only: no runner, scorer, lock or cache; one Scoring per key in a process
        return (_restore_scoring, (self.key, self.column_name, self.make_scorer, self.browser,
                                   self.pool_options, self.cache_size))

    def numbers(self, values: Sequence[Any], texts: Sequence[str]) -> list[Numbers | None]:
        """Each row's (total, components), scored at once where not already known; None
        for a row whose column value is None (not scored) or that its scorer declined."""
        keys = [None if v is None else (json.dumps(v, sort_keys=True, default=str), t)
                for v, t in zip(values, texts, strict=True)]
        known: dict[tuple[str, str], Numbers | None] = {}
        missing: dict[tuple[str, str], tuple[Any, str]] = {}
        with self._lock:
            for key, value, text in zip(keys, values, texts, strict=True):
                if key is None or key in known or key in missing:
                    continue
                if key in self._cache:
                    known[key] = self._cache[key]
                else:
                    missing[key] = (value, text)
        if missing:
            runner, scorer = self._runner_and_scorer()
            found = runner.run(_score_all(scorer, list(missing.values())))
            known.update(zip(missing, found, strict=True))
            with self._lock:
                self.scored += len(found)
                for key, numbers in zip(missing, found, strict=True):
                    if len(self._cache) >= self.cache_size:
                        self._cache.pop(next(iter(self._cache)))
                    self._cache[key] = numbers
        return [None if key is None else known[key] for key in keys]

    def _runner_and_scorer(self) -> tuple[Any, Any]:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's runner does not run here
                self._given, self._pid = None, os.getpid()
                self._scorer, self._scorer_pool = None, _UNSET
            if self._given is not None:
                runner = self._given
            else:
                runner = _process_runner(self.pool_options) if self.browser else _loop_runner()
            if self._scorer_pool is not runner.pool:  # first call, or a pool started anew
                self._scorer = self.make_scorer(runner.pool)
                self._scorer_pool = runner.pool
            return runner, self._scorer


def _restore_scoring(key: str, column_name: str, make_scorer: Callable[[Any], Any],
                     browser: bool, pool_options: dict[str, Any], cache_size: int) -> Scoring:
    live = _live.get(key)
    if live is not None:
        return live
    return Scoring(column_name, make_scorer, browser=browser, pool_options=pool_options,
                   cache_size=cache_size, key=key)


async def _score_all(scorer: Any, rows: list[tuple[Any, str]]) -> list[Numbers | None]:
    async def one(value: Any, text: str) -> Numbers | None:
        scored = await scorer.score_column(value, text)
        return None if scored is None else (scored.total, dict(scored.components))
    return list(await asyncio.gather(*(one(v, t) for v, t in rows)))


class RewardFunction:
    """A TRL reward function: the total (``component`` None) or one named component of a
    ``Scoring``, called ``name`` (TRL logs ``rewards/<name>/mean``). Picklable.

    A component a completion did not get (a page that did not load has no aesthetics)
    is None, and so is every value of a row whose column is None.
    """

    def __init__(self, scoring: Scoring, name: str, component: str | None = None) -> None:
        self.scoring = scoring
        self.component = component
        self.__name__ = name  # what TRL names the function by

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] = (),
                 **columns: Any) -> list[float | None]:
        texts = [completion_text(c) for c in completions]
        values = column(self.scoring.column_name, columns.get(self.scoring.column_name),
                        len(texts))
        return [None if numbers is None else numbers[0] if self.component is None
                else numbers[1].get(self.component)
                for numbers in self.scoring.numbers(values, texts)]

    def __repr__(self) -> str:
        return f"<RewardFunction {self.__name__}>"


def component_rewards(prefix: str, column_name: str, make_scorer: Callable[[Any], Any],
                      names: Sequence[str], known: Sequence[str] | None = None, *,
                      runner: PoolRunner | None = None, browser: bool = True,
                      pool_options: dict[str, Any] | None = None,
                      cache_size: int = 4096) -> list[RewardFunction]:
    """TRL reward functions for the total (``{prefix}_reward``) and each named component
    (``{prefix}_{name}``) of one ``Scoring`` (the other arguments are its own); ``known``:
    the component names there are, to reject a name not among them.

    The svg family needs no browser when it rasterises with PIL (``browser=False``):

    >>> import pickle
    >>> from designrl.tasks.svg.reward import SvgReward
    >>> funcs = component_rewards("svg", "requirements", SvgReward, ["validity", "format"],
    ...                           browser=False)
    >>> [f.__name__ for f in funcs]
    ['svg_reward', 'svg_validity', 'svg_format']
    >>> square = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' \\
    ...          '<rect x="2" y="2" width="6" height="6" fill="red"/></svg>'
    >>> [f(prompts=["p", "p"], completions=[square, "no"], requirements=[["a blue square"]] * 2)
    ...  for f in funcs]
    [[0.2, 0.0], [1.0, 0.0], [1.0, 0.0]]
    >>> funcs[0].scoring.scored  # two completions, scored once for all three functions
    2
    >>> copies = pickle.loads(pickle.dumps(funcs))
    >>> copies[0](completions=[square], requirements=[None])  # a row it does not apply to
    [None]
    """
    if known is not None:
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError(f"{prefix} has no component {unknown[0]!r}; its components: "
                             f"{', '.join(known)}")
    scoring = Scoring(column_name, make_scorer, browser=browser, runner=runner,
                      pool_options=pool_options, cache_size=cache_size)
    return [RewardFunction(scoring, f"{prefix}_reward"),
            *(RewardFunction(scoring, f"{prefix}_{name}", name) for name in names)]


def batch_reward(name: str, column_name: str, make_scorer: Callable[[Any], Any], *,
                 runner: PoolRunner | None = None, browser: bool = True,
                 pool_options: dict[str, Any] | None = None) -> RewardFunction:
    """One TRL reward function, called ``name``, for the total of a ``Scoring``."""
    scoring = Scoring(column_name, make_scorer, browser=browser, runner=runner,
                      pool_options=pool_options)
    return RewardFunction(scoring, name)
