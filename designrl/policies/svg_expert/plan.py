"""What the svg expert draws, read off the parsed requirements: the canvas, groups of
identical shapes sized to meet every count, who is inside, above or left of whom, and the
colour of each group."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from designrl.policies.svg_expert.palette import (
    choose_free_rgb,
    choose_rgb,
    contrast_rgb,
    mentioned_colors,
    rgb_distance,
)
from designrl.tasks.svg.colour_names import RGB, ColorSpec
from designrl.tasks.svg.predicates import (
    ANY_ELEMENT,
    ANY_SHAPE,
    AllColored,
    BackgroundColor,
    CanvasSize,
    ColorsUsed,
    Outlined,
    Placement,
    Predicate,
    Relation,
    Selector,
    ShapeCount,
)

DEFAULT_CANVAS = (400.0, 400.0)
MAX_CANVAS = 2000.0
MAX_GROUP_COUNT = 12
UNFILLED = ("line", "polyline", "path", "text")
"""Kinds drawn as a stroke or as letters: nothing nests inside them and they take no outline."""

ANSWERS = {
    "circle": {"circle"}, "ellipse": {"ellipse"}, "rectangle": {"rectangle"},
    "square": {"square", "rectangle"}, "triangle": {"triangle", "polygon"},
    "pentagon": {"pentagon", "polygon"}, "hexagon": {"hexagon", "polygon"},
    "octagon": {"octagon", "polygon"}, "star": {"star", "polygon"}, "polygon": {"polygon"},
    "line": {"line"}, "polyline": {"polyline"}, "path": {"path"}, "text": {"text"},
}
"""The nouns a drawn shape of each kind answers to (as ``facts`` classifies our drawings)."""
FILLERS = ("circle", "square", "triangle", "star", "ellipse", "hexagon", "pentagon",
           "rectangle", "line")
"""Kinds tried, in order, when a requirement asks for "shapes" of no particular kind."""


@dataclass(eq=False)
class Group:
    """``count`` identical shapes drawn together; identity is the group itself."""

    kind: str
    color: ColorSpec | None = None
    count: int = 1
    exact: bool = False
    text: str | None = None
    stroke: ColorSpec | None = None
    parent: Group | None = None
    children: list[Group] = field(default_factory=list)
    fill_rgb: RGB | None = None
    stroke_rgb: RGB | None = None

    def answers(self, noun: str) -> bool:
        if noun == ANY_ELEMENT:
            return True
        if noun == ANY_SHAPE:
            return self.kind != "text"
        return noun in ANSWERS[self.kind]

    def top(self) -> Group:
        group = self
        while group.parent is not None:
            group = group.parent
        return group


class Plan:
    """What to draw, read off the predicates: ``size``, ``bg_rgb``, ``groups`` (each with its
    colours), and the ``relations`` and ``placements`` the layout has to meet."""

    def __init__(self, predicates: Sequence[Predicate]) -> None:
        self.size = DEFAULT_CANVAS
        self.background: ColorSpec | None = None
        self.groups: list[Group] = []
        self.relations: list[tuple[Group, str, Group]] = []
        self.placements: list[tuple[Group, str]] = []
        self.counts = [p for p in predicates if isinstance(p, ShapeCount)]
        self.rules = [p for p in predicates if isinstance(p, AllColored)]
        self.mentioned = mentioned_colors(predicates)
        for p in predicates:
            if isinstance(p, CanvasSize) and 0 < p.width <= MAX_CANVAS and 0 < p.height <= MAX_CANVAS:
                self.size = (p.width, p.height)
            elif isinstance(p, BackgroundColor) and self.background is None:
                self.background = p.color
        self.bg_rgb = choose_rgb(self.background) if self.background else (255, 255, 255)
        self._name_shapes(predicates)
        self._meet_counts()
        if not any(g.kind != "text" for g in self.groups):  # draw something, or it is blank
            filler = Group(self._concrete(ANY_SHAPE))
            if self._room(filler, 1):
                self.groups.append(filler)
        self._color_groups([p for p in predicates if isinstance(p, ColorsUsed)])

    # -- which shapes ---------------------------------------------------------------------

    def _name_shapes(self, predicates: Sequence[Predicate]) -> None:
        for p in self.counts:  # shapes a count names by colour or text
            sel = p.selector
            if p.n < 1 or p.op == "<=" or (sel.color is None and sel.text is None):
                continue
            group = self._ensure(sel)
            wanted = min(p.n, MAX_GROUP_COUNT)
            if p.op == "==" and not group.exact:
                group.count, group.exact = wanted, True
            elif not group.exact:
                group.count = max(group.count, wanted)
        for p in predicates:
            if isinstance(p, Relation):
                a, b = self._ensure(p.a), self._ensure(p.b)
                if a is b:
                    continue
                if p.relation == "inside":
                    if a.parent is None and not _contains(a, b) and b.kind not in UNFILLED:
                        a.parent = b
                        b.children.append(a)
                else:
                    self.relations.append((a, p.relation, b))
            elif isinstance(p, Placement):
                self.placements.append((self._ensure(p.selector), p.region))
            elif isinstance(p, Outlined):
                group = self._ensure(p.selector)
                if group.stroke is None:
                    group.stroke = p.color
        for rule in self.rules:  # "all stars must be yellow" needs a star
            if not any(g.answers(rule.selector.kind) for g in self.groups):
                self._ensure(Selector(rule.selector.kind, rule.color))

    def _ensure(self, sel: Selector) -> Group:
        """The group ``sel`` names, adopting a colour into an uncoloured one, else a new one."""
        for group in self.groups:
            if sel.text is not None:
                if group.kind == "text" and sel.text.lower() in (group.text or "").lower():
                    return group
                continue
            if not group.answers(sel.kind) or group.kind == "text" and sel.kind != "text":
                continue
            if sel.color is None or group.color is not None and self._same(group.color,
                                                                           sel.color):
                return group
        if sel.color is not None:  # an uncoloured shape of the kind takes the colour
            for group in self.groups:
                if sel.text is None and group.color is None and group.answers(sel.kind) \
                        and group.kind != "text":
                    group.color = sel.color
                    return group
        if sel.text is not None:
            group = Group("text", sel.color, text=sel.text)
        else:
            group = Group(self._concrete(sel.kind), sel.color)
        self.groups.append(group)
        return group

    def _same(self, mine: ColorSpec, asked: ColorSpec) -> bool:
        return mine.text == asked.text or asked.matches(choose_rgb(mine))

    def _selects(self, sel: Selector, group: Group) -> bool:
        if sel.text is not None:
            return group.kind == "text" and sel.text.lower() in (group.text or "").lower()
        if not group.answers(sel.kind):
            return False
        return sel.color is None or group.color is not None and self._same(group.color, sel.color)

    def _count(self, sel: Selector) -> int:
        return sum(g.count for g in self.groups if self._selects(sel, g))

    def _room(self, group: Group, extra: int) -> bool:
        """Whether ``extra`` more shapes like ``group`` break no "exactly"/"at most" count."""
        return all(self._count(p.selector) + extra <= p.n for p in self.counts
                   if p.op in ("==", "<=") and self._selects(p.selector, group))

    def _concrete(self, noun: str, color: ColorSpec | None = None) -> str:
        if noun in ANSWERS:
            return noun
        for kind in FILLERS:  # "shape", "element": a kind no exact count limits
            if self._room(Group(kind, color), 1):
                return kind
        return "circle"

    def _meet_counts(self) -> None:
        for _ in range(3):
            changed = False
            for p in self.counts:
                have, sel = self._count(p.selector), p.selector
                if p.op in (">=", "==") and have < p.n:
                    changed |= self._add(sel, min(p.n, MAX_GROUP_COUNT) - have)
                elif p.op in ("==", "<=") and have > p.n:
                    changed |= self._remove(sel, have - p.n)
            if not changed:
                return

    def _add(self, sel: Selector, missing: int) -> bool:
        if missing <= 0:
            return False
        for group in self.groups:
            if self._selects(sel, group) and not group.exact and group.kind != "text" \
                    and self._room(group, missing):
                group.count += missing
                return True
        if sel.text is not None:
            return False
        group = Group(self._concrete(sel.kind), sel.color, count=missing)
        if not self._room(group, missing):
            return False
        self.groups.append(group)
        return True

    def _remove(self, sel: Selector, excess: int) -> bool:
        changed = False
        for group in self.groups:
            if excess > 0 and self._selects(sel, group) and not group.exact and group.count > 1:
                cut = min(excess, group.count - 1)
                group.count -= cut
                excess -= cut
                changed = True
        return changed

    # -- which colours --------------------------------------------------------------------

    def _color_groups(self, palettes: Sequence[ColorsUsed]) -> None:
        for group in self.groups:
            for rule in self.rules:
                if group.color is None and group.answers(rule.selector.kind):
                    group.color = rule.color
        for palette in palettes:
            for spec in palette.colors:
                if self._painted(spec):
                    if palette.any_of:
                        break
                    continue
                self._place_color(spec)
                if palette.any_of:
                    break
        self._choose_rgbs()
        for group in self.groups:  # keep every shape visible against what is behind it
            behind = self._backdrop(group)
            if group.stroke_rgb is None and rgb_distance(group.fill_rgb, behind) < 60 \
                    and group.kind not in UNFILLED:
                group.stroke_rgb = contrast_rgb(behind)

    def _place_color(self, spec: ColorSpec) -> None:
        """Paint an unpainted colour: the first uncoloured group (shapes before text), else
        the outline of a filled group, else a small shape of its own where there is room."""
        free = [g for g in self.groups if g.color is None]
        free.sort(key=lambda g: g.kind == "text")
        if free:
            free[0].color = spec
            return
        outlined = [g for g in self.groups if g.stroke is None and g.kind not in UNFILLED]
        extra = Group(self._concrete(ANY_SHAPE, spec), spec)
        if outlined:
            outlined[0].stroke = spec
        elif self._room(extra, 1):  # a small shape of its own
            self.groups.append(extra)

    def _choose_rgbs(self) -> None:
        """Fill and stroke RGBs: the named colours, text in contrast with what is behind it,
        other uncoloured groups in a colour of their own."""
        taken = [choose_rgb(g.color) for g in self.groups if g.color is not None]
        for group in sorted(self.groups, key=lambda g: g.kind == "text"):  # labels: see behind
            if group.color is not None:
                group.fill_rgb = choose_rgb(group.color, self.mentioned)
            elif group.kind == "text":
                group.fill_rgb = contrast_rgb(self._backdrop(group))
            else:
                group.fill_rgb = choose_free_rgb(taken, self.mentioned, self.bg_rgb)
                taken.append(group.fill_rgb)
            if group.stroke is not None:
                group.stroke_rgb = choose_rgb(group.stroke, self.mentioned)

    def _painted(self, spec: ColorSpec) -> bool:
        if spec.matches(self.bg_rgb):  # the background is a drawn rectangle too
            return True
        return any(c is not None and self._same(c, spec)
                   for g in self.groups for c in (g.color, g.stroke))

    def _backdrop(self, group: Group) -> RGB:
        if group.parent is not None:
            parent = group.parent
            return parent.fill_rgb or (choose_rgb(parent.color) if parent.color else self.bg_rgb)
        return self.bg_rgb


def _contains(group: Group, other: Group | None) -> bool:
    """Whether ``other`` is ``group`` or drawn inside it (nesting it would make a cycle)."""
    while other is not None:
        if other is group:
            return True
        other = other.parent
    return False
