"""How the free-text reader reads text: which quotes are words to draw, and which colour in
a clause is its text's (``reader``)."""

from __future__ import annotations

import re

from designrl.tasks.svg.colour_names import ColorSpec, color_spec
from designrl.tasks.svg.marks import Backing, TextOrder

TEXTY = re.compile(r"\b(?:write|writes|print|printed|name|displays?|label|labels|labelled|labeled|labelling|text|title|titled|reads?|letter|"
                    r"reading|says?|saying|words?|written|writing|caption|captioned|heading|"
                    r"sign|slogan|buttons?|tagline|banner|letters|lettering|spelled|spells?|"
                    r"inscription|inscribed|headline|list|lists|listing|link|links|menu|tab|tabs|legend|"
                   r"entries)\b")

_SHOWN_AFTER = (r"(?:must|should|will|shall|needs to|has to)(?: also| clearly)? (?:appear|be "
                r"(?:displayed|shown|visible))\b|(?:appears|is (?:displayed|shown|visible))\b")
"""A quote that is itself shown ("the unit 'km/h' must appear", "'Total: $49.00' should be
displayed"): only something written can be."""


def textual_quotes(raw: str, quotes: list[str]) -> set[int]:
    """The quotes that are words to draw: a text word ("labelled", "title", "reads") among
    the six words before one (a list of quotes counts as one), or a short quote that must
    itself appear or be shown; not a name ("a dog named 'Rex'"), not a manner ("a
    'rustic' feel") and not one character naming an icon's shape ("an 'X' icon"); a
    figure ("'1:24'", "'10%'") and a list of three or more short quotes ("links 'Home',
    'Deals' and 'Help'") always."""
    out = set()
    listed = len(quotes) >= 3 and all(len(q.split()) <= 3 for q in quotes) and not re.search(
        r"\b(?:named|called|nicknamed)\b", raw.split("qq")[0])
    for found in re.finditer(r"qq(\d+)qq", raw):
        words = quotes[int(found.group(1))]
        if re.search(r"\d", words) and not re.search(r"[A-Za-z]{3}", words):
            out.add(int(found.group(1)))
            continue
        before = re.sub(r"qq\d+qq|\band\b|\bor\b|[,:;]", " ", raw[:found.start()]).split()
        after = raw[found.end():].split()[:1]
        if re.search(r"\b(?:named|called|nicknamed|whose name)\s*$", raw[:found.start()]):
            continue
        if after and re.match(r"(?:feel|look|style|vibe|mood|theme|aesthetic|effect|tone|"
                              r"atmosphere|sense)\b", after[0]):
            continue
        later = " ".join(raw[found.end():].split()[:3])
        if len(words.strip()) == 1 and _GLYPH_AFTER.match(later):
            continue  # "a small 'X' close icon", "a '+' sign": a shape, lines or letters
        if len(quotes) == 1 and _LANDMARK.search(raw[:found.start()]):
            continue  # "hexagons flank the word 'APIARY'": the word places them; whether it
            # is written is another requirement's to ask
        if _labels_part(raw[:found.start()], after):  # "the 'Lions' enclosure"
            if not _RANKED.search(raw):  # "the 'Rent' band is the thickest": it names the
                out.add(int(found.group(1)))  # band ranked, its label is another's to ask
            continue
        if listed or TEXTY.search(" ".join(before[-6:])) or re.search(
                r"\b(?:written|printed|inscribed|spelled|lettered)\b", later) or (
                len(words.split()) <= 4 and re.match(_SHOWN_AFTER, later)):
            out.add(int(found.group(1)))
    if len(quotes) == 2 and len(out) == 1 and _on_paired_parts(
            raw, quotes, list(re.finditer(r"qq\d+qq", raw))):
        out = {0, 1}  # "the label 'June' beside the left Earth and 'December' beside the
        # right Earth": the second is written like the first
    return out


_RANKED = re.compile(r"\b(?:thick|thinn|tall|short|wid|narrow|long|larg|bigg|small|high|low)"
                     r"(?:est|er than)\b")
"""Parts ranked by size ("the 'Rent' band is the thickest", "taller than the 'Q1' bar")."""

_LANDMARK = re.compile(
    r"\b(?:flank(?:s|ed|ing)?|beside|next to|around|surround(?:s|ed|ing)?|above|below|under|"
    r"(?:on )?(?:each|either|both) sides? of|"
    r"beneath|over|near|left of|right of|between|framing|frames?)\s+the\s+(?:word|words|title|"
    r"text|label|heading|name|caption|lettering|tagline|slogan)\s*$")
"""A quote named as where something else goes ("flank the word 'APIARY'")."""

# After a one-character quote, what names its shape rather than its lettering.
_GLYPH_AFTER = re.compile(r"(?:[a-z\-]+ )?(?:icon|symbol|sign|mark|glyph|shape)s?\b")

_NOT_PARTS = frozenset("""
is are was be should must will shall can could may might has have had and or but to of in on
at by for with from as than that which who feel look style vibe mood theme aesthetic effect
tone atmosphere sense
""".split())


_PART_ADJECTIVES = frozenset("""small large big tiny wide narrow long short round rounded
square flat bold primary secondary main outlined filled solid light dark pale bright""".split())


def _labels_part(before: str, after: list[str]) -> bool:
    """A quote between a determiner and a noun names a part by its label ("the 'Lions'
    enclosure", "a 'Search' button", "a white 'Later' button"): the words are written
    on it. Between the determiner and the quote, only a colour or a plain adjective."""
    found = re.search(r"\b(?:the|a|an|its|each)((?:\s+[a-z\-]+){0,2})\s*$", before)
    if found is None or not all(w in _PART_ADJECTIVES or color_spec(w) is not None
                                for w in found.group(1).split()):
        return False
    return bool(after) and re.fullmatch(r"[a-z]+", after[0]) is not None \
        and after[0] not in _NOT_PARTS


def is_lettering(lower: str, span: tuple[int, int]) -> bool:
    """Whether the colour at ``span`` is the clause's text's: a text noun that is the subject
    ("the text on the button must be white", "labels written in grey"), not a part's name
    ("the title bar")."""
    before, after = lower[:span[0]], lower[span[1]:].strip()
    noun = re.search(r"\b(?:text|lettering|letters|labels?|writing|words|captions?|font)"
                     r"(?: (?P<next>\w+))?", before)
    if noun is None or (noun.group("next") or "should") not in (
            "should", "must", "on", "of", "in", "inside", "within", "is", "are", "will",
            "needs", "has", "have", "across", "along", "at"):
        return False
    return after in ("", "text", "letters", "lettering") and bool(re.search(
        r"\b(?:be|is|are|in)\s+(?:colou?red\s+|painted\s+|written in\s+)?$", before))


def text_color(lower: str, objects) -> tuple[tuple[int, int], ColorSpec] | None:
    """The colour a clause gives its text: "in white", "white letters", "red text"."""
    if len(objects) != 1 or len(objects[0][1]) != 1:
        return None
    (start, end), (spec,) = objects[0]
    if re.search(r"\b(?:labell?ed|marked|tagged) qq\d+qq in $", lower[:start]):
        return None  # "a button labelled 'Log in' in teal": the button's colour, perhaps
    label = re.search(r"qq\d+qq (\w+)", lower)
    if label and _labels_part(lower[:label.start()], [label.group(1)]) \
            and not re.fullmatch(_TEXT_NOUNS, label.group(1)):
        return None  # "a 'Food' slice in olive green": the slice's colour
    if re.search(r"\bin $", lower[:start]) or re.match(
            r" (?:capital |bold |large |small |big )?(?:letters|text|font|lettering|type)\b",
            lower[end:]):
        return (start, end), spec
    return None


_PLACED_BY = re.compile(r"\b(?:above|below|under|beneath|over|beside|behind|near|next to|on|in|"
                        r"inside|at|across|along|between|onto|into|from|of|by|to)\s+"
                        r"(?:(?:the|a|an|its|their|each|every)\s+)?(?:[a-z]+\s+)?$")


def labelled_part(lower: str, span: tuple[int, int]) -> bool:
    """Whether the colour at ``span`` is a labelled part's: within four words before the quote
    in one noun phrase ("a green button labelled 'Search'", "a green rounded 'Start' box"),
    not the text's own ("grey placeholder text that says ...") nor another clause's, nor a
    thing the labelled part is placed by ("a screen above the white pins reads ..."), nor
    a part whose label is placed by it ("labelled 'Driven' beneath it")."""
    between = re.match(r"([a-z\- ]*?)\bqq\d+qq", lower[span[1]:])
    if not between or len(between.group(1).split()) > 4 or _PLACED_BY.search(lower[:span[0]]):
        return False
    if re.match(r"\s*(?:beneath|below|under|underneath|above|beside|next to|outside)\b",
                lower[span[1] + between.end():]):
        return False  # "blue and labelled 'Driven' beneath it": the label is by it, not on it
    return not re.search(r"\b(?:should|must|will|would|is|are|be|been|has|have|can|could|may|"
                         r"might|text|letters|lettering|font|writing|placeholder)\b",
                         between.group(1))


_TEXT_NOUNS = r"text|letters|lettering|font|writing|label|labels|caption|title|word|words"


def named_part(lower: str, quotes: list[str], objects) -> Backing | None:
    """"The 'Search' button must be orange": a part named by its label, then coloured."""
    found = re.match(r"\s*(?:the |a |an |its )?qq(\d+)qq ([a-z\-]+)", lower)
    if found is None or len(objects) != 1 or len(objects[0][1]) != 1 \
            or re.fullmatch(_TEXT_NOUNS, found.group(2)) \
            or re.fullmatch(r"should|must|will|is|are|can|could|may|might|needs?|has|have",
                            found.group(2)):
        return None
    (start, end), (spec,) = objects[0]
    if start < found.end() or lower[end:].strip() not in ("", "colour", "color") or not re.search(
            r"\b(?:be|is|are)\s+(?:colou?red\s+|painted\s+|filled(?: in| with)?\s+)?"
            r"(?:a |an )?(?:[a-z]+ )?$", lower[:start]):
        return None
    return Backing(spec, quotes[int(found.group(1))])


def named_parts(lower: str, quotes: list[str], objects) -> list[Backing]:
    """``named_part``, and its second part after "and" with the verb left out ("the
    'Locked' state should be light red and the 'Unlocked' state light green")."""
    one = named_part(lower, quotes, objects)
    if one is not None:
        return [one]
    cut = re.search(r" and (?=(?:the |a |an |its )?qq\d+qq [a-z\-]+ )", lower)
    if cut is None or len(objects) != 2 or not objects[0][0][1] <= cut.start() < objects[1][0][0]:
        return []
    first = named_part(lower[:cut.start()], quotes, objects[:1])
    (start, end), specs = objects[1]
    second = re.fullmatch(r"(?:the |a |an |its )?qq(\d+)qq ([a-z\-]+) ", lower[cut.end():start])
    if first is None or second is None or len(specs) != 1 or lower[end:].strip() \
            or not re.search(rf"qq\d+qq {second.group(2)} ", lower[:cut.start()]):
        return []  # the same kind of part, coloured and nothing more
    return [first, Backing(specs[0], quotes[int(second.group(1))])]


_SEQUENCE = (("left to right", "x", False), ("right to left", "x", True),
             ("top to bottom", "y", False), ("bottom to top", "y", True))
_BETWEEN = (("to the left of", "x", False), ("left of", "x", False),
            ("to the right of", "x", True), ("right of", "x", True),
            ("above", "y", False), ("on top of", "y", False), ("over", "y", False),
            ("below", "y", True), ("beneath", "y", True), ("under", "y", True),
            ("underneath", "y", True))


def text_order(lower: str, words: list[str], sequence: bool = False) -> TextOrder | None:
    """The order a clause gives its quoted texts: two texts around a relation ("'Accept'
    is to the right of 'Reject'"); with ``sequence``, a sentence's list "from left to
    right" (or top to bottom)."""
    if sequence:
        if len(words) < 2:
            return None
        for phrase, axis, backwards in _SEQUENCE:
            if re.search(rf"\b{phrase}\b", lower):
                return TextOrder(tuple(reversed(words)) if backwards else tuple(words), axis)
        return None
    marks = list(re.finditer(r"qq\d+qq", lower))
    if len(words) != 2 or len(marks) != 2:
        return None
    between = lower[marks[0].end():marks[1].start()]
    for phrase, axis, backwards in _BETWEEN:  # the relation must lead to the second quote
        if re.search(rf"\b{phrase}(?: (?!and\b)[a-z']+){{0,3}} $", between):
            return TextOrder(tuple(reversed(words)) if backwards else tuple(words), axis)
    return _on_paired_parts(lower, words, marks)


_LEADS = (("on top|at the top|uppermost|topmost", "y", False),
          ("at the bottom|on the bottom|lowest|bottommost", "y", True),
          ("on the left|at the left|leftmost", "x", False),
          ("on the right|at the right|rightmost", "x", True))


def one_leads(lower: str, quotes: list[str], texty: set[int]) -> TextOrder | None:
    """Of a sentence's two texts, one said to lead the other ("two boxes labelled 'A' and
    'B', stacked vertically, with 'A' on top")."""
    texts = list(dict.fromkeys(quotes[i] for i in sorted(texty)))
    found = re.search(r"\bwith\s+qq(\d+)qq\s*", lower)
    if len(texts) != 2 or found is None or int(found.group(1)) not in texty:
        return None
    lead = quotes[int(found.group(1))]
    pair = (lead, texts[1 - texts.index(lead)])
    for phrase, axis, backwards in _LEADS:
        if re.match(rf"(?:{phrase})\b", lower[found.end():]):
            return TextOrder(pair[::-1] if backwards else pair, axis)
    return None


_PAIRED = re.compile(r"\b(?P<pos>left|right|upper|lower|top|bottom)(?:-hand)? (?P<noun>[a-z]+)\b")
_FIRST = {"left": ("x", True), "right": ("x", False), "upper": ("y", True), "top": ("y", True),
          "lower": ("y", False), "bottom": ("y", False)}
_OWN_SIDES = frozenset("""hand hands arm arms leg legs foot feet eye eyes ear ears wing wings paw
paws shoulder cheek hip knee claw fin antenna horn side half corner edge part""".split())
"""A figure's own left is the viewer's right when it faces us; sides and corners of the
canvas are read as places (``places.text_regions``), not as parts."""


def _on_paired_parts(lower: str, words: list[str], marks) -> TextOrder | None:
    """Two texts on two like parts named by opposite places ("'WHITE' under the left face
    and 'BLACK' under the right face", "the left door reads 'IN' and the right door
    'OUT'"): each text lies the way its part does."""
    parts = [m for m in _PAIRED.finditer(lower) if m.group("noun") not in _OWN_SIDES]
    if len(parts) != 2 or parts[0].group("noun") != parts[1].group("noun"):
        return None
    (axis, first), (axis2, second) = (_FIRST[p.group("pos")] for p in parts)
    if axis != axis2 or first == second:
        return None
    (p0, p1), (q0, q1) = (p.start() for p in parts), (m.start() for m in marks)
    if not (p0 < q1 and p1 > q0):  # each place goes with its own text
        return None
    return TextOrder(tuple(words) if first else tuple(reversed(words)), axis)


_NUMERAL_LIST = re.compile(
    r"\b(?P<lead>(?:the |a )?(?:numbers?|numerals?|digits?|dates?|days?)|numbered|"
    r"numbering)\s+(?P<list>\d{1,4}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+(?:to|through)\s+)"
    r"\d{1,4})*)(?!\s*(?:%|px|pixels?|percent|by|x|×|:|\.\d|[a-z]+s\b))")
"""Figures a sentence names as what is written ("the numbers 12, 7 and 30", "the date
14", "numbered 1 to 6"), not counts ("the number 3 buses") or measures."""


def quote_numerals(sentence: str) -> str:
    """``sentence`` with the figures it names as written quoted, so they read as texts to
    draw like any quoted figure ("numbered 1 to 6 from left to right": '1' and '6', in
    that order); a range gives its ends."""
    def quoted(found: re.Match[str]) -> str:
        figures = re.sub(r"\d{1,4}", lambda n: f"'{n.group(0)}'", found.group("list"))
        return f"{found.group('lead')} {figures}"

    return _NUMERAL_LIST.sub(quoted, sentence)
