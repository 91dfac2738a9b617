"""Where a free-text requirement puts things on the canvas: region words ("in the top left
corner", "along the bottom", "centred"), whose canvas they are, and which quote each
belongs to (``reader``)."""

from __future__ import annotations

import re

from designrl.tasks.svg.colour_names import ColorSpec, color_spec
from designrl.tasks.svg.pixels import Region
from designrl.tasks.svg.words import COLOR_RE, FUNCTION_WORDS

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

CANVAS = (r"(?:canvas|image|picture|drawing|scene|frame|composition|svg|artwork|illustration|"
           r"page|card|poster)")
REGION_RE = re.compile(
    r"\b(?P<pre>(?:at|along|near|across|in|on|into) the (?:very |far )?)?"
    r"(?:(?P<v>top|upper|bottom|lower)[- ](?P<h>left|right)(?:[- ]hand)?"
    r"(?: corner| quadrant| part| area| side| region)?"
    r"|(?P<side>top|upper|bottom|lower|left|right|left-hand|right-hand) (?:half|third|part|"
    r"portion|side|edge|area|section|quarter|region|corner)"
    r"|(?P<edge>top|bottom|left|right)(?![- ](?:left|right|half|third|side|corner))"
    r"|(?P<mid>center|middle)|(?P<centered>centered|centred))\b"
    r"(?P<of> of (?:the |a |an |its |their |his |her )?(?P<owner>\w+))?")
_PREPOSITION = (r"under|beneath|below|above|over|near|next|beside|behind|between|across|along|"
                r"around|inside|within|towards?|against|and|just|slightly|\w+ing|\w+ly")
WHOLE_OWNERS = frozenset(("icon", "logo", "flag", "map", "chart", "diagram", "graph", "plot",
                           "screen", "interface", "layout", "design", "view", "sky"))
"""Things a drawing usually is, or spans (the sky): their left side is the canvas's."""


def canvas_regions(lower: str, spans: list[tuple[int, int]]) -> list[str] | None:
    """Canvas regions the clause names; None when a region belongs to something else
    ("the left side of the house")."""
    out = []
    for found in REGION_RE.finditer(lower):
        if (found.group("edge") or found.group("mid")) and not found.group("pre"):
            continue  # "top" or "middle" alone is not a place on the canvas
        following = re.match(r"[ -]([a-z]+)", lower[found.end():])
        if found.group("edge") and not found.group("of") and following \
                and following.group(1) not in FUNCTION_WORDS \
                and not re.fullmatch(_PREPOSITION, following.group(1)):
            return None  # "on the top tier": a part's top, not the canvas's
        owner = found.group("owner")
        if found.group("centered"):  # "centred in the button", "centred vertically"
            within = re.match(r" (?:horizontally |vertically )?(?:in|within|inside|on|over|"
                              r"under|above|below) (?:the |a |an |its |their )?(\w+)",
                              lower[found.end():])
            owner = within.group(1) if within else owner
            if re.match(r" vertically", lower[found.end():]):
                return None
        if owner and not re.fullmatch(CANVAS, owner) and owner not in WHOLE_OWNERS:
            return None
        if found.group("v"):
            v = "top" if found.group("v") in ("top", "upper") else "bottom"
            out.append(f"{v}_{found.group('h')}")
        elif found.group("side"):
            side = found.group("side").replace("-hand", "")
            out.append({"upper": "top", "lower": "bottom"}.get(side, side))
        elif found.group("edge"):
            out.append(found.group("edge"))
        else:
            out.append("hcenter" if found.group("centered") else "center")
        spans.append(found.span())
    return out


def one_place(regions: list[str]) -> bool:
    """Whether one thing can sit in every region named (not "on the left" and "on the
    right" at once: such places are several parts')."""
    boxes = [REGIONS[r][0] for r in regions if r in REGIONS]
    return (max((b[0] for b in boxes), default=0) < min((b[2] for b in boxes), default=1)
            and max((b[1] for b in boxes), default=0) < min((b[3] for b in boxes), default=1))


def text_regions(lower: str, n: int, regions: list[str]) -> list[str]:
    """One region per quoted text when each quote is followed by its own ("'A' on the left
    and 'B' on the right"); [] otherwise."""
    if n < 2 or len(regions) != n:
        return []
    quotes = [m.start() for m in re.finditer(r"qq\d+qq", lower)]
    places = [m.start() for m in REGION_RE.finditer(lower)
              if m.group("pre") or not (m.group("edge") or m.group("mid"))]
    if len(quotes) != n or len(places) != n:
        return []
    bounds = quotes[1:] + [len(lower)]
    if all(q < p < b for q, p, b in zip(quotes, places, bounds, strict=True)):
        return list(regions)
    return []


_PART_PLACE = re.compile(
    r"\b(?P<pos>left|right|top|bottom|upper|lower|middle|center)(?:most)? (?P<noun>[a-z]+)"
    r"(?P<link>(?: (?:is|are|should|must|will|be|colored|painted|filled|with|in|a|an|solid|has|"
    r"have))*)"
    r" (?P<color>[a-z]+(?:[- ][a-z]+)?)")
_RANKS = {"left": ("x", 0), "right": ("x", 2), "top": ("y", 0), "upper": ("y", 0),
          "bottom": ("y", 2), "lower": ("y", 2), "middle": (None, 1), "center": (None, 1)}
_NOT_PARTS = frozenset("side corner edge half third part area region quarter portion section "
                       "of and hand".split())


def ordered_parts(lower: str) -> list[tuple[ColorSpec, str, ColorSpec]]:
    """Colours of like parts named by place ("the left stripe is green, the middle stripe
    white and the right stripe crimson", "the lower scoop is pink and the upper scoop
    brown"): (a, "left_of" or "above", b) for each pair in order."""
    parts: dict[int, ColorSpec] = {}
    axes, nouns = set(), set()
    for found in _PART_PLACE.finditer(lower):
        if found.group("noun") in _NOT_PARTS or found.group("noun") in FUNCTION_WORDS:
            continue
        phrase = COLOR_RE.match(found.group("color"))
        spec = color_spec(phrase.group(0).replace("-", " ")) if phrase else None
        if spec is None:
            continue
        axis, rank = _RANKS[found.group("pos")]
        if rank in parts:
            return []
        parts[rank] = spec
        nouns.add(found.group("noun"))
        axes.add(axis)
    axes.discard(None)
    if len(parts) < 2 or len(nouns) != 1 or len(axes) != 1:
        return []
    relation = "left_of" if axes == {"x"} else "above"
    ranked = [parts[rank] for rank in sorted(parts)]
    return [(a, relation, b) for i, a in enumerate(ranked) for b in ranked[i + 1:]]
