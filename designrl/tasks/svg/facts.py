"""What an SVG draws, computed from its tree: shapes with outlines, colours and kinds.

``svg_facts(root)`` walks the rendered part of the document (``<defs>``,
``<clipPath>``, ``<mask>``, ``<symbol>`` and friends only through ``<use>``),
applies transforms and the style cascade, and returns one ``Shape`` per drawn
element in paint order, in the root's user space. Shapes filling the whole
canvas before anything else is drawn are marked as background: they set the
background colour and are not counted as "rectangles" in the drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from designrl.tasks.svg.colour_names import RGB, parse_color
from designrl.tasks.svg.effects import colour_effects
from designrl.tasks.svg.geometry import (
    IDENTITY,
    Matrix,
    Subpath,
    bbox,
    multiply,
    parse_length,
    parse_numbers,
    parse_transform,
    rect_points,
    scale_factor,
    transform_subpaths,
)
from designrl.tasks.svg.kinds import classify
from designrl.tasks.svg.outlines import element_outline
from designrl.tasks.svg.parse import (
    DEFAULT_LIMITS,
    XLINK_NS,
    SvgError,
    SvgLimits,
    is_svg_element,
    local_name,
)
from designrl.tasks.svg.style import Stylesheet, compute_style, parse_declarations
from designrl.tasks.svg.text_runs import text_runs

BBox = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in the root's user space."""

SHAPE_TAGS = frozenset({"circle", "ellipse", "rect", "line", "polyline", "polygon", "path",
                        "text", "image"})
CONTAINER_TAGS = frozenset({"g", "a", "switch", "svg"})
DEFAULT_SIZE = (300.0, 150.0)  # CSS's default size of a replaced element
BACKGROUND_COVER = 0.95


@dataclass
class Shape:
    """One drawn element. ``fill``/``stroke`` list the paint's colours (a gradient's stops)."""

    tag: str
    subpaths: list[Subpath]
    bbox: BBox
    fill: tuple[RGB, ...] = ()
    stroke: tuple[RGB, ...] = ()
    stroke_width: float = 0.0
    kinds: frozenset[str] = frozenset()
    """The nouns it answers to: ``circle``, ``rectangle``, ``square``, ``triangle``, ..."""
    text: str = ""
    element_id: str | None = None
    is_background: bool = False
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0
    """How opaque the paint is (opacities multiplied): a faint shape hardly shows."""
    patterned: bool = False
    """Painted with a ``<pattern>``: it shows copies of shapes no count sees."""
    runs: tuple[Shape, ...] = ()
    """A text's pieces set apart by ``<tspan>``s, each with its own words, paint and box
    (``text_runs``); empty for a text read whole, and for every other shape."""

    @property
    def center(self) -> tuple[float, float]:
        return ((self.bbox[0] + self.bbox[2]) / 2, (self.bbox[1] + self.bbox[3]) / 2)

    @property
    def box_area(self) -> float:
        """The area of its bounding box, in user units."""
        return (self.bbox[2] - self.bbox[0]) * (self.bbox[3] - self.bbox[1])

    @property
    def main_colors(self) -> tuple[RGB, ...]:
        """What colour a person would call it: the fill, or the stroke of an unfilled shape."""
        if self.tag == "line" or (self.tag == "polyline" and not self.fill):
            return self.stroke
        return self.fill or self.stroke

    @property
    def colors(self) -> tuple[RGB, ...]:
        return self.fill + self.stroke


@dataclass
class SvgFacts:
    canvas: BBox
    """The user-space box the SVG shows: its viewBox, else (0, 0, width, height)."""
    width: float | None
    height: float | None
    preserve_aspect_ratio: str = "xMidYMid meet"
    shapes: list[Shape] = field(default_factory=list)
    element_count: int = 0
    external_refs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    colour_effects: tuple[str, ...] = ()
    """Features that paint colours no shape lists (``effects``): no colour is called absent."""

    @property
    def canvas_size(self) -> tuple[float, float]:
        return (self.canvas[2] - self.canvas[0], self.canvas[3] - self.canvas[1])

    @property
    def canvas_area(self) -> float:
        """The canvas's area in user units (never 0, so shares of it are defined)."""
        w, h = self.canvas_size
        return max(1e-9, w * h)

    @property
    def drawn(self) -> list[Shape]:
        """The shapes in front of the background."""
        return [s for s in self.shapes if not s.is_background]


def svg_facts(root: Element, limits: SvgLimits = DEFAULT_LIMITS) -> SvgFacts:
    """Facts of a parsed ``<svg>`` root; raises ``SvgError`` (``too_many_shapes``) past caps."""
    width = _root_length(root.get("width"))
    height = _root_length(root.get("height"))
    box = parse_numbers(root.get("viewBox"))
    if len(box) == 4 and box[2] > 0 and box[3] > 0:
        canvas = (box[0], box[1], box[0] + box[2], box[1] + box[3])
    else:
        w = width or (height if height and not width else None) or DEFAULT_SIZE[0]
        h = height or (width if width and not height else None) or DEFAULT_SIZE[1]
        canvas = (0.0, 0.0, w, h)
    facts = SvgFacts(canvas, width, height,
                     (root.get("preserveAspectRatio") or "xMidYMid meet").strip())
    walker = _Walker(root, facts, limits)
    walker.visit(root, IDENTITY, {}, 1.0, 0)
    facts.element_count = sum(1 for _ in root.iter())
    facts.colour_effects = colour_effects(root)
    _mark_background(facts)
    return facts


def _root_length(value: str | None) -> float | None:
    if value is None or value.strip().endswith("%"):
        return None
    length = parse_length(value, default=-1.0)
    return length if length > 0 else None


class _Walker:
    def __init__(self, root: Element, facts: SvgFacts, limits: SvgLimits) -> None:
        self.facts = facts
        self.limits = limits
        self.sheet = Stylesheet(root)
        self.ids = {e.get("id"): e for e in root.iter() if e.get("id")}
        self.instances = 0
        self.points = 0
        self.using: list[Element] = []
        for element in root.iter():
            if local_name(element.tag) == "script" or any(
                    name.lower().startswith("on") for name in element.attrib):
                self._warn("scripts are ignored (the SVG is rendered as an image)")
            for name, value in element.attrib.items():
                if local_name(name) in ("href", "src") and not value.strip().startswith(
                        ("#", "data:")):
                    facts.external_refs.append(value.strip()[:200])
        if facts.external_refs:
            self._warn("external references are not loaded: " + ", ".join(facts.external_refs[:3]))

    def _warn(self, message: str) -> None:
        if message not in self.facts.warnings:
            self.facts.warnings.append(message)

    def visit(self, element: Element, matrix: Matrix, parent: dict[str, str], opacity: float,
              depth: int) -> None:
        if not is_svg_element(element):
            return
        if depth > 2 * self.limits.max_depth:  # nesting continued through <use> chains
            raise SvgError("too_deep", f"elements nested deeper than {2 * self.limits.max_depth} "
                           "through <use> references")
        self.instances += 1
        if self.instances > self.limits.max_shapes:
            raise SvgError("too_many_shapes", f"more than {self.limits.max_shapes} drawn elements "
                           "(after <use> expansion)")
        tag = local_name(element.tag)
        style = compute_style(element, parent, self.sheet)
        if style.get("display") == "none":
            return
        opacity *= _number(style.get("opacity"), 1.0)
        if opacity <= 0.01:
            return
        matrix = multiply(matrix, parse_transform(element.get("transform")))
        if tag in CONTAINER_TAGS:
            if tag == "svg" and depth > 0:
                matrix = multiply(matrix, _nested_viewport(element))
            for child in element:
                self.visit(child, matrix, style, opacity, depth + 1)
        elif tag == "use":
            self._visit_use(element, matrix, style, opacity, depth)
        elif tag in SHAPE_TAGS and style.get("visibility", "visible") == "visible":
            shape = self._shape(element, tag, matrix, style, opacity)
            if shape is not None:
                self.facts.shapes.append(shape)

    def _visit_use(self, element: Element, matrix: Matrix, style: dict[str, str], opacity: float,
                   depth: int) -> None:
        href = element.get("href") or element.get(f"{{{XLINK_NS}}}href") or ""
        target = self.ids.get(href[1:]) if href.startswith("#") else None
        if target is None or target in self.using or len(self.using) >= self.limits.max_depth:
            return
        offset = (1, 0, 0, 1, parse_length(element.get("x")), parse_length(element.get("y")))
        self.using.append(target)
        try:
            if local_name(target.tag) == "symbol":
                for child in target:
                    self.visit(child, multiply(matrix, offset), style, opacity, depth + 1)
            else:
                self.visit(target, multiply(matrix, offset), style, opacity, depth + 1)
        finally:
            self.using.pop()

    def _shape(self, element: Element, tag: str, matrix: Matrix, style: dict[str, str],
               opacity: float) -> Shape | None:
        local = element_outline(element, tag, style, self.limits.max_path_points - self.points,
                                self.ids)
        if local is None:
            return None
        subpaths, straight, kinds = local
        world = [(points, closed) for points, closed in transform_subpaths(matrix, subpaths)
                 if all(math.isfinite(x) and math.isfinite(y) for x, y in points)]
        self.points += sum(len(p) for p, _ in world)
        if self.points > self.limits.max_path_points:
            raise SvgError("too_many_shapes", f"outlines with more than "
                           f"{self.limits.max_path_points} points")
        all_points = [p for points, _ in world for p in points]
        if not all_points:
            return None
        fill = self._paint(style.get("fill"), style, "fill-opacity", opacity)
        stroke = self._paint(style.get("stroke"), style, "stroke-opacity", opacity)
        width = parse_length(style.get("stroke-width"), default=1.0) * scale_factor(matrix)
        if width <= 0:
            stroke = ()
        if tag in ("line", "image"):
            fill = ()
        if tag not in ("text", "image") and not fill and not stroke and not (
                self._refers(style.get("fill")) or self._refers(style.get("stroke"))):
            return None  # draws nothing
        kinds = kinds | classify(tag, world, straight, matrix)
        text = " ".join("".join(element.itertext()).split()) if tag == "text" else ""
        runs = self._runs(element, matrix, style, opacity) if tag == "text" else ()
        if runs:  # the letters are painted by their spans, not by the text's own fill
            fill = tuple(dict.fromkeys(c for run in runs for c in run.fill))
        return Shape(tag, world, bbox(all_points), fill, stroke, width if stroke else 0.0,
                     frozenset(kinds), text, element.get("id"), False,
                     self._alpha(style.get("fill"), style, "fill-opacity", opacity),
                     self._alpha(style.get("stroke"), style, "stroke-opacity", opacity),
                     self._refers(style.get("fill"), "pattern")
                     or self._refers(style.get("stroke"), "pattern"), runs)

    def _runs(self, element: Element, matrix: Matrix, style: dict[str, str],
              opacity: float) -> tuple[Shape, ...]:
        """A text's ``<tspan>`` runs as text shapes of their own (``text_runs``)."""
        out = []
        for run in text_runs(element, style, self.sheet):
            x, y, w, h = run.box
            world = transform_subpaths(matrix, [(rect_points(x, y, w, h), True)])
            points = [p for subpath, _ in world for p in subpath]
            fill = self._paint(run.style.get("fill"), run.style, "fill-opacity", opacity)
            stroke = self._paint(run.style.get("stroke"), run.style, "stroke-opacity", opacity)
            out.append(Shape("text", world, bbox(points), fill, stroke, 0.0,
                             frozenset({"text"}), run.text))
        return tuple(out)

    def _alpha(self, value: str | None, style: dict[str, str], opacity_name: str,
               opacity: float) -> float:
        color = parse_color((value or "").strip())
        base = color.alpha if color is not None else 1.0
        return base * opacity * _number(style.get(opacity_name), 1.0)

    def _paint(self, value: str | None, style: dict[str, str], opacity_name: str,
               opacity: float) -> tuple[RGB, ...]:
        value = (value or "").strip()
        alpha = opacity * _number(style.get(opacity_name), 1.0)
        if value == "currentColor":
            value = style.get("color", "black")
        if value.startswith("url("):
            ref, _, fallback = value[4:].partition(")")
            target = self.ids.get(ref.strip().strip("'\"").lstrip("#"))
            if target is None:
                value = fallback.strip()
            else:
                return self._gradient_colors(target, alpha)
        color = parse_color(value)
        if color is None or color.alpha * alpha <= 0.05:
            return ()
        return (color.rgb,)

    def _gradient_colors(self, gradient: Element, alpha: float) -> tuple[RGB, ...]:
        """A gradient's stop colours (following ``href`` to inherited stops), or the colours
        painted inside a pattern."""
        if local_name(gradient.tag) == "pattern":
            found = []
            for element in gradient.iter():
                style = compute_style(element, {}, self.sheet)
                for name in ("fill", "stroke"):
                    if element.get(name) or name in parse_declarations(element.get("style") or ""):
                        color = parse_color(style.get(name))
                        if color is not None and color.alpha * alpha > 0.05:
                            found.append(color.rgb)
            return tuple(dict.fromkeys(found))
        seen = 0
        while gradient is not None and seen < 4:
            stops = [s for s in gradient if local_name(s.tag) == "stop"]
            if stops:
                out = []
                for stop in stops:
                    style = compute_style(stop, {}, self.sheet)
                    color = parse_color(style.get("stop-color", "black"))
                    if color and color.alpha * alpha * _number(style.get("stop-opacity"), 1) > 0.05:
                        out.append(color.rgb)
                return tuple(dict.fromkeys(out))
            href = gradient.get("href") or gradient.get(f"{{{XLINK_NS}}}href") or ""
            gradient = self.ids.get(href[1:]) if href.startswith("#") else None
            seen += 1
        return ()

    def _refers(self, value: str | None, tag: str | None = None) -> bool:
        """Whether a paint is ``url(#id)`` of an element that exists (of ``tag`` if given)."""
        value = (value or "").strip()
        if not value.startswith("url("):
            return False
        ref = value[4:].partition(")")[0].strip().strip("'\"").lstrip("#")
        return ref in self.ids and (tag is None or local_name(self.ids[ref].tag) == tag)


def _number(value: str | None, default: float) -> float:
    """An opacity-like value clamped to [0, 1] (``50%`` -> 0.5); junk gives ``default``."""
    if not value:
        return default
    text = value.strip()
    try:
        result = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return default
    return min(1.0, max(0.0, result)) if math.isfinite(result) else default


def _nested_viewport(element: Element) -> Matrix:
    x, y = parse_length(element.get("x")), parse_length(element.get("y"))
    box = parse_numbers(element.get("viewBox"))
    w, h = parse_length(element.get("width"), default=0), parse_length(element.get("height"),
                                                                      default=0)
    if len(box) == 4 and box[2] > 0 and box[3] > 0 and w > 0 and h > 0:
        s = min(w / box[2], h / box[3])
        return (s, 0, 0, s, x - box[0] * s, y - box[1] * s)
    return (1, 0, 0, 1, x, y)


def _mark_background(facts: SvgFacts) -> None:
    x0, y0, x1, y1 = facts.canvas
    area = (x1 - x0) * (y1 - y0)
    for shape in facts.shapes:
        if not shape.fill or shape.tag in ("text", "line", "polyline"):
            break
        sx0, sy0, sx1, sy1 = shape.bbox
        covered = max(0.0, min(x1, sx1) - max(x0, sx0)) * max(0.0, min(y1, sy1) - max(y0, sy0))
        if area <= 0 or covered < BACKGROUND_COVER * area or "rectangle" not in shape.kinds:
            break
        shape.is_background = True

