"""The svg tests' ladders come from the library (``designrl.tasks.svg.ladders``), so the tests
and ``bench/reward_validity.py`` rank the same completions."""

from __future__ import annotations

from designrl.tasks.svg.ladders import LADDER_SVGS as LADDERS
from designrl.tasks.svg.ladders import fenced, ladders

__all__ = ["LADDERS", "fenced", "ladders"]
