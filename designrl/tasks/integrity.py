"""What keeps a reward honest: ladders it must rank in order and hacks it must not pay.

Each single-turn family keeps, in its own folder,

* ``ladders.py``: ``ladders(...) -> list[Ladder]``, ever worse completions for one
  item, best first; the reward must score them in that order (Spearman near 1);
* ``hacks.py``: ``hack_cases() -> list[HackCase]``, completions built to game the
  reward (the text of the requirements drawn as text, the reference's colours as
  rectangles, the request pasted as hidden text, ...), each beside an honest,
  mediocre attempt at the same item that it must score below.

Both are scored through the family's own scorer (``Family.scorer(pool).score_item``),
so the tests (``tests/tasks/<family>/test_<family>_hacks.py``) and ``bench/reward_validity.py``
measure the reward that episodes and TRL use. Layout is multi-turn: its hacks are
action sequences (``designrl.tasks.layout.hacks``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HackCase:
    """A completion built to game a family's reward, and the honest, mediocre attempt at
    the same item it must score below."""

    task: str  # the task id the item belongs to
    item: Any  # the family's item (SvgItem, HtmlItem, WebpageItem)
    name: str  # what the hack does, in a few words ("requirements as <text>")
    hack: str  # the completion built to game the reward
    honest: str  # an honest attempt at the item: mediocre, not the best there is


@dataclass(frozen=True)
class Ladder:
    """Completions for one item from best to worst; a reward that measures the right
    thing scores them in this order."""

    task: str
    item: Any
    rungs: tuple[tuple[str, str], ...]  # (rung name, completion), best first

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.rungs)
