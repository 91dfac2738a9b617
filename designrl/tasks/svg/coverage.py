"""A colour that covers a stated part of the canvas: "the sea should be dark blue and cover
the bottom half of the canvas", "golden sand fills the lower third of the picture".

"Shown in the bottom" holds for a strip of sea along the bottom edge; covering the bottom
half asks for most of it. How much is most is a matter of drawing (a hill's curve, waves,
a boat on the sea), so this is evidence only: it counts for the sentence when the colour
fills most of that part, and leans it down when even loosely the colour fills little of
it, as when the named colours are laid out as blocks anywhere (``hacks``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from designrl.tasks.svg.colour_names import ColorSpec
from designrl.tasks.svg.pixels import Region
from designrl.tasks.svg.places import CANVAS
from designrl.tasks.svg.predicates import Scene

Verdict = bool | None

MOST = 0.6
"""Share of the part the colour must fill, strictly read, to count for the sentence."""
LITTLE = 0.25
"""Below this share of the part, even loosely read, the sentence leans down."""

_SIDES = {"bottom": "bottom", "lower": "bottom", "top": "top", "upper": "top", "left": "left",
          "right": "right"}
_SHARES = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "part": 0.5, "portion": 0.5,
           "two thirds": 2 / 3}
_COVERS = re.compile(
    r"\b(?:covers?|covering|fills?|filling|takes? up|taking up|occup(?:y|ies|ying))"
    r" (?:roughly |about |around |nearly |approximately |most of )?the "
    r"(?P<side>bottom|lower|top|upper|left|right) (?P<part>half|third|quarter|part|portion|"
    r"two thirds)(?: of the " + CANVAS + r")?(?=$|[,;.]| and | with | in )")


def cover_atoms(lower: str, objects) -> list[Covers]:
    """A ``Covers`` atom when the clause gives one thing one colour and says it covers a
    side's half, third, quarter or part of the canvas (not of another thing: "the lower
    half of the bag")."""
    found = _COVERS.search(lower)
    if found is None or len(objects) != 1 or len(objects[0][1]) != 1:
        return []
    return [Covers(objects[0][1][0], _part(_SIDES[found.group("side")],
                                           _SHARES[found.group("part")]))]


def _part(side: str, share: float) -> Region:
    return {"bottom": (0.0, 1 - share, 1.0, 1.0), "top": (0.0, 0.0, 1.0, share),
            "left": (0.0, 0.0, share, 1.0), "right": (1 - share, 0.0, 1.0, 1.0)}[side]


@dataclass(frozen=True)
class Covers:
    """``color`` fills most of ``part`` of the canvas: passes when it does (``MOST``; the
    clause keeps the words unread, so this is evidence, never the sentence's pass), leans
    against when even loosely it fills under ``LITTLE``; never fails."""

    color: ColorSpec
    part: Region

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        filled = self._filled(scene, "named")
        return (True if filled >= MOST else None), f"{filled:.0%} of that part strictly"

    def lean(self, scene: Scene) -> float:
        return 1.0 if self._filled(scene, "near") < LITTLE else 0.0

    def _filled(self, scene: Scene, mode: str) -> float:
        pixels = scene.pixels
        u0, v0, u1, v1 = self.part
        return pixels.share(pixels.mask(self.color, mode), self.part) / ((u1 - u0) * (v1 - v0))

    def describe(self) -> str:
        u0, v0, u1, v1 = self.part
        return f"{self.color.text} fills the part ({u0:.2f}, {v0:.2f})–({u1:.2f}, {v1:.2f})"
