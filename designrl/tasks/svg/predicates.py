"""Computed checks of one requirement against an SVG: the predicate types and their verdicts.

Each predicate reads a ``Scene`` (the SVG's facts, its rendered page as pixels,
and where on the page the SVG was drawn) and returns ``(passed, detail)``.
Geometry and colours of shapes come from the parsed SVG, counting only shapes the
render shows; the background colour and the colours a drawing uses come from the
pixels, because that is what a viewer sees.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from designrl.tasks.svg.colour_names import RGB, ColorSpec
from designrl.tasks.svg.facts import Shape, SvgFacts
from designrl.tasks.svg.pixels import ABSENT, SHOWN, Pixels

ANY_SHAPE = "shape"
"""Selector kind for "shapes" (anything drawn but text)."""
ANY_ELEMENT = "element"
CENTER_TOLERANCE = 0.1
"""How far (as a fraction of the canvas) a centre may be from the middle and still be centred."""


@dataclass
class Scene:
    """What predicates read: facts (only the shapes the render shows, see ``visibility``),
    the page pixels (H, W, 3 uint8) and the SVG's box on it."""

    facts: SvgFacts
    image: np.ndarray
    box: tuple[float, float, float, float]
    _background: RGB | None = field(default=None, repr=False)
    _pixels: Pixels | None = field(default=None, repr=False)
    small: tuple[Shape, ...] = ()
    """Shapes too small to be sure they show (``visibility.small_shapes``): a tiny star is
    still a white thing."""

    @property
    def pixels(self) -> Pixels:
        """Colour masks over the drawn canvas."""
        if self._pixels is None:
            self._pixels = Pixels(self.image, self.box)
        return self._pixels

    @property
    def background(self) -> RGB:
        if self._background is None:
            self._background = background_color(self.image, self.box)
        return self._background


def background_color(image: np.ndarray, box: tuple[float, float, float, float]) -> RGB:
    """The most common colour on the rim of the drawn SVG (the whole drawing if the rim is
    mixed), as the median of the pixels in the modal colour bin."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    region = image[max(0, y0):max(y0 + 1, y1), max(0, x0):max(x0 + 1, x1), :3]
    if region.size == 0:
        return (255, 255, 255)
    h, w = region.shape[:2]
    rim = max(1, round(0.02 * min(h, w)))
    ring = np.concatenate([region[:rim].reshape(-1, 3), region[-rim:].reshape(-1, 3),
                           region[:, :rim].reshape(-1, 3), region[:, -rim:].reshape(-1, 3)])
    color, share = _modal_color(ring)
    if share < 0.5:
        color, _ = _modal_color(region.reshape(-1, 3)[:: max(1, h * w // 20000)])
    return color


def _modal_color(pixels: np.ndarray) -> tuple[RGB, float]:
    bins = (pixels // 32).astype(np.int32)
    keys = bins[:, 0] * 64 + bins[:, 1] * 8 + bins[:, 2]
    counts = np.bincount(keys, minlength=512)
    top = int(counts.argmax())
    chosen = pixels[keys == top]
    median = np.median(chosen, axis=0)
    return (int(median[0]), int(median[1]), int(median[2])), counts[top] / len(pixels)


def ink_mask(image: np.ndarray, box: tuple[float, float, float, float],
             background: RGB, tolerance: int = 24) -> np.ndarray:
    """The SVG's pixels that differ from its background colour (any channel past
    ``tolerance``); empty when the box holds none."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    region = image[max(0, y0):y1, max(0, x0):x1, :3].astype(np.int16)
    return np.abs(region - np.array(background, dtype=np.int16)).max(axis=2) > tolerance


def ink_fraction(image: np.ndarray, box: tuple[float, float, float, float],
                 background: RGB, tolerance: int = 24) -> float:
    """Share of the SVG's pixels that differ from its background colour."""
    ink = ink_mask(image, box, background, tolerance)
    return float(ink.mean()) if ink.size else 0.0


def hex_color(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def painted(color: ColorSpec, paints: tuple[RGB, ...]) -> bool:
    """Whether a shape painted ``paints`` (one colour, or a gradient's stops) is ``color``:
    a gradient is only when at least half its stops are (a rainbow is not every colour)."""
    if not paints:
        return False
    return sum(color.matches(c) for c in paints) * 2 >= len(paints)


def text_matches(wanted: str, content: str) -> bool:
    """Whether a text element reading ``content`` shows ``wanted``: the words appear in it
    whole (``quotes``), and it is not a long passage that merely quotes them (a
    requirement sentence written out as text does not count as the label it mentions); a
    row of short labels ("a b c d e f g h", "1 2 3 4 5 6 7 8") shows each of them."""
    if not quotes(wanted, content):
        return False
    words, text = _plain(wanted).lower(), _plain(content).lower()
    row = all(len(token) <= 3 for token in text.split())  # "a b c d e f g h": labels in a row
    return len(text) <= 2 * len(words) + 12 or row


def quotes(wanted: str, content: str) -> bool:
    """Whether ``content`` holds the words of ``wanted`` whole, in a passage of any length
    (punctuation and, for letters set in separate spans, spacing aside; in any one case a
    design may set them in: as written, capitals, lower case, title or sentence case, not
    "PP × pp" for "Pp × Pp")."""
    cased, shown = _plain(wanted), _plain(content)
    if not cased:
        return False
    return any(m.group(0) in _cases(cased) for m in re.finditer(
        rf"(?<!\w){re.escape(cased)}(?!\w)", shown, re.IGNORECASE)) or (
        " " in cased and any(c.replace(" ", "") in shown.replace(" ", "") for c in _cases(cased)))


def spelled_with_gaps(words: str, parts: list[str]) -> bool:
    """Whether text elements in a row spell ``words`` but for a letter or two between them:
    the letters left out may be drawn as shapes (a "0" drawn as a face)."""
    target = re.sub(r"\W", "", words.lower())
    pieces = [re.sub(r"\W", "", p.lower()) for p in parts]
    if not all(pieces) or len("".join(pieces)) < (len(target) + 1) // 2:
        return False
    gaps = ".{0,2}".join(map(re.escape, pieces))
    return bool(re.fullmatch(gaps, target)) and len("".join(pieces)) < len(target)


def texts_showing(words: str, shapes: Sequence[Shape]) -> list[Shape]:
    """The text shapes among ``shapes`` that show ``words``: whole ``<text>`` elements, else
    the runs of one (a word in a ``<tspan>`` of its own, set apart from its neighbours by
    paint or place: "Orbit" of "<tspan>Orbit</tspan><tspan>Labs</tspan>")."""
    texts = [s for s in shapes if s.tag == "text"]
    return [s for s in texts if text_matches(words, s.text)] \
        or [r for s in texts for r in s.runs if text_matches(words, r.text)]


def _cases(words: str) -> tuple[str, ...]:
    """``words`` in each case a design may set them in."""
    return words, words.upper(), words.lower(), words.title(), words.capitalize()


def _plain(text: str) -> str:
    """``text``'s words, punctuation aside, in their own case."""
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


@dataclass(frozen=True)
class Selector:
    """Which shapes a phrase like "the red circle" or "the text 'STOP'" picks out."""

    kind: str
    color: ColorSpec | None = None
    text: str | None = None

    def select(self, facts: SvgFacts) -> list[Shape]:
        shapes = facts.drawn if self.text is None else texts_showing(self.text, facts.drawn)
        return [s for s in shapes if self._kind_ok(s) and self._color_ok(s)]

    def _kind_ok(self, shape: Shape) -> bool:
        if self.kind == ANY_ELEMENT:
            return True
        if self.kind == ANY_SHAPE:
            return shape.tag != "text"
        return self.kind in shape.kinds

    def _color_ok(self, shape: Shape) -> bool:
        return self.color is None or painted(self.color, shape.main_colors)

    def describe(self) -> str:
        color = f"{self.color.text} " if self.color else ""
        text = f" {self.text!r}" if self.text is not None else ""
        return f"{color}{self.kind}{text}"


@dataclass(frozen=True)
class BackgroundColor:
    color: ColorSpec

    def check(self, scene: Scene) -> tuple[bool, str]:
        seen = scene.background
        return self.color.matches(seen), f"background is {hex_color(seen)}"

    def describe(self) -> str:
        return f"background is {self.color.text}"


@dataclass(frozen=True)
class ColorsUsed:
    """Every listed colour (or, with ``any_of``, one of them) is painted somewhere."""

    colors: tuple[ColorSpec, ...]
    any_of: bool = False

    def check(self, scene: Scene) -> tuple[bool | None, str]:
        """True when every colour (``any_of``: one) covers a patch of the render, False when
        one (``any_of``: each) is surely absent, None in between (only a speck shows)."""
        pixels = scene.pixels
        found = [c.text for c in self.colors if pixels.share(pixels.mask(c)) >= SHOWN]
        absent = [c.text for c in self.colors if pixels.share(pixels.mask(c, "near")) < ABSENT]
        if self.any_of:
            passed = True if found else False if len(absent) == len(self.colors) else None
        else:
            passed = True if len(found) == len(self.colors) else False if absent else None
        missing = [c.text for c in self.colors if c.text not in found]
        return passed, ("found " + ", ".join(found) if found else "none found") + (
            f"; missing {', '.join(missing)}" if missing and not self.any_of else "")

    def describe(self) -> str:
        joiner = " or " if self.any_of else " and "
        return "uses " + joiner.join(c.text for c in self.colors)


_OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b}


@dataclass(frozen=True)
class ShapeCount:
    selector: Selector
    op: str
    n: int

    def check(self, scene: Scene) -> tuple[bool | None, str]:
        """Too few is undecided where a pattern fill may repeat the shapes uncounted."""
        count = len(self.selector.select(scene.facts))
        detail = f"found {count} {self.selector.describe()}"
        if count < self.n and self.op != "<=" and self.selector.text is None \
                and any(s.patterned for s in scene.facts.shapes):
            return None, detail + "; a pattern repeats shapes not counted"
        return _OPS[self.op](count, self.n), detail

    def describe(self) -> str:
        return f"count({self.selector.describe()}) {self.op} {self.n}"


@dataclass(frozen=True)
class AllColored:
    """Every shape of a kind has the colour (and there is at least one)."""

    selector: Selector
    color: ColorSpec

    def check(self, scene: Scene) -> tuple[bool, str]:
        shapes = self.selector.select(scene.facts)
        wrong = [s for s in shapes if not painted(self.color, s.main_colors)]
        return bool(shapes) and not wrong, f"{len(shapes) - len(wrong)} of {len(shapes)} match"

    def describe(self) -> str:
        return f"all {self.selector.describe()} are {self.color.text}"


@dataclass(frozen=True)
class Outlined:
    """Some selected shape is stroked in the colour."""

    selector: Selector
    color: ColorSpec

    def check(self, scene: Scene) -> tuple[bool, str]:
        shapes = self.selector.select(scene.facts)
        hits = [s for s in shapes if painted(self.color, s.stroke)]
        return bool(hits), f"{len(hits)} of {len(shapes)} {self.selector.describe()} outlined"

    def describe(self) -> str:
        return f"{self.selector.describe()} outlined {self.color.text}"


RELATIONS = ("above", "below", "left_of", "right_of", "inside")


@dataclass(frozen=True)
class Relation:
    """Some shape picked by ``a`` (with ``every``: each one) stands in ``relation`` to some
    other shape picked by ``b`` (above/below/left/right compare centres; inside, boxes)."""

    a: Selector
    relation: str
    b: Selector
    every: bool = False

    def check(self, scene: Scene) -> tuple[bool, str]:
        first, second = self.a.select(scene.facts), self.b.select(scene.facts)
        if not first or not second:
            return False, f"found {len(first)} {self.a.describe()}, {len(second)} {self.b.describe()}"
        w, h = scene.facts.canvas_size
        slack = 0.01 * max(w, h)
        holds = [any(x is not y and _related(x, self.relation, y, slack) for y in second)
                 for x in first]
        passed = all(holds) if self.every else any(holds)
        return passed, f"holds for {sum(holds)} of {len(first)} {self.a.describe()}"

    def describe(self) -> str:
        every = "every " if self.every else ""
        return f"{every}{self.a.describe()} {self.relation} {self.b.describe()}"


def _related(a: Shape, relation: str, b: Shape, slack: float) -> bool:
    (ax, ay), (bx, by) = a.center, b.center
    if relation == "above":
        return ay < by - slack
    if relation == "below":
        return ay > by + slack
    if relation == "left_of":
        return ax < bx - slack
    if relation == "right_of":
        return ax > bx + slack
    if relation == "inside":
        return (a.bbox[0] >= b.bbox[0] - slack and a.bbox[1] >= b.bbox[1] - slack
                and a.bbox[2] <= b.bbox[2] + slack and a.bbox[3] <= b.bbox[3] + slack)
    raise ValueError(f"unknown relation {relation!r}")


REGIONS = ("center", "hcenter", "vcenter", "top", "bottom", "left", "right", "top_left",
           "top_right", "bottom_left", "bottom_right", "top_left_corner", "top_right_corner",
           "bottom_left_corner", "bottom_right_corner")


@dataclass(frozen=True)
class Placement:
    """Some selected shape's centre lies in a region of the canvas."""

    selector: Selector
    region: str

    def check(self, scene: Scene) -> tuple[bool, str]:
        shapes = self.selector.select(scene.facts)
        if not shapes:
            return False, f"found no {self.selector.describe()}"
        x0, y0, x1, y1 = scene.facts.canvas
        for shape in shapes:
            u = (shape.center[0] - x0) / (x1 - x0)
            v = (shape.center[1] - y0) / (y1 - y0)
            if _in_region(u, v, self.region):
                return True, f"centre at ({u:.2f}, {v:.2f}) of the canvas"
        u = (shapes[0].center[0] - x0) / (x1 - x0)
        v = (shapes[0].center[1] - y0) / (y1 - y0)
        return False, f"centre at ({u:.2f}, {v:.2f}) of the canvas"

    def describe(self) -> str:
        return f"{self.selector.describe()} in {self.region}"


def _in_region(u: float, v: float, region: str) -> bool:
    tol = CENTER_TOLERANCE
    corner = region.endswith("_corner")
    limit = 1 / 3 if corner else 0.5
    checks = {
        "center": abs(u - 0.5) <= tol and abs(v - 0.5) <= tol,
        "hcenter": abs(u - 0.5) <= tol,
        "vcenter": abs(v - 0.5) <= tol,
        "top": v < 0.5, "bottom": v > 0.5, "left": u < 0.5, "right": u > 0.5,
    }
    if region in checks:
        return checks[region]
    vertical, horizontal = region.removesuffix("_corner").split("_")
    ok_v = v < limit if vertical == "top" else v > 1 - limit
    ok_h = u < limit if horizontal == "left" else u > 1 - limit
    return ok_v and ok_h


@dataclass(frozen=True)
class CanvasSize:
    width: float
    height: float

    def check(self, scene: Scene) -> tuple[bool, str]:
        facts = scene.facts
        sizes = [facts.canvas_size]
        if facts.width and facts.height:
            sizes.append((facts.width, facts.height))
        ok = any(abs(w - self.width) <= 1 and abs(h - self.height) <= 1 for w, h in sizes)
        return ok, " or ".join(f"{w:g}x{h:g}" for w, h in sizes)

    def describe(self) -> str:
        return f"size {self.width:g}x{self.height:g}"


Predicate = (BackgroundColor | ColorsUsed | ShapeCount | AllColored | Outlined | Relation
             | Placement | CanvasSize)
