"""Colours the requirement list gives its objects, lent to sentences that name them bare.

A list of requirements often colours a thing in one sentence ("A bright yellow sun must
peek out from behind the cloud", "The barn must be painted red") and places it in another
("The sun should be in the upper-left part of the icon", "The barn should stand on the
left side of the canvas"). ``object_colors`` collects, per noun phrase, the one colour the
list gives it; ``lend_colors`` writes that colour before the bare mentions of a sentence
that names no colour itself, so the reader can check where the colour lies ("The yellow
sun should be in the upper-left part of the icon"). ``list_labels`` and ``quote_labels`` put a label another sentence quotes in quotes where
it names a part ("The Search button must be orange"), so its colour is checked around it.
``subject_nouns`` finds the thing most of the list is about ("the tank", "the flag"):
``as_canvas`` reads "the left side of the tank" as the canvas's left side, since such a
thing fills most of its drawing (its regions are checked loosely). A noun given two colours in the list,
a possessive ("the barn's door") or a noun followed by another noun ("barn door") lends
nothing. The lent colour only ever helps decide a *failure* of placement: the sentence
keeps its object words, so its reading is never complete and never passes on colour.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

_QUOTE = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")
_STOP = frozenset("""
a an the and or of in on at to with by for from as into onto that this these those it its
their there is are be been being was were must should shall will would can could may might
has have having had which who whose while where when than then so if not no very each every
all any some both either one two three four five six seven eight nine ten also only its his
her them they he she we you near above below under over behind beside between inside outside
left right top bottom upper lower middle centre center side half part corner edge across
around along down up just sideways away out off back together apart here
""".split())
_VERB = re.compile(r"(?:sits?|stands?|hangs?|floats?|flies|fly|rests?|lies|lie|grows?|rises?|"
                   r"points?|peeks?|shines?|fills?|tops?|marks?|wraps?|runs?|covers?|crosses|"
                   r"cross|leans?|reads?|says?|holds?|carries|carry|shows?|spans?|stretch(?:es)?|"
                   r"[a-z]+ing|[a-z]{3,}ed)$")
_NOT_OBJECTS = frozenset("""
background backdrop canvas image picture drawing scene frame composition svg artwork
illustration page colour color colours colors shade shades tone tones hue text letters
lettering words word label labels title font writing outline outlines border borders stroke
strokes gradient lines line shape shapes pattern area areas region regions palette style
design look feel mood theme everything rest things thing elements element details detail
circle circles dot dots square squares rectangle rectangles triangle triangles ellipse ellipses
oval ovals polygon polygons star stars box boxes
""".split())
"""Words that name no one object: a colour lent to them could be another thing's."""
_DETERMINERS = frozenset("the a an its their his her all each every both two three four five six "
                         "seven eight nine ten eleven twelve".split()) | {str(n) for n in range(2, 40)}
_COPULA = r"(?:should|must|will|shall|is|are|needs to|has to|have to)\s+(?:be|appear|look)"
_PAINT = r"(?:\s+(?:painted|coloured|colored|filled(?: in| with)?|drawn in|shaded))?"


def object_colors(sentences: Sequence[str], color_re: re.Pattern[str],
                  stopwords: frozenset[str]) -> dict[str, str]:
    """Noun phrase (one or two words, lower case) -> the colour phrase the list gives it."""
    seen: dict[str, set[str]] = {}
    for sentence in sentences:
        _note_mixed(seen, sentence, color_re)
        clause = re.split(r"[,;:()]|\s[-–—]\s|\bwith\b|\bbut\b|\bwhile\b|\band\b",
                          _QUOTE.sub(" ", sentence).replace("’", "'"))[0]
        lower = clause.lower()
        colours = list(color_re.finditer(clause))
        if len(colours) != 1 or re.search(r"\b(?:or|not|no|never|without)\b", lower):
            continue
        found = colours[0]
        phrase = found.group(0).lower()
        after = lower[found.end():].split()
        nouns = _noun_phrase(after, stopwords)
        if nouns:  # "a red barn", "A green street-name sign"
            _note(seen, nouns, phrase)
            continue
        subject = re.match(rf"\s*(?:the |a |an )?(?P<np>[a-z'\- ]+?)\s+{_COPULA}{_PAINT}"
                           rf"(?:\s+(?:a|an))?(?:\s+[a-z\-]+)?\s*$", lower[:found.start()])
        if subject and lower[found.end():].strip() in ("", "colour", "color", "in colour"):
            words = subject.group("np").split()
            if "of" in words or any(w in _STOP for w in words):
                continue  # "the water inside the tank": not a plain noun phrase
            _note(seen, words[-2:], phrase)  # "The barn must be painted red"
    return {noun: next(iter(c)) for noun, c in seen.items() if len(c) == 1}


def _note_mixed(seen: dict[str, set[str]], sentence: str, color_re: re.Pattern[str]) -> None:
    """A subject given two colours at once ("the stripes alternate dark green and white",
    "the stripes are red and white") is of both: no one colour is lent to it."""
    clause = re.split(r"[,;:()]", _QUOTE.sub(" ", sentence).replace("’", "'"))[0].lower()
    subject = re.match(r"\s*(?:the |a |an )?(?P<np>[a-z'\-]+(?: [a-z'\-]+)?)\s+(?:alternate|"
                       r"alternates|alternating|are|is|come in|take turns|switch)\b", clause)
    colours = list(color_re.finditer(clause))
    joined = any(re.fullmatch(r"\s*(?:and|or|and then)?\s*", clause[a.end():b.start()])
                 for a, b in itertools.pairwise(colours))
    if subject and joined and not any(w in _STOP for w in subject.group("np").split()):
        for found in colours:
            _note(seen, subject.group("np").split()[-2:], found.group(0).lower())


def _noun_phrase(after: list[str], stopwords: frozenset[str]) -> list[str]:
    """The words up to the head noun after a colour ("octagonal stop sign should" gives
    ["octagonal", "stop", "sign"]), or [] when no plain noun follows."""
    words: list[str] = []
    for word in after[:4]:
        word = word.strip(".!?")
        if word in _STOP or word in stopwords or _VERB.match(word) \
                or not re.fullmatch(r"[a-z][a-z\-]*", word):
            break
        words.append(word)
    return words[-2:] if words else []


def _note(seen: dict[str, set[str]], words: list[str], phrase: str) -> None:
    head = words[-1]
    if head in _NOT_OBJECTS or len(head) < 3 or head.endswith("'s"):
        return
    seen.setdefault(head, set()).add(phrase)
    if len(words) == 2 and words[0] not in _NOT_OBJECTS:
        seen.setdefault(" ".join(words), set()).add(phrase)


USUAL_COLORS = {"sun": "yellow or orange", "grass": "green", "cloud": "white", "clouds": "white",
                "snow": "white", "sea": "blue", "ocean": "blue", "lake": "blue", "pond": "blue",
                "river": "blue", "leaves": "green", "foliage": "green", "trunk": "brown"}
"""The colour a thing usually has, when the list gives it none: evidence only (a sun is
yellow or orange unless said otherwise, but a sunset sun may be red)."""


def usual_colors(sentences: Sequence[str], color_re: re.Pattern[str]) -> dict[str, str]:
    """``USUAL_COLORS`` for the things no sentence naming a colour mentions ("the sun is
    red" keeps the sun from its usual yellow)."""
    coloured = " ".join(s.lower() for s in sentences if color_re.search(_QUOTE.sub(" ", s)))
    return {noun: color for noun, color in USUAL_COLORS.items()
            if not re.search(rf"\b{noun}\b", coloured)}


def lend_colors(sentence: str, colors: dict[str, str], color_re: re.Pattern[str],
                stopwords: frozenset[str]) -> str:
    """``sentence`` with each bare mention of a coloured object given its colour; unchanged
    when it names a colour itself or mentions none."""
    if not colors or color_re.search(_QUOTE.sub(" ", sentence)):
        return sentence
    out = sentence
    for noun in sorted(colors, key=lambda n: -len(n.split())):
        pattern = re.compile(rf"(?i)(?<![\w'\-])({re.escape(noun)})(?![\w'\-])")
        pieces, last = [], 0
        for found in pattern.finditer(out):
            before = out[:found.start()].rstrip().split()
            if before and before[-1].lower() not in _DETERMINERS:
                continue  # "the stop sign" for "sign": another noun phrase
            following = out[found.end():].split()[:1]
            nxt = following[0].strip(",.;:!?").lower() if following else ""
            if following and following[0][:1].isalpha() and nxt not in stopwords \
                    and not _VERB.match(nxt):
                continue  # "the barn door": the colour is not the door's
            pieces.append(out[last:found.start()] + colors[noun] + " " + found.group(1))
            last = found.end()
        out = "".join(pieces) + out[last:]
    return out


def subject_nouns(sentences: Sequence[str], stopwords: frozenset[str],
                  colors: dict[str, str]) -> frozenset[str]:
    """Nouns after "the" in at least three sentences and a quarter of them, which the list
    gives no colour: what the drawing is of ("the tank", "the flag"), not one of its
    coloured parts ("the sun")."""
    counts: dict[str, int] = {}
    placed: set[str] = set()  # "to the left of the snowman": a thing in the scene
    for sentence in sentences:
        lower = _QUOTE.sub(" ", sentence.lower())
        placed.update(re.findall(r"\b(?:left of|right of|front of|next to|top of|beside|behind|"
                                 r"above|below|under|beneath|near|than|over) the "
                                 r"([a-z][a-z\-]+)\b(?!'s)", lower))
        # "the pot rests on a wooden table": a thing set on another drawn thing
        placed.update(re.findall(r"^\s*the ([a-z][a-z\-]+) (?:rests|sits|stands|lies|hangs|"
                                 r"perches|is (?:placed|set|resting|sitting|standing|perched))"
                                 r" (?:on|upon|in|inside|atop|against)\b", lower))
        for noun in set(re.findall(r"\bthe ([a-z][a-z\-]+)\b(?!'s)", lower)):
            if noun not in stopwords and noun not in _STOP and noun not in _NOT_OBJECTS \
                    and noun not in colors:
                counts[noun] = counts.get(noun, 0) + 1
    need = max(3, len(sentences) / 4)
    return frozenset(noun for noun, n in counts.items() if n >= need and noun not in placed)


def as_canvas(sentence: str, subjects: frozenset[str]) -> str:
    """``sentence`` with "<side> of the <subject>", and the subject itself when the sentence
    opens with it, made the canvas's."""
    if not subjects:
        return sentence
    names = "|".join(re.escape(s) for s in sorted(subjects))
    sentence = re.sub(rf"(?i)^(\s*the) (?:{names}) (?=should|must|is|needs)", r"\1 canvas ",
                      sentence)  # "The tank should be wider than it is tall"
    return re.sub(rf"(?i)\b((?:side|half|part|corner|edge|end|third|quarter|area|region|"
                  rf"section|portion|top|bottom|middle|centre|center) of) (?:the|its) "
                  rf"(?:{names})(?![\w'\-])(?! (?!(?:{'|'.join(_STOP)})\b)[a-z])",
                  r"\1 the canvas", sentence)  # not "the search field" for "search"


def list_labels(sentences: Sequence[str]) -> list[str]:
    """The short capitalised quotes of the list ("'Search'", "'Log in'"): labels drawn."""
    found = {q.strip("'\"‘’“”") for sentence in sentences for q in _QUOTE.findall(sentence)}
    return sorted((q for q in found if q[:1].isupper() and len(q.split()) <= 3), key=len,
                  reverse=True)


def quote_labels(sentence: str, labels: list[str]) -> str:
    """``sentence`` with a label another sentence quotes put in quotes where it names a part
    ("The Search button must be orange" gives "The 'Search' button must be orange")."""
    if _QUOTE.search(sentence):
        return sentence
    for label in labels:
        pattern = rf"(?<=[Tt]he ){re.escape(label)}(?= [a-z])"
        if re.search(pattern, sentence):
            return re.sub(pattern, f"'{label}'", sentence, count=1)
    return sentence
