"""What a task family is: the one record everything dispatches through.

A ``Family`` names its tasks (where each task's items come from), the model-free
policies it accepts, its reward components, and, for single-turn families, the
hooks an episode calls in order: find the item, build the chat prompt, ask a
policy, score the completion (extract, render, reward) into a ``Scored``. Layout
is multi-turn: its episodes run in ``LayoutEnv`` and it has no single-turn hooks.

Each family folder defines its ``FAMILY`` in its ``__init__``; the registry
(``designrl.tasks``) is one line per family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

Outcome = Literal["ok", "invalid_output", "render_failed", "timeout", "error"]
OUTCOMES: tuple[str, ...] = ("ok", "invalid_output", "render_failed", "timeout", "error")
TEST_SEED_START = 1_000_000  # generated tasks: seeds below are the train split


@dataclass(frozen=True)
class Task:
    """One task of a family. Its items are seeds (``generate``, or layout's env), a set
    shipped with designrl (``load`` with no path) or a user's file (``needs_path``)."""

    id: str
    family: str
    source: str  # what its items are, in a phrase
    needs_path: bool = False
    path_optional: bool = False  # a shipped set that a user's file in its format may replace
    generate: Callable[[int], Any] | None = None  # seed -> item
    load: Callable[[Path | None], list] | None = None  # path -> every item, in order

    @property
    def reads_path(self) -> bool:
        """Its items may come from a file (a job may name a dataset for it)."""
        return self.needs_path or self.path_optional

    @property
    def seeded(self) -> bool:
        """Items are named by seed (generated tasks and layout's)."""
        return self.load is None


@dataclass
class Scored:
    """A completion's reward, in one shape for every single-turn family.

    ``outcome`` says whether the completion could be scored as a design; a scored
    failure still has a total (0 or more). ``images`` are PNGs by name (the candidate's
    render, the reference's); ``details`` is JSON-able (requirement verdicts, the
    interaction log, findings)."""

    total: float
    components: dict[str, float] = field(default_factory=dict)
    outcome: Outcome = "ok"
    error: str | None = None
    images: dict[str, bytes] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class FamilyScore:
    """What a single-turn family's reward computes, before it becomes a ``Scored``: the
    total in [0, 1], its named components, and ``error``, why the completion earned
    nothing (``no_html_document``, ``blank_page``, ...; None: it was scored). Each family's
    score (``HtmlScore``, ``SvgScore``, ``WebpageScore``) adds its own evidence and says in
    ``scored()`` how it is recorded."""

    total: float
    components: dict[str, float] = field(default_factory=dict)
    error: str | None = None


class ItemScorer(Protocol):
    """What a family's reward offers on a started pool: scoring an episode's item, and a
    dataset row's reward column (``Family.column``) for TRL's reward functions (None: the
    row itself cannot be scored, e.g. its reference page does not render)."""

    async def score_item(self, item: Any, completion: str) -> Scored: ...

    async def score_column(self, value: Any, completion: str) -> Scored | None: ...


ModelFreePolicy = Callable[[Any, int], str]  # (item, seed) -> the completion's text


@dataclass(frozen=True)
class Family:
    name: str
    summary: str
    tasks: tuple[Task, ...]
    policies: Mapping[str, ModelFreePolicy]  # model-free policies by name
    components: tuple[str, ...]  # the reward's named components, in display order
    multi_turn: bool = False
    oracles: tuple[str, ...] = ()  # policies that see the answer (ceilings, not models)
    # single-turn hooks (None for layout)
    messages: Callable[[Any, bytes | None], list[dict[str, Any]]] | None = None
    reference: Callable[[Any], str] | None = None  # the page whose screenshot the prompt shows
    # the viewport that page is drawn at (its own width): the prompt shows what is scored
    reference_viewport: Callable[[str], tuple[int, int]] | None = None
    extract: Callable[[str], str | None] | None = None  # completion -> its document, or None
    # started pool -> the family's scorer; a family with a ``judge`` also takes one:
    # ``scorer(pool, judge)``
    scorer: Callable[..., ItemScorer] | None = None
    # the family's judge kind (an ``EndpointJudge`` with ``from_config``), built from the
    # ``JudgeConfig`` a run is given; None: the family has no judge
    judge: Any = None
    # its own benchmark figures over one task × policy's rows, beside the means (svg:
    # SVGBench's score and the judge's agreement); the flag: a judge was configured
    figures: Callable[[list[dict[str, Any]], bool], dict[str, Any]] | None = None
    # completion -> the page that shows its design and the viewport to screenshot it at
    # (a training sample's picture); ValueError says why the completion holds none
    picture_page: Callable[[str], tuple[str, tuple[int, int]]] | None = None
    # TRL: the batch reward functions (runner, components, **options) -> [total, *components]
    # (picklable ``designrl.tasks.batch.RewardFunction``s) and the dataset column they read
    batch_rewards: Callable[..., list[Callable[..., list]]] | None = None
    column: str | None = None  # the dataset column its reward functions read
    column_value: Callable[[Any], Any] | None = None  # item -> its value in that column
    max_tokens: int = 4096  # language-model policies: the completion budget

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise ValueError(f"{task_id!r} is not a {self.name} task; known: "
                         f"{', '.join(t.id for t in self.tasks)}")
