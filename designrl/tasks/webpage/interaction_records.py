"""What the interactive checks found: one record per interaction tried, and the page's
record (what was available, whether it changed on its own or responds to any click),
with its score: passed / attempted.

A page with nothing to interact with scores ``NO_TARGETS_SCORE`` = 0: pages in this
family are asked to be interactive (see ``interact``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

NO_TARGETS_SCORE = 0.0


@dataclass
class Interaction:
    kind: str
    label: str
    passed: bool = False
    via: list[str] = field(default_factory=list)
    reason: str = ""
    """Why it did not pass: ``no_response``, ``page_error``, ``gone``, ``timeout`` ..."""
    mutations: int = 0
    changed_pixels: int = 0
    seconds: float = 0.0


@dataclass
class Interactions:
    attempted: list[Interaction] = field(default_factory=list)
    available: dict[str, int] = field(default_factory=dict)
    restless: bool = False
    """The page changed on its own while idle (timers, animations)."""
    stopped: str | None = None
    """Why the checks ended early (``timeout``, ``too_many_dialogs``, ...), or None."""
    responds_anywhere: bool | None = None
    """The page responded to clicks on plain text (None: not probed)."""

    @property
    def passed(self) -> int:
        return sum(i.passed for i in self.attempted)

    def as_details(self) -> dict[str, Any]:
        return {"attempted": len(self.attempted), "passed": self.passed,
                "available": self.available, "restless": self.restless,
                "stopped": self.stopped, "responds_anywhere": self.responds_anywhere,
                "records": [asdict(i) for i in self.attempted]}

    def score(self) -> float:
        """``score_interactions``, or 0 for a page that responds to any click."""
        return 0.0 if self.responds_anywhere else score_interactions(self.attempted)


def score_interactions(records: Sequence[Interaction]) -> float:
    """passed / attempted, or ``NO_TARGETS_SCORE`` when nothing could be tried."""
    if not records:
        return NO_TARGETS_SCORE
    return sum(r.passed for r in records) / len(records)
