"""Atoms: the small checkable claims a requirement is read into, each decided on the
render and the parsed geometry together, or left undecided.

Every atom is a *necessary* condition of the sentence it came from ("The cow's hooves
must be coloured brown" needs brown on the drawing), checked with two tolerances:
it passes only when the strict reading clearly holds (brown covers a patch of the
canvas) and fails only when even a loose reading does not (nothing anywhere a person
could call brown); in between, ``check`` answers None (not decided). So a failed
atom fails its requirement with confidence, and a passed atom passes it only when
the reader also understood every other word of the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from designrl.tasks.svg.colors import ColorSpec
from designrl.tasks.svg.pixels import ABSENT, SHOWN, WHOLE, Region
from designrl.tasks.svg.predicates import Predicate, Scene, Selector, painted, text_matches

Verdict = bool | None

REGIONS: dict[str, tuple[Region, Region]] = {
    # name: (strict region, loose region) in fractions of the canvas
    "top": ((0, 0, 1, 0.5), (0, 0, 1, 0.7)),
    "bottom": ((0, 0.5, 1, 1), (0, 0.3, 1, 1)),
    "left": ((0, 0, 0.5, 1), (0, 0, 0.7, 1)),
    "right": ((0.5, 0, 1, 1), (0.3, 0, 1, 1)),
    "top_left": ((0, 0, 0.45, 0.45), (0, 0, 0.65, 0.65)),
    "top_right": ((0.55, 0, 1, 0.45), (0.35, 0, 1, 0.65)),
    "bottom_left": ((0, 0.55, 0.45, 1), (0, 0.35, 0.65, 1)),
    "bottom_right": ((0.55, 0.55, 1, 1), (0.35, 0.35, 1, 1)),
    "center": ((0.3, 0.3, 0.7, 0.7), (0.12, 0.12, 0.88, 0.88)),
    "hcenter": ((0.45, 0, 0.55, 1), (0.35, 0, 0.65, 1)),  # "centred": across, not down
}
LOOSE_KINDS = {"circle": {"circle", "ellipse"}, "ellipse": {"circle", "ellipse"},
               "square": {"square", "rectangle"}, "rectangle": {"square", "rectangle"}}
"""Kinds a person might call by the same word (round eyes drawn as ellipses are "circles")."""
RIM = 0.03
"""Width of the canvas rim the background is read from (a fraction of the canvas)."""
RELATION_SLACK = 0.05
ELSEWHERE = 4 * SHOWN
"""A colour this clearly shown, but nowhere in a region even loosely read, is elsewhere."""


def _names(specs: tuple[ColorSpec, ...]) -> str:
    return " or ".join(s.text for s in specs)


@dataclass(frozen=True)
class Exact:
    """A whole sentence the pattern reader understood: its predicate decides it."""

    predicate: Predicate

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        return self.predicate.check(scene)

    def describe(self) -> str:
        return self.predicate.describe()


@dataclass(frozen=True)
class Shown:
    """One of ``colors`` covers a patch of the canvas (inside ``region`` if given)."""

    colors: tuple[ColorSpec, ...]
    region: str | None = None

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        strict, loose = REGIONS[self.region] if self.region else (WHOLE, WHOLE)
        seen = max(pixels.share(pixels.mask(c), strict) for c in self.colors)
        near = max(pixels.share(pixels.mask(c, "near"), loose) for c in self.colors)
        detail = f"{seen:.2%} of the canvas strictly, {near:.2%} loosely"
        if seen >= SHOWN:
            return True, detail
        if self.region and max(pixels.share(pixels.mask(c), loose) for c in self.colors) \
                < ABSENT and max(pixels.share(pixels.mask(c)) for c in self.colors) >= ELSEWHERE:
            return False, detail + ", and clearly elsewhere"  # the thing is there, not here
        return (False if near < ABSENT else None), detail

    def describe(self) -> str:
        where = f" in the {self.region.replace('_', ' ')}" if self.region else ""
        return f"{_names(self.colors)} shown{where}"


@dataclass(frozen=True)
class Background:
    """The canvas's rim (what shows behind everything) is mostly this colour."""

    color: ColorSpec

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        strict = _rim_share(pixels, pixels.mask(self.color))
        near = _rim_share(pixels, pixels.mask(self.color, "near"))
        detail = f"{strict:.0%} of the rim strictly, {near:.0%} loosely"
        if strict >= 0.5:
            return True, detail
        return (False if near < 0.15 else None), detail

    def describe(self) -> str:
        return f"background {self.color.text}"


def _rim_share(pixels, mask: np.ndarray) -> float:
    h, w = mask.shape
    r = max(1, int(RIM * min(h, w)))
    ring = np.concatenate([mask[:r].ravel(), mask[-r:].ravel(), mask[:, :r].ravel(),
                           mask[:, -r:].ravel()])
    return float(ring.mean()) if ring.size else 0.0


@dataclass(frozen=True)
class Text:
    """A visible text element shows these words (and is not a passage quoting them); with
    ``color``, painted that colour; with ``regions``, its centre in each of them."""

    words: str
    color: ColorSpec | None = None
    regions: tuple[str, ...] = ()

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        texts = [s for s in scene.facts.drawn if s.tag == "text"]
        found = [s for s in texts if text_matches(self.words, s.text)]
        if not found:
            runs = [" ".join(s.text for s in texts[i:i + k]) for i in range(len(texts))
                    for k in range(2, 5) if i + k <= len(texts)]
            if any(text_matches(self.words, run) for run in runs):  # set on several lines
                return None, "shown across several text elements"
            return False, f"no visible text shows it ({len(texts)} text elements seen)"
        verdicts = [self._placed(scene, s) for s in found]
        best = True if True in verdicts else None if None in verdicts else False
        return best, f"shown in <text> {found[0].text[:40]!r}"

    def _placed(self, scene: Scene, shape) -> Verdict:
        verdict: Verdict = True
        if self.color is not None:
            if painted(self.color, shape.main_colors):
                pass
            elif any(self.color.near(c) for c in shape.main_colors):
                verdict = None
            else:
                verdict = False
        x0, y0, x1, y1 = scene.facts.canvas
        u = ((shape.center[0] - x0) / (x1 - x0)) if x1 > x0 else 0.5
        v = ((shape.center[1] - y0) / (y1 - y0)) if y1 > y0 else 0.5
        for region in self.regions:
            strict, loose = REGIONS[region]
            if not _inside(u, v, loose):
                return False
            if not _inside(u, v, strict) and verdict:
                verdict = None
        return verdict

    def describe(self) -> str:
        color = f" in {self.color.text}" if self.color else ""
        where = "".join(" centred across" if r == "hcenter" else f" in the {r.replace('_', ' ')}"
                        for r in self.regions)
        return f"text {self.words!r}{color}{where}"


def _inside(u: float, v: float, region: Region) -> bool:
    return region[0] <= u <= region[2] and region[1] <= v <= region[3]


@dataclass(frozen=True)
class Lettering:
    """Some visible text is painted one of ``colors`` ("the labels must be white"): fails
    when no text is there even loosely in any of them."""

    colors: tuple[ColorSpec, ...]

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        texts = [s for s in scene.facts.drawn if s.tag == "text"]
        detail = f"{len(texts)} visible text elements"
        if any(painted(c, s.main_colors) for s in texts for c in self.colors):
            return True, detail
        near = any(c.near(rgb) for s in texts for c in self.colors for rgb in s.main_colors)
        return (None if near else False), detail

    def describe(self) -> str:
        return f"text in {_names(self.colors)}"


@dataclass(frozen=True)
class Pieces:
    """At least ``n`` separate things of a colour ("five light blue candles"): fails when
    the visible shapes anywhere near that colour have fewer than ``n`` pieces (outlines)
    between them; never passes, since what the pieces are is not read."""

    color: ColorSpec
    n: int

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pieces = sum(len(s.subpaths) for s in scene.facts.drawn
                     if s.tag != "text" and any(self.color.near(c) for c in s.colors))
        return (False if pieces < self.n else None), f"{pieces} pieces loosely that colour"

    def describe(self) -> str:
        return f"at least {self.n} {self.color.text} things"


@dataclass(frozen=True)
class Stroke:
    """A line of this colour ("a red line", "thin white lines"): a visible stroke, line or
    thin shape painted it; fails when none is even loosely that colour."""

    color: ColorSpec

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        lines = [s for s in scene.facts.drawn if s.tag != "text" and _linear(s)]
        strict = [s for s in lines if painted(self.color, s.stroke or s.main_colors)]
        loose = [s for s in lines if any(self.color.near(c) for c in s.colors)]
        detail = f"{len(strict)} lines that colour ({len(loose)} loosely)"
        return (True if strict else None if loose else False), detail

    def describe(self) -> str:
        return f"a {self.color.text} line"


def _linear(shape) -> bool:
    """Drawn as a line: stroked, a line or polyline, or a filled shape 8 times longer than
    wide."""
    x0, y0, x1, y1 = shape.bbox
    w, h = x1 - x0, y1 - y0
    return bool(shape.stroke) or shape.tag in ("line", "polyline") or \
        min(w, h) * 8 <= max(w, h)


@dataclass(frozen=True)
class PercentSum:
    """The percentages the visible text shows add up to ``total`` (within rounding); with
    fewer than two shown nobody can tell."""

    total: float

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        values = [float(v) for s in scene.facts.drawn if s.tag == "text"
                  for v in re.findall(r"(\d+(?:\.\d+)?)\s*%", s.text)]
        detail = f"{len(values)} percentages summing to {sum(values):g}"
        if len(values) < 2:
            return None, detail
        return abs(sum(values) - self.total) <= 1.0, detail

    def describe(self) -> str:
        return f"percentages sum to {self.total:g}"


@dataclass(frozen=True)
class NoText:
    def check(self, scene: Scene) -> tuple[Verdict, str]:
        texts = [s for s in scene.facts.drawn if s.tag == "text"]
        return not texts, f"{len(texts)} visible text elements"

    def describe(self) -> str:
        return "no text"


@dataclass(frozen=True)
class Count:
    """How many visible shapes of a kind (and colour): ``op`` is ``>=`` or ``==``."""

    kind: str
    color: ColorSpec | None
    op: str
    n: int

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        shapes = Selector(self.kind).select(scene.facts)
        strict = [s for s in shapes if self.color is None or painted(self.color, s.main_colors)]
        alike = [s for s in scene.facts.drawn
                 if s.kinds & LOOSE_KINDS.get(self.kind, {self.kind})]
        loose = [s for s in alike if self.color is None
                 or any(self.color.near(c) for c in s.main_colors)]
        detail = f"{len(strict)} found ({len(loose)} loosely)"
        holds = len(strict) >= self.n if self.op == ">=" else len(strict) == self.n
        if holds:
            return True, detail
        broken = len(loose) < self.n or (self.op == "==" and len(strict) > self.n)
        return (False if broken else None), detail

    def describe(self) -> str:
        color = f"{self.color.text} " if self.color else ""
        return f"count({color}{self.kind}) {self.op} {self.n}"


@dataclass(frozen=True)
class Relative:
    """The patch of colour ``a`` lies ``relation`` (above, below, left_of, right_of, inside)
    the patch of colour ``b``: passes on their centres, fails only when all of ``a`` is on
    the wrong side of all of ``b`` (outside it, for inside)."""

    a: ColorSpec
    relation: str
    b: ColorSpec

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        bg = scene.background
        if self.a.matches(bg) or self.b.matches(bg):
            return None, "one colour is the background's"
        ma, mb = pixels.mask(self.a), pixels.mask(self.b)
        if pixels.share(ma) < SHOWN or pixels.share(mb) < SHOWN:
            return None, "a colour is not shown"
        if self.relation == "inside":
            return self._inside(pixels, ma, mb)
        axis = "v" if self.relation in ("above", "below") else "u"
        first = self.relation in ("above", "left_of")  # a has the smaller coordinate
        ca, cb = pixels.centroid(ma), pixels.centroid(mb)
        index = 1 if axis == "v" else 0
        gap = (cb[index] - ca[index]) if first else (ca[index] - cb[index])
        detail = f"centres {gap:+.2f} of the canvas apart"
        if gap >= RELATION_SLACK:
            return True, detail
        near_a = pixels.mask(self.a, "near") & ~pixels.mask(self.b, "named")  # b's is b's
        near_b = pixels.mask(self.b, "near") & ~pixels.mask(self.a, "named")
        ea, eb = pixels.extent(near_a, axis), pixels.extent(near_b, axis)
        if ea is None or eb is None:
            return None, detail
        wrong = ea[0] > eb[1] if first else ea[1] < eb[0]
        return (False if wrong else None), detail

    def _inside(self, pixels, ma: np.ndarray, mb: np.ndarray) -> tuple[Verdict, str]:
        """Passes when a's centre lies within b's span both ways; fails when a lies wholly
        beyond b's span one way (loosely read, each colour's own pixels)."""
        ca = pixels.centroid(ma)
        spans = [pixels.extent(mb, axis) for axis in ("u", "v")]
        if ca and all(s and s[0] <= c <= s[1] for c, s in zip(ca, spans, strict=True)):
            return True, "centre within"
        near_a = pixels.mask(self.a, "near") & ~pixels.mask(self.b, "named")
        near_b = pixels.mask(self.b, "near") & ~pixels.mask(self.a, "named")
        for axis in ("u", "v"):
            ea, eb = pixels.extent(near_a, axis), pixels.extent(near_b, axis)
            if ea and eb and (ea[0] > eb[1] + RELATION_SLACK or ea[1] < eb[0] - RELATION_SLACK):
                return False, f"wholly outside along {axis}"
        return None, "overlapping spans"

    def describe(self) -> str:
        return f"{self.a.text} {self.relation.replace('_', ' ')} {self.b.text}"


@dataclass(frozen=True)
class Area:
    """The colour covers at least ``share`` of the canvas (strictly to pass; fails when even
    loosely it covers under half of that)."""

    color: ColorSpec
    share: float

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        strict, near = pixels.share(pixels.mask(self.color)), \
            pixels.share(pixels.mask(self.color, "near"))
        detail = f"{strict:.0%} strictly, {near:.0%} loosely"
        if strict >= self.share:
            return True, detail
        return (False if near < 0.5 * self.share else None), detail

    def describe(self) -> str:
        return f"{self.color.text} covers {self.share:.0%}"


@dataclass(frozen=True)
class Lent:
    """An atom read with a colour another requirement gives the object ("the barn" is red):
    undecided unless every colour it names is shown, since a missing colour is that other
    requirement's failure, not this one's."""

    atom: Shown | Relative | Count | Pieces

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        a = self.atom
        specs = (a.a, a.b) if isinstance(a, Relative) else (a.color,) \
            if isinstance(a, Count | Pieces) else a.colors
        if any(pixels.share(pixels.mask(c)) < SHOWN for c in specs if c is not None):
            return None, "the object's colour is not shown"
        return a.check(scene)

    def describe(self) -> str:
        return f"{self.atom.describe()} (colour from another requirement)"


Atom = (Exact | Lent | Shown | Background | Text | Lettering | Pieces | Stroke | PercentSum
        | NoText
        | Count | Relative | Area)
