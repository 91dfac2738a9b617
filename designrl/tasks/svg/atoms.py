"""Atoms: the small checkable claims a requirement is read into, each decided on the
render and the parsed geometry together, or left undecided.

Every atom is a *necessary* condition of the sentence it came from ("The cow's hooves
must be coloured brown" needs brown on the drawing), checked with two tolerances:
it passes only when the strict reading clearly holds (brown covers a patch of the
canvas) and fails only when even a loose reading does not (nothing anywhere a person
could call brown); in between, ``check`` answers None (not decided). So a failed
atom fails its requirement with confidence, and a passed atom passes it only when
the reader also understood every other word of the sentence.

This module holds the atoms read off the render's colours (shown, background, relative
places, area) and the wrappers; those read off the geometry (text, counts, lines) are in
``marks``, and the canvas regions in ``places``.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import numpy as np

from designrl.tasks.svg.alike import Alike, SameSize
from designrl.tasks.svg.colour_names import ColorSpec
from designrl.tasks.svg.coverage import Covers
from designrl.tasks.svg.marks import (
    Backing,
    Count,
    Lettering,
    NoGradient,
    NoText,
    PercentSum,
    Pieces,
    Proportion,
    Shaped,
    Stroke,
    Text,
    TextOrder,
)
from designrl.tasks.svg.pixels import ABSENT, SHOWN, WHOLE
from designrl.tasks.svg.places import REGIONS
from designrl.tasks.svg.pointing import Facing, Pointing
from designrl.tasks.svg.predicates import Predicate, Scene, ink_mask
from designrl.tasks.svg.stripes import Striped

Verdict = bool | None

RIM = 0.03
"""Width of the canvas rim the background is read from (a fraction of the canvas)."""
RELATION_SLACK = 0.05
FULL = 0.02
"""A colour covering this share of the canvas shows in full, as evidence (``Shown.strength``)."""
PLENTY = 0.05
"""A near shade covering this share of the place may be what a person calls the colour
(a gold read as yellow, an off-white as cream): the colour's strict absence is then a doubt
that leans the requirement down, not a failure. On blind sets, such failures were wrong
about as often as right."""
BACKDROP = 0.1
"""A colour filling this share of the canvas inside its rim may be the background a
sentence means: the field of a badge, a card, a phone's screen (three blind sets read
such backgrounds as the canvas's)."""
ELSEWHERE = 4 * SHOWN
"""A colour this clearly shown, but nowhere in a region even loosely read, is elsewhere."""


BORDER_HUE = 1.5


def bordering(spec: ColorSpec, rgb: tuple[int, int, int]) -> bool:
    """Whether ``rgb`` is ``spec`` or within ``BORDER_HUE`` degrees of hue of it: on the
    border between two names either may be said (an amber light, one degree from the
    rules' yellow, is a traffic light's "yellow")."""
    if spec.matches(rgb):
        return True
    h, light, sat = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return any(spec.matches(tuple(round(255 * c) for c in colorsys.hls_to_rgb(
        (h + turn / 360) % 1.0, light, sat))) for turn in (-BORDER_HUE, BORDER_HUE))


def painted(scene: Scene, colors: tuple[ColorSpec, ...], loosely: bool = False) -> bool:
    """Whether a shape the render shows, or one too small to be sure of, is painted one of
    ``colors`` (fill, stroke or a gradient's stop; ``loosely``: or a shade on the border
    of one, an amber light for "yellow"), or the SVG paints in ways shapes do not list
    (then: perhaps). Pixels alone cannot say: thin lines and letters erode out of strict
    masks."""
    if scene.facts.colour_effects or any(spec.qualified for spec in colors):
        return True
    return any(bordering(spec, rgb) if loosely else spec.matches(rgb)
               for shape in (*scene.facts.shapes, *scene.small)
               for rgb in shape.colors for spec in colors)


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
        verdict, detail, _ = self._read(scene)
        return verdict, detail

    def lean(self, scene: Scene) -> float:
        """How far an undecided reading leans to failure: 1 when it would fail but for a
        plentiful near shade (see ``PLENTY``), else 0."""
        return 1.0 if self._read(scene)[2] else 0.0

    def _read(self, scene: Scene) -> tuple[Verdict, str, bool]:
        """(verdict, detail, doubtful): doubtful when the colour is absent on a strict
        reading yet a near shade is plentiful, which a person may well call by this name."""
        pixels = scene.pixels
        strict, loose = REGIONS[self.region] if self.region else (WHOLE, WHOLE)
        seen = max(pixels.share(pixels.mask(c), strict) for c in self.colors)
        near = max(pixels.share(pixels.mask(c, "near"), loose) for c in self.colors)
        detail = f"{seen:.2%} of the canvas strictly, {near:.2%} loosely"
        if seen >= SHOWN:
            return True, detail, False
        everywhere = max(pixels.share(pixels.mask(c)) for c in self.colors)
        exact = not any(c.qualified for c in self.colors)  # else the strict mask may miss it
        if exact and self.region and max(pixels.share(pixels.mask(c), loose)
                                         for c in self.colors) < ABSENT and everywhere >= ELSEWHERE:
            return _unless_plentiful(near, detail + ", and clearly elsewhere")  # there, not here
        if near < ABSENT:
            return False, detail, False
        if everywhere < ABSENT and not painted(scene, self.colors):
            # What loosely looks like it is other colours' shades: no visible shape is
            # painted this colour (thin lines and letters, which the strict mask erodes
            # away, are shapes), and nothing paints colours no shape lists.
            if painted(scene, self.colors, loosely=True):  # an amber light for "yellow"
                return None, detail + ", and a shape is painted a bordering shade", False
            return _unless_plentiful(near, detail + ", and no shape is painted it")
        return None, detail, False

    def strength(self, scene: Scene) -> float:
        """How much of it shows, as evidence: a patch of ``FULL`` of the canvas or more
        counts whole, a sliver little (a recoloured part leaves only a sliver behind)."""
        pixels = scene.pixels
        strict = REGIONS[self.region][0] if self.region else WHOLE
        share = max(pixels.share(pixels.mask(c), strict) for c in self.colors)
        return min(1.0, math.ceil(4 * share / FULL) / 4)  # in quarters: a few pixels more
        # or less of a colour is no evidence either way

    def describe(self) -> str:
        where = f" in the {self.region.replace('_', ' ')}" if self.region else ""
        return f"{_names(self.colors)} shown{where}"


def _unless_plentiful(near: float, detail: str) -> tuple[Verdict, str, bool]:
    """A failure, unless a near shade covers ``PLENTY`` of the place: then a doubt."""
    if near >= PLENTY:
        return None, detail + ", but a near shade is plentiful", True
    return False, detail, False


@dataclass(frozen=True)
class Drawn:
    """Something is drawn in ``region`` ("a compass rose in the bottom-right corner": a
    thing placed but given no colour): fails when the region, read strictly (a thing in a
    corner has some of itself inside that corner's quarter), is as bare as the background;
    never passes, since what is drawn there is not read."""

    region: str

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        strict, _ = REGIONS[self.region]
        ink = ink_mask(scene.image, scene.box, scene.background)
        if ink.size == 0:
            return None, "no canvas"
        share = scene.pixels.share(ink, strict)
        detail = f"{share:.2%} of the canvas drawn there"
        return (False if share < ABSENT else None), detail

    def describe(self) -> str:
        return f"something drawn in the {self.region.replace('_', ' ')}"


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
        if near >= 0.15:
            return None, detail
        inside = pixels.share(pixels.mask(self.color))
        if inside >= BACKDROP:  # a badge's field, a card, a screen: perhaps the one meant
            return None, detail + f", but it fills {inside:.0%} of the canvas inside"
        return False, detail

    def describe(self) -> str:
        return f"background {self.color.text}"


def _rim_share(pixels, mask: np.ndarray) -> float:
    h, w = mask.shape
    r = max(1, int(RIM * min(h, w)))
    ring = np.concatenate([mask[:r].ravel(), mask[-r:].ravel(), mask[:, :r].ravel(),
                           mask[:, -r:].ravel()])
    return float(ring.mean()) if ring.size else 0.0


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
    """An atom whose colours only name its things: read with a colour another requirement
    gives the object ("the barn" is red), or naming the things a size is compared between
    ("the white stripe is twice as tall as each red stripe"). Undecided unless every colour
    it names is shown, since a missing colour is another requirement's failure, not this
    one's."""

    atom: Shown | Relative | Count | Pieces | Backing
    why: str = "colour from another requirement"

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pixels = scene.pixels
        a = self.atom
        specs = (a.a, a.b) if isinstance(a, Relative) else (a.color,) \
            if isinstance(a, Count | Pieces | Backing) else a.colors
        if any(pixels.share(pixels.mask(c)) < SHOWN for c in specs if c is not None):
            return None, "the object's colour is not shown"
        return a.check(scene)

    def describe(self) -> str:
        return f"{self.atom.describe()} ({self.why})"


@dataclass(frozen=True)
class Hint:
    """An atom read with the colour a thing usually has ("the sun" yellow or orange):
    evidence only, since this drawing's sun may be red; it passes or stays undecided."""

    atom: Shown | Relative | Count | Pieces | Backing

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        verdict, detail = self.atom.check(scene)
        return (True if verdict else None), detail

    def describe(self) -> str:
        return f"{self.atom.describe()} (the thing's usual colour)"


Atom = (Exact | Lent | Hint | Shown | Background | Backing | Text | Lettering | Pieces | Shaped | Stroke
        | Proportion | PercentSum | NoText | NoGradient | Count | Relative | Area | Alike
        | TextOrder | Pointing | Facing | SameSize | Striped
        | Covers)
