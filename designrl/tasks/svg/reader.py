"""Read a free-text requirement into atoms, and say whether they cover all of it.

A sentence the pattern reader (``requirements.parse_requirement``) understands whole
becomes one ``Exact`` atom: it is decided either way. Any other sentence is read
clause by clause for what can be checked ("The cow's hooves must be coloured brown,
as if covered in soil" gives: brown shown):

* colours (basic names, with "light"/"dark"/... and "-ish"; "red or orange" is one
  atom either colour meets) shown on the canvas; a colour next to "background" is the
  background's (not "a tile with a blue background"); with one colour and a canvas region
  in a clause ("in the top left corner", "along the bottom", "centred"), shown in that
  region (``places``); two colours around "above", "higher than", "to the left of",
  "in the centre of", ... in that relation;
* quoted words, where the sentence speaks of text ("labelled 'Search'"), quoted figures
  ("'1:24'") and lists of short quotes, shown as text, each in its own place ("'1:24' on
  the left and '3:58' on the right"); the colour of unquoted text ("the labels must be
  white", ``texts``);
* counts of primitive shapes ("three red circles"), of things drawn as shapes ("five
  trees, drawn as dark green circles"), of things of a colour ("five light blue
  candles"), and shape words ("a red octagonal sign", ``counting``);
* coloured lines ("a red line"); percentages that must add up; the drawing's proportions
  when it is the subject ("the flag should be wider than it is tall");
* "no text"; the canvas size ("800 by 600 pixels"); a colour covering a share of it.

``read_requirements`` reads a whole list: a sentence naming an object bare ("The barn
should stand on the left") borrows the colour another sentence gives it, and the thing
most sentences are about ("the tank") is the canvas for where its parts are
(``binding``); what is read so is never complete, so it can fail a requirement, never
pass it.

Clauses that hedge ("could", "such as", "for example") or negate ("no", "without",
"instead of") give no atoms, since what they ask is not a plain necessity. A reading is
``complete`` only when every other word of the sentence is a function word the atoms
make redundant ("the", "must", "coloured", "canvas"): only then can its atoms passing
pass the requirement. Capitalised colour words mid-sentence are names ("Red Cross"),
not colours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from designrl.tasks.svg.atoms import (
    Area,
    Atom,
    Background,
    Backing,
    Count,
    Drawn,
    Exact,
    Hint,
    Lent,
    Lettering,
    NoText,
    PercentSum,
    Pieces,
    Proportion,
    Relative,
    Shown,
    Stroke,
    Text,
    TextOrder,
)
from designrl.tasks.svg.backgrounds import background_colors
from designrl.tasks.svg.binding import (
    as_canvas,
    lend_colors,
    list_labels,
    object_colors,
    quote_labels,
    subject_nouns,
    usual_colors,
)
from designrl.tasks.svg.counting import (
    color_pieces,
    drawn_as,
    same_size,
    shape_counts,
    shape_words,
    thing_counts,
)
from designrl.tasks.svg.places import (
    CANVAS,
    WHOLE_OWNERS,
    canvas_regions,
    ordered_parts,
    text_regions,
)
from designrl.tasks.svg.pointing import pointing_atoms
from designrl.tasks.svg.predicates import CanvasSize
from designrl.tasks.svg.requirements import _QUOTED, parse_requirement
from designrl.tasks.svg.texts import (
    is_lettering,
    labelled_part,
    named_part,
    text_color,
    text_order,
    textual_quotes,
)
from designrl.tasks.svg.words import (
    COLOR_RE,
    FUNCTION_WORDS,
    ISH,
    ISH_RE,
    color_mentions,
    open_choice,
    rest_is_function,
)

_HEDGE = re.compile(r"\b(?:may|might|could|can|optional|optionally|perhaps|possibly|such as|"
                    r"e\.g|for example|for instance|like|if|either|ideally|preferably|or so|"
                    r"suggest|suggests|suggesting|evoke|evokes|evoking|hint|hints)\b")
_NEGATION = re.compile(r"\b(?:not|no|never|without|nor|neither|avoid|avoids|except|instead|"
                       r"rather|other than|free of|lacks?|lacking|absent|none|n't)\b|n't\b")
_NO_TEXT = re.compile(r"\b(?:no|without(?: any)?|not (?:contain|include|have|use|show) any|"
                      r"free of(?: any)?)\s+(?:text|words|letters|writing|labels|lettering)\b")
_RELATIONS = (("to the left of", "left_of"), ("to the right of", "right_of"),
              ("on top of", "above"), ("left of", "left_of"), ("right of", "right_of"),
              ("above", "above"), ("over", "above"), ("below", "below"), ("beneath", "below"),
              ("underneath", "below"), ("under", "below"), ("higher up than", "above"),
              ("higher than", "above"), ("lower down than", "below"), ("lower than", "below"),
              ("in the center of", "inside"), ("in the middle of", "inside"), ("inside", "inside"),
              ("within", "inside"))
_LINE_AFTER = (r" (?:(?:thin|thick|straight|horizontal|vertical|dashed|dotted|curved|wavy|"
               r"diagonal|solid|bold|long|short|single)\s+)*(?:lines?|strokes?|gridlines|grid lines)\b(?! of)")
_PROPORTION = re.compile(
    r"\b(?:(?P<wide>wider|broader|longer) than (?:it is |they are )?(?:tall|high)|(?P<tall>taller|"
    r"higher) than (?:it is |they are )?(?:wide|broad)|(?P<w>\d+(?:\.\d+)?) ?: ?(?P<h>\d+(?:\.\d+)?)"
    r"(?= ratio| aspect| proportion)|(?P<land>landscape)|(?P<port>portrait)(?= orientation| format))")
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
_CLAUSE = re.compile(r"[,;:()]|\s[-–—]\s|\bbut\b|\bwhile\b|\bwhereas\b|\bwhich\b|\bwho\b")


@dataclass(frozen=True)
class Reading:
    """The atoms read from one requirement, and whether they are all it asks."""

    atoms: tuple[Atom, ...]
    complete: bool


def read_requirement(sentence: str) -> Reading:
    """What can be checked of ``sentence`` (see the module docstring)."""
    return _read(sentence.strip())


def read_requirements(sentences: Sequence[str]) -> list[Reading]:
    """Each sentence read with the colours the others give its objects, and with the thing
    most of them are about (``binding``) taken as the canvas for where parts are; a
    sentence the pattern reader reads whole is read as written."""
    colors = object_colors(sentences, COLOR_RE, FUNCTION_WORDS)
    subjects = subject_nouns(sentences, FUNCTION_WORDS, colors)
    labels = list_labels(sentences)
    usual = usual_colors(sentences, COLOR_RE)
    out = []
    for sentence in sentences:
        reading = read_requirement(sentence)
        if not (len(reading.atoms) == 1 and isinstance(reading.atoms[0], Exact)):
            lent = lend_colors(sentence, colors, COLOR_RE, FUNCTION_WORDS)
            extra: list[Atom] = []
            for text, borrowed in ((lent, True), (as_canvas(sentence, subjects), False),
                                   (as_canvas(lent, subjects), True),
                                   (quote_labels(sentence, labels), False)):
                if text != sentence and (text != as_canvas(sentence, subjects) or not borrowed):
                    extra += [Lent(a) if borrowed and not isinstance(a, Text) else a
                              for a in read_requirement(text).atoms if _placing(a)]
            hinted = lend_colors(sentence, usual, COLOR_RE, FUNCTION_WORDS)
            if hinted != sentence:  # "the sun should be in the top right": yellow there
                extra += [Hint(a) for a in read_requirement(hinted).atoms if _placing(a)]
            if extra:
                reading = Reading(tuple(dict.fromkeys(reading.atoms + tuple(extra))), False)
        out.append(reading)
    return out


@lru_cache(maxsize=8192)
def _read(sentence: str) -> Reading:
    predicate = parse_requirement(sentence)
    if predicate is not None:
        return Reading((Exact(predicate),), True)
    quotes: list[str] = []

    def stash(found: re.Match[str]) -> str:
        quotes.append(next(g for g in found.groups() if g is not None).strip())
        return f" qq{len(quotes) - 1}qq "

    raw = _QUOTED.sub(stash, sentence)
    atoms: list[Atom] = []
    complete = True
    texty = textual_quotes(raw.lower(), quotes)
    for clause in _CLAUSE.split(raw):
        found, whole = _read_clause(clause, quotes, texty)
        atoms += found
        complete &= whole
    order = text_order(raw.lower(), [quotes[i] for i in sorted(texty)], sequence=True)
    if order is not None and order not in atoms and not _HEDGE.search(raw.lower()) \
            and not _NEGATION.search(raw.lower()):  # "labelled 'A', 'B' and 'C', from left to right"
        atoms.append(order)
        complete = False
    if not _HEDGE.search(raw.lower()) and not _NEGATION.search(raw.lower()):
        parts = [Relative(a, relation, b) for a, relation, b in ordered_parts(raw.lower())]
        if parts:  # "the left stripe is green, ..., the right stripe crimson"
            atoms += [p for p in parts if p not in atoms]
            complete = False
    proportion = _proportion(raw.lower())
    if proportion:  # "the flag should be wider than it is tall, in roughly a 3:2 ratio"
        atoms += proportion
        complete = False
    drawn = drawn_as(raw.lower())
    if drawn is not None:  # "exactly five trees, drawn as dark green circles"
        atoms.append(drawn)
        complete = False
    unique = tuple(dict.fromkeys(atoms))
    return Reading(unique, complete and bool(unique))



def _placing(atom: Atom) -> bool:
    """Whether a lent colour's atom says where or how many, not merely that it shows."""
    return (isinstance(atom, Shown) and atom.region is not None) or isinstance(atom, Relative) \
        or (isinstance(atom, Text) and bool(atom.regions)) \
        or (isinstance(atom, Count) and atom.color is not None) \
        or isinstance(atom, Pieces | Proportion | Backing)


def _proportion(lower: str) -> list[Atom]:
    """The canvas's proportions, when the sentence's subject is the drawing itself."""
    subject = re.match(r"\s*(?:the |a |an |this |its )?(?:[a-z\-]+ )?(?P<noun>[a-z]+) "
                       r"(?:should|must|is|has|needs|will)\b", lower)
    if subject is None or not (re.fullmatch(CANVAS, subject.group("noun"))
                               or subject.group("noun") in WHOLE_OWNERS):
        return []
    out: list[Atom] = []
    for found in _PROPORTION.finditer(lower):
        if found.group("w"):
            w, h = float(found.group("w")), float(found.group("h"))
            if w > 0 and h > 0:
                out.append(Proportion(w / h, True))
        else:
            out.append(Proportion(2.0 if found.group("wide") or found.group("land") else 0.5))
    return out


def _read_clause(clause: str, quotes: list[str], texty: set[int]) -> tuple[list[Atom], bool]:
    """Atoms of one clause, and whether nothing in it went unread."""
    text = " ".join(clause.replace("’", "'").split())
    text = ISH_RE.sub(lambda m: ISH[m.group(1).lower()], text)
    text = re.sub(r"[.!?]+$", "", text)
    lower = text.lower()
    if not lower.strip():
        return [], True
    atoms: list[Atom] = []
    spans: list[tuple[int, int]] = []
    found = _NO_TEXT.search(lower)
    if found and not re.search(r"\b(?:other than|except|besides|apart from|but|beyond)\b",
                               lower):
        return [NoText()], rest_is_function(lower, [found.span()])
    if _HEDGE.search(lower) or _NEGATION.search(lower) or open_choice(lower):
        return [], False
    found = _PERCENT_SUM.search(lower)
    if found:  # "the percentages must add up to 100%"
        return [PercentSum(float(found.group("n")))], False
    whole = True
    for found in re.finditer(r"qq(\d+)qq", lower):
        words = quotes[int(found.group(1))]
        if int(found.group(1)) in texty and 0 < len(words.split()) <= 8:
            atoms.append(Text(words))
            spans.append(found.span())
        else:
            whole = False
    if re.search(r"\bwhite space\b", lower):
        whole = False
    colors = color_mentions(text, lower)
    if colors is None:
        return atoms, False
    size = _SIZE_RE.search(lower)
    if size and re.search(rf"\b(?:{CANVAS[3:-1]}|pixels|px|viewbox|size|dimensions)\b", lower):
        atoms.append(Exact(CanvasSize(float(size.group("w")), float(size.group("h")))))
        spans.append(size.span())
    counts = shape_counts(lower, spans)
    atoms += counts
    things = thing_counts(lower) + same_size(lower)
    if things:  # evidence only: "five leaves" can never be passed on alike shapes alone
        atoms += things
        whole = False
    if counts and re.search(r"\b(?:small|large|big|tiny|little)\b", lower):
        whole = False  # the size is not checked
    background = background_colors(lower, colors, spans)
    atoms += [Background(c) for c in background]
    backing = {s for s, specs in colors if any(b in specs for b in background)}
    spans += backing
    objects = [(span, specs) for span, specs in colors if span not in backing]
    pointing = pointing_atoms(lower, objects)
    if pointing:  # "a white triangle pointing right", "the bus faces left"
        atoms += pointing
        whole = False
    relation = _relation(lower, objects, spans)
    if relation is not None:
        atoms.append(relation)
    regions = canvas_regions(lower, spans)
    if regions is None:  # "the left side of the house": not the canvas's
        whole, regions = False, []
    if regions and not colors and not atoms:  # "a compass rose in the bottom-right corner"
        atoms += [Drawn(region) for region in regions]
    texts = [a for a in atoms if isinstance(a, Text)]
    order = text_order(lower, [t.words for t in texts])
    if order is not None:  # "'Accept' is to the right of 'Reject'"
        atoms.append(order)
        atoms.remove(texts[1])  # the text placed by is presumed: shown, it is another's to ask
        texts = texts[:1]
        whole = False
    paired = text_regions(lower, len(texts), regions)
    if paired:  # "'1:24' on the left and '3:58' on the right"
        for text, region in zip(texts, paired, strict=True):
            atoms[atoms.index(text)] = Text(text.words, None, (region,))
        axis = {("left", "right"): "x", ("right", "left"): "x", ("top", "bottom"): "y",
                ("bottom", "top"): "y"}.get(tuple(paired))
        if axis is not None:  # and in that order, wherever the pair sits
            ordered = [t.words for t in texts]
            atoms.append(TextOrder(tuple(ordered if paired[0] in ("left", "top")
                                         else reversed(ordered)), axis))
        texts, regions = [], []
    if len(texts) == 1 and len(objects) <= 1:  # "the title 'X' in white at the bottom"
        bound = text_color(lower, objects)
        if bound is not None or not objects:
            atoms[atoms.index(texts[0])] = Text(texts[0].words, bound[1] if bound else None,
                                                tuple(regions))
            if bound:
                spans.append(bound[0])
                objects = []
            regions = []
        elif labelled_part(lower, objects[0][0]) and len(objects[0][1]) == 1:
            atoms.append(Backing(objects[0][1][0], texts[0].words))  # "a green 'Start' box"
    named = named_part(lower, quotes, objects)
    if named is not None:  # "the 'Search' button must be orange"
        atoms.append(named)
        objects = []
    if not texts and len(objects) == 1 and is_lettering(lower, objects[0][0]):
        atoms.append(Lettering(objects[0][1]))  # "the labels should be white": some of them
        objects, whole = [], False
    atoms += color_pieces(lower, objects)
    atoms += shape_words(lower, objects)
    atoms += [Stroke(specs[0]) for (_, end), specs in objects if len(specs) == 1
              and re.match(_LINE_AFTER, lower[end:])
              and not texts]  # "a grey line shows the expression '1 + 2'": a line of text
    area = _AREA_RE.search(lower)
    if area and len(objects) == 1 and len(objects[0][1]) == 1:
        atoms.append(Area(objects[0][1][0], _AREA_SHARE[area.group("part")]))
        spans.append(area.span())
    placed = len(objects) == 1 or _one_thing(lower, objects)
    for span, specs in objects:
        spans.append(span)
        if regions and placed:
            atoms += [Shown(specs, region) for region in regions]
        else:
            atoms.append(Shown(specs))
    if regions and not placed:
        return atoms, False
    if objects and any(isinstance(a, Text) for a in atoms):
        whole = False  # whose colour, the text's or its sign's, is not read
    whole = whole and rest_is_function(lower, spans)
    if not whole:  # "exactly four circles for the planets": four of the circles, at least
        atoms = [Count(a.kind, a.color, ">=", a.n) if isinstance(a, Count) else a
                 for a in atoms]
    return atoms, whole


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
