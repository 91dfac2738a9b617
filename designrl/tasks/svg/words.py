"""The words the free-text reader knows: colour names and shades, how it finds colour mentions
in a clause, and the function words a reading may leave unread (``reader``)."""

from __future__ import annotations

import re
from dataclasses import replace

from designrl.tasks.svg.colour_names import CSS_COLORS, ColorSpec, color_spec

BASIC = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black", "white",
         "gray", "cyan", "magenta", "violet", "indigo", "turquoise", "teal", "navy", "maroon",
         "crimson", "scarlet", "beige", "gold", "golden", "silver", "cream", "charcoal",
         "lavender")
"""Colour words read in free text (not "orange" the fruit's cousins: salmon, plum, olive...)."""
SHADES = ("light", "dark", "pale", "bright", "deep", "pastel", "vivid", "medium", "sky", "navy",
          "forest", "royal", "hot", "baby", "neon", "soft", "warm", "cool", "rich", "dusty",
          "midnight", "steel", "slate", "sea", "emerald", "blood", "brick", "burnt", "lime",
          "mint", "ice", "jet", "off", "olive")
TONES = ("light", "dark", "pale", "bright", "deep", "pastel", "vivid", "medium")
"""Words that make a named shade lighter or darker ("deep royal blue", "light sky blue")."""
_COLOR = (rf"(?:(?P<tone>{'|'.join(TONES)})[- ](?=(?:{'|'.join(SHADES)})[- ]))?"
          rf"(?:(?P<shade>{'|'.join(SHADES)})[- ])?(?P<word>{'|'.join(BASIC)})"
          rf"(?:-(?:and-)?(?P<second>{'|'.join(BASIC)}))?\b(?! space)")
WORDS_COLOR = (rf"(?:(?:{'|'.join(TONES)})[- ](?=(?:{'|'.join(SHADES)})[- ]))?"
               rf"(?:(?:{'|'.join(SHADES)})[- ])?(?:{'|'.join(BASIC)})")
"""A colour phrase with no named groups, to sit inside other patterns."""
ISH = {"reddish": "red", "bluish": "blue", "blueish": "blue", "greenish": "green",
        "yellowish": "yellow", "brownish": "brown", "pinkish": "pink", "purplish": "purple",
        "grayish": "gray", "greyish": "gray", "blackish": "black", "whitish": "white",
        "orangish": "orange", "colour": "color", "grey": "gray", "centred": "centered",
       "centre": "center"}
ISH_RE = re.compile(r"(?i)\b(" + "|".join(ISH) + r")")
COLOR_RE = re.compile(rf"(?i)(?<![\w-]){_COLOR}")
FUNCTION_WORDS = frozenset("""
a an the and or of in on at to with by for from as into onto that this these those it its
their there is are be been being was were must should shall will would need needs has have
having had include includes including contain contains containing use uses using used show
shows showing shown display displays displayed feature features featuring depict depicts
draw drawn drawing appear appears appearing visible present placed positioned located
situated set sits sit sitting lie lies make makes made sure ensure also only clearly entirely
fully completely somewhere please colored coloured color colour colors colours shade shades
tone toned hue filled fill painted paint rendered solid plain flat uniform simple pure
canvas image picture scene svg frame composition artwork illustration page overall entire
whole main background backdrop corner side half third part portion area region edge section
quarter quadrant top bottom left right upper lower center middle centered very primarily
mostly predominantly exactly least one two three four five six seven eight nine ten
text word words label labelled labeled title reads read reading says say saying written
anywhere everywhere throughout against card poster pixels px light dark pale bright deep pastel vivid medium soft
""".split())

def color_mentions(text: str, lower: str) -> list[tuple[tuple[int, int], tuple[ColorSpec, ...]]] | None:
    """Colour mentions: (span, the colours it allows). None when one is a name or unread."""
    out = []
    for found in COLOR_RE.finditer(text):
        start = found.start()
        if found.group(0)[0].isupper() and start > 0 and text[:start].strip():
            return None  # "the Red Cross", "Snow White": a name
        shade = " ".join(found.group(g) or "" for g in ("tone", "shade")).strip().lower()
        word = found.group("word").lower()
        phrase = f"{shade} {word}".strip()
        if phrase == "ice cream":
            continue  # a food, not a colour
        spec = color_spec(phrase) or color_spec(word)
        if spec is None:
            return None
        if (not shade and _qualified(lower[:start])) or _qualifies(lower[found.end():]):
            spec = replace(spec, qualified=True)
        if out and out[-1][0][1] + 1 == start and lower[start - 1] == " " \
                and not found.group("second"):  # "golden brown": a blend, either, never absent
            (first, _), before = out[-1]
            out[-1] = ((first, found.end()),
                       tuple(replace(c, qualified=True) for c in (*before, spec)))
            continue
        specs = [spec]
        if found.group("second"):
            second = color_spec(found.group("second").lower())
            if second is None:
                return None
            specs.append(second)
            if "-and-" not in found.group(0).lower():
                out.append((found.span(), tuple(specs)))  # "blue-green": either
                continue
            out.append((found.span(), (specs[0],)))
            out.append((found.span(), (specs[1],)))
            continue
        out.append((found.span(), (spec,)))
    merged: list[tuple[tuple[int, int], tuple[ColorSpec, ...]]] = []
    for span, specs in out:  # "red or orange": one mention either colour meets
        if merged and re.fullmatch(r" or ", lower[merged[-1][0][1]:span[0]]):
            merged[-1] = ((merged[-1][0][0], span[1]), merged[-1][1] + specs)
        else:
            merged.append((span, specs))
    return merged


COLOUR_NOUNS = frozenset("""
sandy sand honey rust rusty mustard lemon earthy earth terracotta caramel copper bronze brass
ruby cherry rose wine peach stone ash smoky smoke butter buttery creamy mint ocean blood fire
grass grassy leafy leaf moss mossy pine sunny sunshine candy bubblegum sage clay brick
""".split())
"""Nouns and adjectives that narrow a colour word they stand before ("sandy yellow")."""


def _qualifies(after: str) -> bool:
    """Whether the word right after a colour is a shade it names ("golden tan", "grey
    slate"): the colour meant is that one, which the reader does not know."""
    found = re.match(r"[ -]([a-z]+)\b", after)
    return bool(found) and _shade_word(found.group(1))


def _qualified(before: str) -> bool:
    """Whether the word right before a colour narrows it to a shade the reader does not
    know ("light wheat brown", "sandy yellow"), not a size or a shape ("a wide purple
    button")."""
    found = re.search(r"([a-z]+) $", before)
    return bool(found) and _shade_word(found.group(1))


def _shade_word(word: str) -> bool:
    """A CSS colour name or a colour noun the reader does not read as a colour itself."""
    return word not in BASIC and (word in COLOUR_NOUNS or word in CSS_COLORS)


def open_choice(lower: str) -> bool:
    """An "or" between things, not between two colours ("a red hat or a blue cap")."""
    words = rf"(?:{'|'.join(SHADES)}|{'|'.join(BASIC)})"
    for found in re.finditer(r"\bor\b", lower):
        before, after = lower[:found.start()].split(), lower[found.end():].split()
        if not (before and after and re.fullmatch(words, before[-1].strip(","))
                and re.fullmatch(words, after[0])):
            return True
    return "and/or" in lower


def rest_is_function(lower: str, spans: list[tuple[int, int]]) -> bool:
    """Whether every word outside ``spans`` is a function word."""
    keep = list(lower)
    for start, end in spans:
        keep[start:end] = " " * (end - start)
    words = re.findall(r"[a-z]+(?:'[a-z]+)?", "".join(keep))
    return all(w in FUNCTION_WORDS for w in words)
