"""One clause of a free-text requirement read into atoms (``reader``): what it shows, where,
how many, in which colours, and whether every other word is a function word.

The clause is read in stages, each taking what it reads from the clause's colour mentions
(``objects``) and canvas places (``regions``) so that later stages do not read them twice:
quoted text; canvas size and counts; the background, pointing and relations between two
colours; where the quoted texts go and in which colour; named and labelled parts; coloured
pieces, shapes, lines and areas; and last, every colour left, shown (in its place, when the
clause has one thing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from designrl.tasks.svg.atoms import (
    Area,
    Atom,
    Background,
    Backing,
    Count,
    Drawn,
    Exact,
    Lent,
    Lettering,
    NoText,
    PercentSum,
    Relative,
    Shown,
    Stroke,
    Text,
)
from designrl.tasks.svg.backgrounds import background_colors
from designrl.tasks.svg.counting import (
    color_pieces,
    same_size,
    shape_counts,
    shape_words,
    thing_counts,
)
from designrl.tasks.svg.coverage import cover_atoms
from designrl.tasks.svg.marks import NoGradient, TextOrder
from designrl.tasks.svg.places import CANVAS, canvas_regions, one_place, text_regions
from designrl.tasks.svg.pointing import pointing_atoms
from designrl.tasks.svg.predicates import CanvasSize
from designrl.tasks.svg.stripes import stripe_atoms
from designrl.tasks.svg.texts import (
    is_lettering,
    labelled_part,
    named_parts,
    text_color,
    text_order,
)
from designrl.tasks.svg.words import ISH, ISH_RE, color_mentions, open_choice, rest_is_function

HEDGE = re.compile(r"\b(?:may|might|could|can|optional|optionally|perhaps|possibly|such as|"
                    r"e\.g|for example|for instance|like|if|either|ideally|preferably|or so|"
                    r"suggest|suggests|suggesting|evoke|evokes|evoking|hint|hints)\b")
NEGATION = re.compile(r"\b(?:not|no|never|without|nor|neither|avoid|avoids|except|instead|"
                       r"rather|other than|free of|lacks?|lacking|absent|none|n't)\b|n't\b")
_NO_TEXT = re.compile(r"\b(?:no|without(?: any)?|not (?:contain|include|have|use|show) any|"
                      r"free of(?: any)?)\s+(?:text|words|letters|writing|labels|lettering)\b")
_NO_GRADIENT = re.compile(r"\b(?:no|without(?: any)?|avoids?(?: any)?|free of(?: any)?|not use "
                          r"(?:any )?)\s+(?:colou?r\s+)?gradients?\b|\bgradient-free\b")
_RELATIONS = (("to the left of", "left_of"), ("to the right of", "right_of"),
              ("on top of", "above"), ("left of", "left_of"), ("right of", "right_of"),
              ("above", "above"), ("over", "above"), ("below", "below"), ("beneath", "below"),
              ("underneath", "below"), ("under", "below"), ("higher up than", "above"),
              ("higher than", "above"), ("lower down than", "below"), ("lower than", "below"),
              ("in the center of", "inside"), ("in the middle of", "inside"), ("inside", "inside"),
              ("within", "inside"))
_LINE_AFTER = (r" (?:(?:thin|thick|straight|horizontal|vertical|dashed|dotted|curved|wavy|"
               r"diagonal|solid|bold|long|short|single)\s+)*(?:lines?|strokes?|gridlines|grid lines)\b(?! of)")
_PERCENT_SUM = re.compile(r"\b(?:percentages?|shares|percents|values|numbers|figures)\b.*\b(?:add|adds|"
                          r"sum|sums|total|totals|totalling|totaling) (?:up )?to (?:exactly )?"
                          r"(?P<n>\d+(?:\.\d+)?) ?(?:%|percent)")
_SIZE_RE = re.compile(r"\b(?P<w>\d{2,4}) ?(?:x|×|by) ?(?P<h>\d{2,4})\b")
_AREA_RE = re.compile(r"\b(?:takes? up|covers?|covering|fills?|filling|occup(?:y|ies|ying))"
                      r" (?P<op>at least |about |roughly |around |nearly |most of |over )?"
                      r"(?P<part>half|a third|one third|a quarter|one quarter|most|the majority|"
                      r"the whole|the entire|all)\b(?: of)?(?: the)? " + CANVAS)
_AREA_SHARE = {"half": 0.5, "a third": 0.33, "one third": 0.33, "a quarter": 0.25,
               "one quarter": 0.25, "most": 0.5, "the majority": 0.5, "the whole": 0.85,
               "the entire": 0.85, "all": 0.85}


@dataclass
class _Clause:
    """What a clause has given so far: atoms and the spans they read, whether nothing went
    unread, and the colour mentions, places and texts not yet placed."""

    lower: str
    quotes: list[str]
    atoms: list[Atom] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    whole: bool = True
    objects: list = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def read_clause(clause: str, quotes: list[str], texty: set[int]) -> tuple[list[Atom], bool]:
    """Atoms of one clause, and whether nothing in it went unread. ``quotes`` are the
    sentence's quoted words (the clause holds ``qqNqq`` for each), ``texty`` the indices
    of those the sentence speaks of as text."""
    text = " ".join(clause.replace("’", "'").split())
    text = ISH_RE.sub(lambda m: ISH[m.group(1).lower()], text)
    text = re.sub(r"[.!?]+$", "", text)
    lower = text.lower()
    if not lower.strip():
        return [], True
    whole_clause = _whole_clause(lower)
    if whole_clause is not None:
        return whole_clause
    c = _Clause(lower, quotes)
    _quoted(c, texty)
    colors = color_mentions(text, lower)
    if colors is None:
        return c.atoms, False
    _sizes_and_counts(c)
    _backdrop_and_relations(c, colors)
    regions = canvas_regions(lower, c.spans)
    if regions is None:  # "the left side of the house": not the canvas's
        c.whole, regions = False, []
    c.regions = regions
    if regions and not colors and not c.atoms:  # "a compass rose in the bottom-right corner"
        c.atoms += [Drawn(region) for region in regions]
    _place_texts(c)
    _parts(c)
    _marks(c)
    if not _colours(c):
        return c.atoms, False
    if c.objects and any(isinstance(a, Text) for a in c.atoms):
        c.whole = False  # whose colour, the text's or its sign's, is not read
    whole = c.whole and rest_is_function(lower, c.spans)
    if not whole:  # "exactly four circles for the planets": four of the circles, at least
        return [Count(a.kind, a.color, ">=", a.n) if isinstance(a, Count) else a
                for a in c.atoms], False
    return c.atoms, True


def _whole_clause(lower: str) -> tuple[list[Atom], bool] | None:
    """Clauses read whole or not at all: "no text", hedges and negations (no plain
    necessity), percentages that must add up."""
    excepted = re.search(r"\b(?:other than|except|besides|apart from|but|beyond)\b", lower)
    found = _NO_TEXT.search(lower)
    if found and not excepted:
        return [NoText()], rest_is_function(lower, [found.span()])
    found = _NO_GRADIENT.search(lower)
    if found and not excepted:  # "flat colours with no gradients or shadows"
        return [NoGradient()], rest_is_function(lower, [found.span()])
    if HEDGE.search(lower) or NEGATION.search(lower) or open_choice(lower):
        return [], False
    found = _PERCENT_SUM.search(lower)
    if found:  # "the percentages must add up to 100%"
        return [PercentSum(float(found.group("n")))], False
    return None


def _quoted(c: _Clause, texty: set[int]) -> None:
    for found in re.finditer(r"qq(\d+)qq", c.lower):
        words = c.quotes[int(found.group(1))]
        if int(found.group(1)) in texty and 0 < len(words.split()) <= 8:
            c.atoms.append(Text(words))
            c.spans.append(found.span())
        else:
            c.whole = False
    if re.search(r"\bwhite space\b", c.lower):
        c.whole = False


def _sizes_and_counts(c: _Clause) -> None:
    lower = c.lower
    size = _SIZE_RE.search(lower)
    if size and re.search(rf"\b(?:{CANVAS[3:-1]}|pixels|px|viewbox|size|dimensions)\b", lower):
        c.atoms.append(Exact(CanvasSize(float(size.group("w")), float(size.group("h")))))
        c.spans.append(size.span())
    counts = shape_counts(lower, c.spans)
    c.atoms += counts
    things = thing_counts(lower) + same_size(lower)
    if things:  # evidence only: "five leaves" can never be passed on alike shapes alone
        c.atoms += things
        c.whole = False
    if counts and re.search(r"\b(?:small|large|big|tiny|little)\b", lower):
        c.whole = False  # the size is not checked


def _backdrop_and_relations(c: _Clause, colors) -> None:
    """The background's colours, then what the other colours point at or stand in relation to."""
    background = background_colors(c.lower, colors, c.spans)
    c.atoms += [Background(color) for color in background]
    backing = {s for s, specs in colors if any(b in specs for b in background)}
    c.spans += backing
    c.objects = [(span, specs) for span, specs in colors if span not in backing]
    pointing = pointing_atoms(c.lower, c.objects)
    if pointing:  # "a white triangle pointing right", "the bus faces left"
        c.atoms += pointing
        c.whole = False
    relation = _relation(c.lower, c.objects, c.spans)
    if relation is not None:
        c.atoms.append(relation)


def _place_texts(c: _Clause) -> None:
    """Quoted texts in their order, their places and their colour."""
    lower, atoms = c.lower, c.atoms
    texts = [a for a in atoms if isinstance(a, Text)]
    order = text_order(lower, [t.words for t in texts])
    if order is not None:  # "'Accept' is to the right of 'Reject'"
        atoms.append(order)
        atoms.remove(texts[1])  # the text placed by is presumed: shown, it is another's to ask
        texts = texts[:1]
        c.whole = False
        if len(c.regions) > 1:  # "the upper-left island is labelled 'A' and the lower-right
            c.regions = []      # island 'B'": the places are the parts', which the order reads
    paired = text_regions(lower, len(texts), c.regions)
    if paired:  # "'1:24' on the left and '3:58' on the right"
        axis = {("left", "right"): "x", ("right", "left"): "x", ("top", "bottom"): "y",
                ("bottom", "top"): "y"}.get(tuple(paired))
        for text, region in zip(texts, paired, strict=True):  # opposite sides: the pair's
            atoms[atoms.index(text)] = Text(text.words, None, () if axis else (region,))
        if axis is not None:  # own order, wherever the pair sits (a dialog's two buttons)
            ordered = [t.words for t in texts]
            atoms.append(TextOrder(tuple(ordered if paired[0] in ("left", "top")
                                         else reversed(ordered)), axis))
        texts, c.regions = [], []
    c.texts = texts
    if len(texts) == 1 and len(c.objects) <= 1:  # "the title 'X' in white at the bottom"
        bound = text_color(lower, c.objects)
        if bound is not None or not c.objects:
            places = tuple(c.regions) if one_place(c.regions) else ()  # else other parts'
            atoms[atoms.index(texts[0])] = Text(texts[0].words, bound[1] if bound else None,
                                                places)
            if bound:
                c.spans.append(bound[0])
                c.objects = []
            c.regions = []
        elif labelled_part(lower, c.objects[0][0]) and len(c.objects[0][1]) == 1:
            atoms.append(Backing(c.objects[0][1][0], texts[0].words))  # "a green 'Start' box"


def _parts(c: _Clause) -> None:
    """A part named by its label, or lettering given a colour."""
    named = named_parts(c.lower, c.quotes, c.objects)
    if named:  # "the 'Search' button must be orange"
        c.atoms += named
        c.objects = []
    if not c.texts and len(c.objects) == 1 and is_lettering(c.lower, c.objects[0][0]):
        c.atoms.append(Lettering(c.objects[0][1]))  # "the labels should be white": some of them
        c.objects, c.whole = [], False


def _marks(c: _Clause) -> None:
    """Coloured pieces, shape words, lines and areas of the colours left."""
    lower, objects = c.lower, c.objects
    c.atoms += color_pieces(lower, objects)
    c.atoms += shape_words(lower, objects)
    c.atoms += stripe_atoms(lower, objects)  # their words stay unread: evidence, never a pass
    c.atoms += cover_atoms(lower, objects)
    c.atoms += [Stroke(specs[0]) for (_, end), specs in objects if len(specs) == 1
                and re.match(_LINE_AFTER, lower[end:])
                and not c.texts]  # "a grey line shows the expression '1 + 2'": a line of text
    area = _AREA_RE.search(lower)
    if area and len(objects) == 1 and len(objects[0][1]) == 1:
        c.atoms.append(Area(objects[0][1][0], _AREA_SHARE[area.group("part")]))
        c.spans.append(area.span())


def _colours(c: _Clause) -> bool:
    """Every colour left, shown (where the clause places it, when it is one thing's); False
    when the clause places several things, which cannot be told apart. Colours in a clause
    that compares two things' sizes only name them: missing, they leave it undecided."""
    placed = len(c.objects) == 1 or _one_thing(c.lower, c.objects)
    compared = _COMPARES.search(c.lower)
    for span, specs in c.objects:
        c.spans.append(span)
        if compared:
            c.atoms.append(Lent(Shown(specs), "the colour names a thing compared"))
            c.whole = False
        elif c.regions and placed:
            c.atoms += [Shown(specs, region) for region in c.regions]
        else:
            c.atoms.append(Shown(specs))
    return not (c.regions and not placed)


_COMPARES = re.compile(r"\b(?:(?:taller|shorter|wider|narrower|longer|larger|bigger|smaller)"
                       r" than (?!(?:it|they) (?:is|are)\b)|(?:as|so) (?:tall|wide|long|large|big|"
                       r"thick) as (?!(?:it|they) (?:is|are)\b))")
"""Two things' sizes compared ("twice as tall as each red stripe"), not a thing's
proportions ("wider than it is tall")."""
_PATTERNED = re.compile(r" (?:striped|stripy|checked|check|chequered|checkered|spotted|"
                        r"dotted|polka[- ]dot(?:ted)?|banded|plaid|tartan|two[- ]tone[d]?)\b")


def _one_thing(lower: str, objects) -> bool:
    """Whether two colours are one thing's ("a red and white striped lighthouse"): then
    both are where the sentence places it."""
    if len(objects) != 2:
        return False
    (first, _), (second, _) = objects
    return lower[first[1]:second[0]] == " and " and bool(_PATTERNED.match(lower[second[1]:]))


def _relation(lower: str, objects, spans: list[tuple[int, int]]) -> Relative | None:
    for phrase, relation in _RELATIONS:
        found = re.search(rf"\b{phrase}\b", lower)
        if found is None:
            continue
        before = [(s, c) for s, c in objects if s[1] <= found.start()]
        after = [(s, c) for s, c in objects if s[0] >= found.end()]
        if len(before) == 1 and after and len(before[0][1]) == 1 and len(after[0][1]) == 1:
            spans.append(found.span())
            return Relative(before[0][1][0], relation, after[0][1][0])
        return None
    return None
