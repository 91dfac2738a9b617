"""Read a free-text requirement into atoms, and say whether they cover all of it.

A sentence the pattern reader (``requirements.parse_requirement``) understands whole
becomes one ``Exact`` atom: it is decided either way. Any other sentence is read
clause by clause (``clause``) for what can be checked ("The cow's hooves must be coloured brown,
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
from dataclasses import dataclass, replace
from functools import lru_cache

from designrl.tasks.svg.atoms import (
    Atom,
    Backing,
    Count,
    Exact,
    Hint,
    Lent,
    Pieces,
    Proportion,
    Relative,
    Shown,
    Text,
)
from designrl.tasks.svg.binding import (
    as_canvas,
    lend_colors,
    list_labels,
    object_colors,
    quote_labels,
    subject_nouns,
    usual_colors,
)
from designrl.tasks.svg.clause import HEDGE, NEGATION, read_clause
from designrl.tasks.svg.counting import (
    drawn_as,
)
from designrl.tasks.svg.places import (
    CANVAS,
    WHOLE_OWNERS,
    ordered_parts,
)
from designrl.tasks.svg.requirements import _QUOTED, parse_requirement
from designrl.tasks.svg.texts import (
    one_leads,
    quote_numerals,
    text_order,
    textual_quotes,
)
from designrl.tasks.svg.words import (
    COLOR_RE,
    FUNCTION_WORDS,
)

_PROPORTION = re.compile(
    r"\b(?:(?P<wide>wider|broader|longer) than (?:it is |they are )?(?:tall|high)|(?P<tall>taller|"
    r"higher) than (?:it is |they are )?(?:wide|broad)|(?P<w>\d+(?:\.\d+)?) ?: ?(?P<h>\d+(?:\.\d+)?)"
    r"(?= ratio| aspect| proportion)|(?P<land>landscape)|(?P<port>portrait)(?= orientation| format))")
_HEADED = re.compile(r"(?i)^\s*(?:the )?(?:canvas |page |image )?(?:background|backdrop)"
                     r"(?: colou?r)?\s*:\s*")
"""A background given as a heading ("Background: a soft pastel yellow"), which the clause
split at its colon would part from its colour."""
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
                              for a in map(_of_a_part, read_requirement(text).atoms)
                              if _placing(a)]
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

    raw = _QUOTED.sub(stash, quote_numerals(_HEADED.sub("The background is ", sentence)))
    atoms: list[Atom] = []
    complete = True
    texty = textual_quotes(raw.lower(), quotes)
    subject = _subject(" ".join(raw.lower().split()))
    for index, clause in enumerate(_CLAUSE.split(raw)):
        if index and subject and re.match(r"\s*with\b", clause, re.I):
            clause = f"{subject} {clause.strip()}"  # "the 'B' button is pressed, with a dark
            # blue background": the button's background, not the canvas's
        found, whole = read_clause(clause, quotes, texty)
        atoms += found
        complete &= whole
    order = text_order(raw.lower(), [quotes[i] for i in sorted(texty)], sequence=True) \
        or one_leads(raw.lower(), quotes, texty)  # "..., with 'App server 1' on top"
    if order is not None and order not in atoms and not HEDGE.search(raw.lower()) \
            and not NEGATION.search(raw.lower()):  # "labelled 'A', 'B' and 'C', from left to right"
        atoms.append(order)
        complete = False
    if not HEDGE.search(raw.lower()) and not NEGATION.search(raw.lower()):
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


def _of_a_part(atom: Atom) -> Atom:
    """A proportion read once the list's subject is taken as the canvas is the subject's,
    which may fill only part of a scene ("the waterfall is taller than it is wide")."""
    return replace(atom, part=True) if isinstance(atom, Proportion) else atom


_CANVAS_ASPECTS = ("whole", "entire", "overall", "full", "outer", "square", "rectangular",
                   "landscape", "portrait", "wide", "tall")


_SUBJECT = re.compile(r"\s*(?:the |a |an |this |its )?(?:(?P<of>[a-z0-9\-]+) )?(?P<noun>[a-z]+) "
                      r"(?:should|must|is|has|needs|will)\b")


def _subject(lower: str) -> str | None:
    """The noun a sentence is about ("the 'B' button should ..."), unless it is the drawing
    itself: a later clause "with ..." goes on describing it."""
    found = _SUBJECT.match(lower)
    if found is None or re.fullmatch(CANVAS, found.group("noun")) \
            or found.group("noun") in WHOLE_OWNERS:
        return None
    return found.group("noun")


def _proportion(lower: str) -> list[Atom]:
    """The canvas's proportions, when the sentence's subject is the drawing itself."""
    subject = _SUBJECT.match(lower)
    if subject is None or not (re.fullmatch(CANVAS, subject.group("noun"))
                               or subject.group("noun") in WHOLE_OWNERS):
        return []
    if subject.group("noun") == "frame" and subject.group("of") not in (None, *_CANVAS_ASPECTS):
        return []  # "the abacus frame", "the window frame": a part's, not the picture's
    out: list[Atom] = []
    for found in _PROPORTION.finditer(lower):
        if found.group("w"):
            w, h = float(found.group("w")), float(found.group("h"))
            if w > 0 and h > 0:
                out.append(Proportion(w / h, True))
        else:
            out.append(Proportion(2.0 if found.group("wide") or found.group("land") else 0.5))
    return out
