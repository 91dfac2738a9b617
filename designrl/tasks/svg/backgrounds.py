"""Which colour a free-text requirement gives the canvas's background, and when a
background is a part's instead ("the icon background", "a rounded square background")
(``reader``)."""

from __future__ import annotations

import re

from designrl.tasks.svg.colour_names import ColorSpec, color_spec
from designrl.tasks.svg.words import SHADES, WORDS_COLOR


def background_colors(lower: str, colors, spans: list[tuple[int, int]]) -> list[ColorSpec]:
    """Colours the clause gives the background ("a navy background", "the background
    should be pale yellow"); not for gradients, which have no one colour."""
    where = re.search(r"\b(?:background|backdrop)\b", lower)
    if where is None or "gradient" in lower:
        return []
    if owned_background(lower, where):
        return []  # "the icon background", "a tile with a blue background": not the canvas's
    out = []
    for span, specs in colors:
        between = lower[span[1]:where.start()] if span[1] <= where.start() else \
            lower[where.end():span[0]]
        if span[1] <= where.start() and re.fullmatch(r"(?: colored| toned| hued)? ", between):
            out += specs[:1] if len(specs) == 1 else []
        elif span[0] >= where.end() and re.fullmatch(
                r"(?: color)?(?: of (?:the )?\w+)? (?:\w+ )?(?:is|be|are|of|in|as|:)"
                r"(?: set to| filled with| painted| colored)? (?:a |an )?(?:\w+ )?", between):
            out += specs[:1] if len(specs) == 1 else []
    if out:
        spans.append(where.span())
    return out


_NOT_CANVAS = r"(?!(?:canvas|image|picture|drawing|scene|svg|artwork|illustration|page|sky)\b)[a-z]+"
"""A word that may own a background: anything but the drawing itself ("the card" may be
a part, "centred on a light grey page")."""
_OWNERS = (
    rf"\b({_NOT_CANVAS}) (?:(?:should|must|will|shall|would|can|to|does|do) )?"
    r"(?:with|has|have|having) (?:a |an )?[a-z\- ]*$",  # "the screen should have a grey ..."
    rf"\b(?:the|a|an|its|their|his|her) ({_NOT_CANVAS}) $",  # "the icon background"
    rf"\b(?:inside|within) (?:the |a |an |its |their )?({_NOT_CANVAS})\b",  # "inside
    # the border the background is sky blue": the badge's, not the canvas's
)
_NOT_OWNERS = frozenset(SHADES) | frozenset("""
it this that which and or very also only plain solid simple flat uniform pure single whole
entire overall main same different its their
""".split())
"""Words before "background" that name no part owning it ("a plain background")."""
_SHAPE_NOUNS = r"(?:circle|disc|disk|square|rectangle|shape|tile|badge|box|panel|ellipse|oval)"


def owned_background(lower: str, where: re.Match) -> bool:
    """Whether the sentence's background belongs to a part, not the canvas: a noun owns it
    ("the icon background", "the screen should have a grey background", "the background of
    the chart") or it is a shape ("the background should be a light blue circle")."""
    before, after = lower[:where.start()], lower[where.end():]
    if re.search(rf"\b(?:{_SHAPE_NOUNS}|round|rounded|circular|oval|square)\s+"
                 rf"(?:{WORDS_COLOR}\s+)?$", before):
        return True  # "a rounded square background", "a round mint-green background": a
        # shape's, drawn on the canvas
    if re.search(rf"\b(?:characters|letters|lettering|digits|numbers|numerals|text|words?|"
                 rf"qq\d+qq)\b.* on (?:a |an )?(?:{WORDS_COLOR}\s+)?$", before):
        return True  # "'$1.50' in green characters on a black background": the text's
    for pattern in _OWNERS:
        found = re.search(pattern, before)
        if found and found.group(1) not in _NOT_OWNERS and color_spec(found.group(1)) is None:
            return True
    owner = re.match(r" (?:color |colour )?of (?:the |a |an |its )?([a-z]+)", after)
    if owner and re.fullmatch(_NOT_CANVAS, owner.group(1)):
        return True
    return bool(re.search(rf"\b{_SHAPE_NOUNS}s?\b", after.split(",")[0]))
