"""Stripes of two named colours: "a red and white striped lighthouse", "an awning striped
in alternating green and white", "vertical stripes in red and yellow".

Stripes are two colours taking turns along a line across the thing. Read on the render:
along some row or column of the canvas, runs of the two colours alternate, each run
following the last within a small gap (a thin outline between two stripes is no break).
Both colours present side by side once, as two blocks, are not stripes, which is what a
drawing that only lays out the named colours shows (``hacks``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from designrl.tasks.svg.colour_names import ColorSpec
from designrl.tasks.svg.pixels import SHOWN
from designrl.tasks.svg.predicates import Scene

Verdict = bool | None

TURNS = 4
"""Runs taking turns along one line to pass strictly (red, white, red, white)."""
FEWEST = 3
"""Even loosely, fewer runs than this taking turns anywhere, over wider gaps, fail: three
(white, red, white) may be a band and its edges, so they stay a doubt."""
GAP, WIDE_GAP = 0.02, 0.06
"""Largest gap between two runs that still take turns, in fractions of the line (strict
reading, loose reading)."""

_STRIPE = r"strip(?:ed|es|y|ey)"
_FILLER = (r"(?:\s+(?:in|of|with|between|alternating|alternate|vertical|horizontal|diagonal|"
           r"thin|thick|wide|broad|bold|narrow|even|equal))*\s+")


def stripe_atoms(lower: str, objects) -> list[Striped]:
    """A ``Striped`` atom for each pair of single colours the clause calls stripes: joined
    by "and" ("red and white", "red-and-white") and next to a stripe word with only
    describing words between. Three colours ("red, white and blue") give none; nor does a
    pair that opens the clause, which may be the end of such a list split at its comma."""
    atoms = []
    for start, end, a, b in _pairs(lower, objects):
        if not lower[:start].strip():
            continue
        before = re.search(rf"\b{_STRIPE}{_FILLER}$", lower[:start])
        after = re.match(rf"{_FILLER}{_STRIPE}\b", lower[end:])
        if (before or after) and a.text != b.text:
            atoms.append(Striped(a, b))
    return atoms


def _pairs(lower: str, objects):
    """(start, end, first, second) of each two-colour pair: one mention naming both
    ("red-and-white", listed once per colour), or two mentions with "and" between; none
    with a colour listed before it."""
    for index, (span, specs) in enumerate(objects[:-1]):
        span2, specs2 = objects[index + 1]
        listed = index > 0 and lower[objects[index - 1][0][1]:span[0]].strip() == ","
        if len(specs) != 1 or len(specs2) != 1 or listed:
            continue
        if span == span2 and re.search(r"-and-|\band\b|&", lower[span[0]:span[1]]):
            yield span[0], span[1], specs[0], specs2[0]  # one mention, two entries
        elif lower[span[1]:span2[0]] in (" and ", " & "):
            yield span[0], span2[1], specs[0], specs2[0]


@dataclass(frozen=True)
class Striped:
    """Colours ``a`` and ``b`` take turns as stripes along some row or column: passes on
    ``TURNS`` strict runs, fails when even loosely no line shows ``FEWEST``; undecided
    when either colour is not shown (the colour's own atom says so)."""

    a: ColorSpec
    b: ColorSpec

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        strict = pixels.mask(self.a), pixels.mask(self.b)
        if min(pixels.share(m) for m in strict) < SHOWN:
            return None, "a colour is not shown"
        turns = _most_turns(*strict, GAP)
        detail = f"{turns} runs take turns along one line"
        if turns >= TURNS:
            return True, detail
        loose = (pixels.mask(self.a, "near") & ~pixels.mask(self.b, "named"),
                 pixels.mask(self.b, "near") & ~pixels.mask(self.a, "named"))
        widest = _most_turns(*loose, WIDE_GAP)
        if widest < FEWEST:
            return False, detail + f" ({widest} loosely)"
        return None, detail + f" ({widest} loosely)"

    def describe(self) -> str:
        return f"{self.a.text} and {self.b.text} stripes"


def _most_turns(a: np.ndarray, b: np.ndarray, gap: float) -> int:
    """The most runs of ``a`` and ``b`` taking turns along any one row or column."""
    labels = np.where(a & ~b, 1, np.where(b & ~a, 2, 0)).astype(np.int8)
    best = 0
    for grid in (labels, labels.T):
        allowed = max(1, int(gap * grid.shape[1]))
        for line in grid[np.any(grid == 1, axis=1) & np.any(grid == 2, axis=1)]:
            best = max(best, _turns(line, allowed))
    return best


def _turns(line: np.ndarray, allowed: int) -> int:
    """The longest chain of runs along ``line`` where each run is the other colour and
    starts within ``allowed`` pixels of the last one's end (runs of one colour split by
    a short gap join up first)."""
    where = np.flatnonzero(line)
    values = line[where]
    breaks = np.flatnonzero((np.diff(where) > 1) | (np.diff(values) != 0)) + 1
    runs = [(int(where[s]), int(where[e - 1]), int(values[s]))
            for s, e in zip(np.r_[0, breaks], np.r_[breaks, len(where)], strict=True)]
    merged: list[tuple[int, int, int]] = []
    for start, end, value in runs:
        if merged and merged[-1][2] == value and start - merged[-1][1] <= allowed:
            merged[-1] = (merged[-1][0], end, value)
        else:
            merged.append((start, end, value))
    best = chain = 0
    for index, (start, _, value) in enumerate(merged):
        follows = index > 0 and merged[index - 1][2] != value \
            and start - merged[index - 1][1] <= allowed
        chain = chain + 1 if follows else 1
        best = max(best, chain)
    return best
