"""Atoms checked on the parsed geometry of what the render shows: text and its colour and
place, counts of shapes and of pieces of a colour, coloured lines, percentages that add up,
no text. Each passes only when surely met and fails only when surely not (``atoms``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from designrl.tasks.svg.colour_names import ColorSpec
from designrl.tasks.svg.pixels import Region
from designrl.tasks.svg.places import REGIONS
from designrl.tasks.svg.predicates import (
    Scene,
    Selector,
    painted,
    quotes,
    spelled_with_gaps,
    text_matches,
    texts_showing,
)

Verdict = bool | None

LOOSE_KINDS = {"circle": {"circle", "ellipse"}, "ellipse": {"circle", "ellipse"},
               "square": {"square", "rectangle"}, "rectangle": {"square", "rectangle"}}
"""Kinds a person might call by the same word (round eyes drawn as ellipses are "circles")."""

@dataclass(frozen=True)
class Text:
    """A visible text element shows these words (and is not a passage quoting them); with
    ``color``, painted that colour; with ``regions``, its centre in each of them."""

    words: str
    color: ColorSpec | None = None
    regions: tuple[str, ...] = ()

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        texts = [s for s in scene.facts.drawn if s.tag == "text"]
        found = texts_showing(self.words, texts)
        if not found:
            runs = [glue.join(s.text for s in texts[i:i + k]) for i in range(len(texts))
                    for k in range(2, 5) if i + k <= len(texts) for glue in (" ", "")]
            if any(text_matches(self.words, run) for run in runs):  # set on several lines, or
                return None, "shown across several text elements"  # a word split ("RAIL" "ROAD")
            if any(spelled_with_gaps(self.words, [s.text for s in texts[i:i + k]])
                   for i in range(len(texts)) for k in range(2, 4) if i + k <= len(texts)):
                return None, "shown in pieces, a letter between them drawn ('4', '4' of '404')"
            if any(quotes(self.words, s.text) for s in texts):  # "report.pdf will be
                return None, "quoted inside a longer passage"  # permanently deleted."
            short = re.sub(r"\W", "", self.words.lower())
            if len(short) <= 2 and any(short in re.sub(r"\W", "", s.text.lower()) for s in texts):
                return None, "a letter inside a longer text ('abcdefgh')"
            return False, f"no visible text shows it ({len(texts)} text elements seen)"
        verdicts = [self._placed(scene, s) for s in found]
        best = True if True in verdicts else None if None in verdicts else False
        return best, f"shown in <text> {found[0].text[:40]!r}"

    def _placed(self, scene: Scene, shape) -> Verdict:
        verdict: Verdict = True
        if self.color is not None:
            if painted(self.color, shape.main_colors):
                pass
            elif any(self.color.near(c) for c in shape.main_colors) \
                    or (on_color(scene, self.color, shape)
                        and not self.color.matches(scene.background)):
                verdict = None  # near, or the colour of a part the text is on ("a button
                # labelled 'Log in' in teal": the button's, perhaps)
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


ORDER_SLACK = 0.02
"""How far (a share of the canvas) texts may be out of line before their order is wrong."""


@dataclass(frozen=True)
class TextOrder:
    """Texts in this order along ``axis`` (``x``: left to right, ``y``: top to bottom):
    decided only when each shows in exactly one visible text element."""

    words: tuple[str, ...]
    axis: str

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        texts = [s for s in scene.facts.drawn if s.tag == "text"]
        found = [texts_showing(w, texts) for w in self.words]
        if any(len(f) != 1 for f in found):
            return None, "not each shown exactly once"
        x0, y0, x1, y1 = scene.facts.canvas
        i, extent = (0, x1 - x0) if self.axis == "x" else (1, y1 - y0)
        places = [f[0].center[i] for f in found]
        steps = [(b - a) / max(1e-9, extent) for a, b in zip(places, places[1:], strict=False)]
        detail = f"steps {', '.join(f'{d:+.2f}' for d in steps)} of the canvas"
        if all(d > ORDER_SLACK for d in steps):
            return True, detail
        return (False if any(d < -ORDER_SLACK for d in steps) else None), detail

    def describe(self) -> str:
        way = "left to right" if self.axis == "x" else "top to bottom"
        return f"texts {', '.join(map(repr, self.words))} from {way}"


def _inside(u: float, v: float, region: Region) -> bool:
    return region[0] <= u <= region[2] and region[1] <= v <= region[3]


@dataclass(frozen=True)
class Backing:
    """The part labelled ``words`` is ``color`` ("a green button labelled 'Search'"): the
    colour shows around the label; fails when not even loosely near any text showing it."""

    color: ColorSpec
    words: str

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        found = texts_showing(self.words, scene.facts.drawn)
        if not found:
            return None, "no text shows it"
        verdicts = [v for v in (backed(scene, self.color, shape) for shape in found)
                    if v != "off canvas"]
        best = True if True in verdicts else False if verdicts and None not in verdicts else None
        return best, f"{self.color.text} around {self.words!r}"

    def describe(self) -> str:
        return f"{self.color.text} behind {self.words!r}"


def backed(scene: Scene, color: ColorSpec, shape) -> Verdict | str:
    """Whether ``color`` shows around a text element: True for a patch, None for a trace,
    False for none; "off canvas" when the text is."""
    region = _around(scene, shape)
    if region is None:
        return "off canvas"
    pixels = scene.pixels
    strict = pixels.share(pixels.mask(color), region) * pixels.area
    near = pixels.share(pixels.mask(color, "near"), region) * pixels.area
    return True if strict >= 30 else None if near >= 3 else False


def on_color(scene: Scene, color: ColorSpec, shape) -> bool:
    """Whether a text element sits on ``color``: it fills most of the space around it."""
    region = _around(scene, shape)
    if region is None:
        return False
    around = scene.pixels.crop(scene.pixels.mask(color), region)
    return around.size > 0 and float(around.mean()) >= 0.5


def _around(scene: Scene, shape) -> Region | None:
    """A text element's box padded by about a line, as a share of the canvas."""
    x0, y0, x1, y1 = scene.facts.canvas
    w, h = max(1e-9, x1 - x0), max(1e-9, y1 - y0)
    bx0, by0, bx1, by1 = shape.bbox
    pad_x, pad_y = max(by1 - by0, 0.5 * (bx1 - bx0)), 1.5 * (by1 - by0)
    region = (max(0.0, (bx0 - pad_x - x0) / w), max(0.0, (by0 - pad_y - y0) / h),
              min(1.0, (bx1 + pad_x - x0) / w), min(1.0, (by1 + pad_y - y0) / h))
    return None if region[2] <= region[0] or region[3] <= region[1] else region


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
        return "text in " + " or ".join(c.text for c in self.colors)


@dataclass(frozen=True)
class Pieces:
    """At least ``n`` separate things of a colour ("five light blue candles"): fails when
    the visible shapes anywhere near that colour have fewer than ``n`` pieces (outlines)
    between them; never passes, since what the pieces are is not read."""

    color: ColorSpec
    n: int

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        pieces = sum(len(s.subpaths) for s in (*scene.facts.drawn, *scene.small)
                     if s.tag != "text" and any(self.color.near(c) for c in s.colors))
        patterned = any(s.patterned for s in scene.facts.shapes)
        return (False if pieces < self.n and not patterned else None), \
            f"{pieces} pieces loosely that colour" + (", and a pattern fill" if patterned else "")

    def describe(self) -> str:
        return f"at least {self.n} {self.color.text} things"


DEFINITE = frozenset({"circle", "ellipse", "triangle", "quadrilateral", "pentagon", "hexagon",
                      "octagon", "rectangle", "square", "polygon", "star", "line"})
"""Kinds the geometry is sure of; a curved outline of no kind could be anything."""


@dataclass(frozen=True)
class Shaped:
    """Something of ``color`` has this shape ("a red octagonal sign"): passes when a visible
    shape painted it is of the kind; fails only when every sizeable one is surely another
    kind (a hexagon, a rectangle) and no smaller one is of the kind."""

    kind: str
    color: ColorSpec

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        least = 0.002 * scene.facts.canvas_area
        painted_ = [s for s in scene.facts.drawn if s.tag != "text"
                    and painted(self.color, s.main_colors)
                    and s.box_area >= least]
        kinds = LOOSE_KINDS.get(self.kind, {self.kind})
        if any(s.kinds & kinds for s in painted_):
            return True, f"a {self.color.text} {self.kind}"
        # small ones of the kind ("white triangular teeth") are not evidence, but they
        # forbid a failure
        smaller = (s for s in (*scene.facts.drawn, *scene.small) if s.tag != "text"
                   and painted(self.color, s.main_colors) and s.box_area < least)
        if any(s.kinds & kinds for s in smaller):
            return None, f"only small {self.color.text} {self.kind}s"
        sure = painted_ and all(s.kinds & DEFINITE for s in painted_)
        found = sorted({k for s in painted_ for k in s.kinds & DEFINITE})
        return (False if sure else None), f"{self.color.text} shapes: {', '.join(found) or 'none'}"

    def describe(self) -> str:
        return f"a {self.color.text} {self.kind}"


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
class Proportion:
    """The drawing is wider than tall (``ratio`` > 1), taller than wide (< 1), or about
    ``ratio`` (width / height) when ``exact``: passes on the canvas; fails only when neither
    the canvas nor any shape filling a quarter of it is even roughly so. A ``part``'s (the
    thing the list is about, which may stand in a scene) fails only when no shape of a
    twenty-fifth of the canvas is."""

    ratio: float
    exact: bool = False
    part: bool = False

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        x0, y0, x1, y1 = scene.facts.canvas
        area = scene.facts.canvas_area
        canvas = (x1 - x0) / max(1e-9, y1 - y0)
        big = [(s.bbox[2] - s.bbox[0]) / max(1e-9, s.bbox[3] - s.bbox[1])
               for s in scene.facts.shapes
               if s.box_area >= (0.04 if self.part else 0.25) * area]
        detail = f"canvas {canvas:.2f} wide per tall"
        if self._holds(canvas, 0.08):
            return True, detail
        return (None if any(self._holds(r, 0.25) for r in [canvas, *big]) else False), detail

    def _holds(self, ratio: float, slack: float) -> bool:
        if self.exact:
            return abs(ratio / self.ratio - 1) <= slack
        return ratio > 1 + slack / 2 if self.ratio > 1 else ratio < 1 - slack / 2

    def describe(self) -> str:
        if self.exact:
            return f"about {self.ratio:.2f} wide per tall"
        return "wider than tall" if self.ratio > 1 else "taller than wide"


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


GRADIENT_STEP = 24
"""Stops this far apart on some channel (0-255) make a gradient a person sees."""


@dataclass(frozen=True)
class NoGradient:
    """No visible shape is painted with a gradient whose stops differ visibly ("flat,
    with no gradients"); patterns are not gradients."""

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        shaded = [s for s in scene.facts.drawn if not s.patterned
                  and any(_spread(paint) >= GRADIENT_STEP for paint in (s.fill, s.stroke))]
        return not shaded, f"{len(shaded)} visible shapes painted with a gradient"

    def describe(self) -> str:
        return "no gradients"


def _spread(paint: tuple) -> int:
    return max((max(c[i] for c in paint) - min(c[i] for c in paint) for i in range(3)),
               default=0) if len(paint) > 1 else 0


@dataclass(frozen=True)
class Count:
    """How many visible shapes of a kind (and colour): ``op`` is ``>=`` or ``==``. Too few
    fails only when no pattern fill repeats shapes and the loose kinds plus the pieces of
    compound paths (32 squares as one ``<path>``) are still too few."""

    kind: str
    color: ColorSpec | None
    op: str
    n: int

    def check(self, scene: Scene) -> tuple[Verdict, str]:
        shapes = Selector(self.kind).select(scene.facts)
        strict = [s for s in shapes if self.color is None or painted(self.color, s.main_colors)]
        alike = [s for s in scene.facts.drawn
                 if s.kinds & LOOSE_KINDS.get(self.kind, {self.kind})]
        loose = [s for s in alike if self.color is None  # a red ring is a red circle too
                 or any(self.color.near(c) for c in s.colors)]
        compound = sum(len(s.subpaths) for s in scene.facts.drawn if s.tag != "text"
                       and len(s.subpaths) > 1 and not s.kinds & DEFINITE
                       and (self.color is None or any(self.color.near(c) for c in s.colors)))
        detail = f"{len(strict)} found ({len(loose)} loosely, {compound} in compound paths)"
        holds = len(strict) >= self.n if self.op == ">=" else len(strict) == self.n
        if holds:
            return True, detail
        if any(s.patterned for s in scene.facts.shapes):  # the backdrop too
            return None, detail + "; a pattern repeats shapes not counted"
        broken = len(loose) + compound < self.n or (self.op == "==" and len(strict) > self.n)
        return (False if broken else None), detail

    def describe(self) -> str:
        color = f"{self.color.text} " if self.color else ""
        return f"count({color}{self.kind}) {self.op} {self.n}"
