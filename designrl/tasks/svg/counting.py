"""How many, and what shape, a free-text requirement asks for: counts of primitive shapes
("three red circles"), things drawn as shapes ("five trees, drawn as dark green circles"),
things of a colour ("five light blue candles"), shape words ("a red octagonal sign")."""

from __future__ import annotations

import re

from designrl.tasks.svg.alike import Alike, SameSize
from designrl.tasks.svg.atoms import Atom, Count, Pieces, Shaped
from designrl.tasks.svg.colour_names import color_spec
from designrl.tasks.svg.words import FUNCTION_WORDS, WORDS_COLOR

SHAPE_NOUNS = {"circle": "circle", "dot": "circle", "disc": "circle", "disk": "circle",
                "square": "square", "rectangle": "rectangle", "triangle": "triangle",
                "ellipse": "ellipse", "oval": "ellipse", "hexagon": "hexagon",
                "pentagon": "pentagon", "octagon": "octagon"}
NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten "
                                       "eleven twelve".split())}
_COUNT_RE = re.compile(
    r"\b(?P<op>exactly |only |precisely |at least )?(?P<n>\d+|" + "|".join(NUMBERS) +
    r"|a|an)\s+(?:(?:small|large|big|tiny|little|solid|filled|identical) )*"
    r"(?:(?P<color>[a-z]+(?:[- ][a-z]+)?) )?(?P<noun>" + "|".join(SHAPE_NOUNS) +
    r")(?P<plural>e?s)?\b(?! of\b)(?!-)")
_DRAWN_AS = re.compile(
    rf"\b(?P<op>exactly |only )?(?P<n>\d+|{'|'.join(list(NUMBERS)[2:])}) (?P<noun>[a-z]+s)\b"
    r"[^.;]*?,? (?:each |all )?(?:drawn|shown|represented|depicted|rendered) as (?:(?:small|large|"
    rf"simple|solid|filled|plain) )*(?:(?P<color>{WORDS_COLOR}) )?"
    rf"(?P<shape>{'|'.join(SHAPE_NOUNS)})(?:e?s)?\b")

def drawn_as(lower: str) -> Count | None:
    """A count of things each drawn as a named shape: that many of those shapes (at least
    that many when no colour tells them from other things of that shape)."""
    found = _DRAWN_AS.search(lower)
    if found is None or found.group("noun").rstrip("s") in SHAPE_NOUNS:
        return None
    color = None
    if found.group("color"):
        color = color_spec(" ".join(found.group("color").split("-")))
        if color is None:
            return None
    n_word = found.group("n")
    n = int(n_word) if n_word.isdigit() else NUMBERS[n_word]
    # with no colour, at least: other things may be drawn as that shape too ("two wheels,
    # shown as circles" beside a circular badge)
    op = "==" if found.group("op") and color is not None else ">="
    return Count(SHAPE_NOUNS[found.group("shape")], color, op, n)


_THING_RE = re.compile(
    r"\b(?P<op>exactly |only |precisely |at least )?(?P<n>[2-9]|1\d|20|"
    + "|".join(list(NUMBERS)[2:]) + r")\s+(?:of (?:the |its |his |her |their )(?:[a-z]+'s )?)?"
    r"(?P<adjs>(?:[a-z\-]+\s+){0,3}?)(?P<noun>[a-z]+s|fish|sheep|deer|people|children|men|women|"
    r"feet|teeth|geese|mice)\b")
_SELECTING = re.compile(
    r"\bthe (?:other|remaining|top|bottom|first|last|left|right|upper|lower|front|back|"
    r"outer|inner|middle|next|leftmost|rightmost|topmost|lowest|highest|largest|smallest|"
    r"biggest) $")
_NUMERAL = re.compile(r"\b(?:number|numeral|digit|figure|value)\s*$")  # "shows the number 4"
_LINKING = frozenset("a an the and or of in on at to with by for from into onto between beside "
                     "above below under over near behind".split())
_NOT_THINGS = re.compile(
    r"(?:pixels|px|times|percent|degrees|rows|columns|sides|points|corners|colou?rs|shades|"
    r"words|letters|characters|digits|numbers|seconds|minutes|hours|days|weeks|months|years|"
    r"units|parts|thirds|quarters|halves|tones|levels|ways|is|was|has|as|this|its|his)")


def same_size(lower: str) -> list[SameSize]:
    """"All the moons are the same size", "equally sized bars"."""
    if re.search(r"\b(?:the same size|equal(?:ly)?[- ]sized?|identical in size|of equal size)\b",
                 lower):
        return [SameSize()]
    return []


def thing_counts(lower: str) -> list[Alike]:
    """"Exactly five fallen leaves", "two fluffy white clouds": that many alike things (of
    the colour given), as evidence only (``alike``). Not per-thing counts ("each turbine
    has three blades"), some of the things picked out ("the other two tabs", "the top
    three stripes"), a numeral shown ("the number 4"), shapes (``shape_counts``) or
    measures ("800 pixels")."""
    if re.search(r"\b(?:each|every|per|apiece|both)\b", lower):
        return []
    out = []
    for found in _THING_RE.finditer(lower):
        noun = found.group("noun")
        if _NOT_THINGS.fullmatch(noun) or {noun[:-1], noun[:-2]} & set(SHAPE_NOUNS):
            continue
        if _SELECTING.search(lower[:found.start()]):
            continue  # "the other two tabs", "the top three stripes": some of them
        if _NUMERAL.search(lower[:found.start()]) or _LINKING & set(found.group("adjs").split()):
            continue  # "the number 4 between a minus ...": a numeral shown, not a count
        n_word = found.group("n")
        n = int(n_word) if n_word.isdigit() else NUMBERS[n_word]
        words = found.group("adjs").split()
        color = next((spec for spec in (color_spec(" ".join(words[i:j]))
                                        for i in range(len(words))
                                        for j in range(len(words), i, -1)) if spec), None)
        out.append(Alike(n, color, (found.group("op") or "").strip() == "at least"))
    return out


def shape_counts(lower: str, spans: list[tuple[int, int]]) -> list[Atom]:
    atoms: list[Atom] = []
    for found in _COUNT_RE.finditer(lower):
        before = lower[:found.start()]
        if re.search(r"\b(?:in|into|form|forms|forming|around|like)\s*$", before):
            continue
        following = re.match(r"\s*([a-z]+)", lower[found.end():])
        if following and (following.group(1) not in FUNCTION_WORDS
                          or following.group(1) in ("background", "backdrop")):
            continue  # "a square window", "a cream square background": the shape word
            # describes something else (a background may be the canvas itself)
        if found.group("n") in ("a", "an") and not found.group("color") \
                and re.search(r"\b(?:is|are|be|was|were)\s*$", before):
            continue  # "the flag is a rectangle": its outline, of whatever pieces it is drawn
        n_word, op_word = found.group("n"), (found.group("op") or "").strip()
        n = 1 if n_word in ("a", "an") else int(n_word) if n_word.isdigit() else NUMBERS[n_word]
        if n_word in ("a", "an") and found.group("plural"):
            continue
        color = None
        if found.group("color"):
            color = color_spec(found.group("color"))
            if color is None:
                continue
        op = "==" if op_word in ("exactly", "only", "precisely") else ">="
        atoms.append(Count(SHAPE_NOUNS[found.group("noun")], color, op, n))
        spans.append(found.span())
    return atoms


def color_pieces(lower: str, objects) -> list[Atom]:
    """"Exactly five light blue candles": at least five things of that colour (not shapes:
    those are ``Count``'s)."""
    out: list[Atom] = []
    for (start, end), specs in objects:
        number = re.search(rf"\b(?P<n>\d+|{'|'.join(NUMBERS)})\s+(?:(?:small|large|big|tiny|"
                           rf"little|round|tall|short|thin|thick|fluffy|bright|lit|wavy)\s+)*$",
                           lower[:start])
        noun = re.match(r"\s+(?:[a-z\-]+\s+)?([a-z]+s)\b", lower[end:])
        shape = noun and {noun.group(1)[:-1], noun.group(1)[:-2]} & set(SHAPE_NOUNS)
        if len(specs) == 1 and number and noun and not shape:
            n = NUMBERS.get(number.group("n")) or int(number.group("n"))
            if n >= 2:
                out.append(Pieces(specs[0], n))
    return out


_SHAPE_ADJECTIVES = {"octagonal": "octagon", "hexagonal": "hexagon", "pentagonal": "pentagon",
                     "triangular": "triangle", "circular": "circle", "rectangular": "rectangle"}


def shape_words(lower: str, objects) -> list[Atom]:
    """"A red octagonal sign", "triangular white sails": a shape of that colour and kind."""
    out: list[Atom] = []
    for (start, end), specs in objects:
        after = re.match(r" ([a-z]+)\b", lower[end:])
        before = re.search(r"\b([a-z]+) $", lower[:start])
        for found in (after, before):
            if found and found.group(1) in _SHAPE_ADJECTIVES and len(specs) == 1:
                out.append(Shaped(_SHAPE_ADJECTIVES[found.group(1)], specs[0]))
    return out
