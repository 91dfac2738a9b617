"""Read a requirement sentence into a computed predicate, or decide that none applies.

A predicate is returned only when the whole sentence is understood: "Include a
red circle" becomes "at least one red circle", but "Include a large red circle"
gets none, because checking only the colour would pass drawings the sentence
rejects. Such sentences go to the free-text reader (``reader``), which checks what
it can of them without ever passing them on a part.

Understood forms (after lower-casing, with "The SVG must ..." and similar
lead-ins removed):

* background: "the background must be light blue", "has a black background";
* counts: "include exactly 3 circles", "at least two red squares", "a green
  triangle", "there must be no lines", "the number of stars must be 5" (a bare
  number means exactly that many; "a"/"an"/"some" at least one);
* colours: "use red, white and blue", "the colors gold and navy must be used";
* colour of every shape of a kind: "all circles must be yellow";
* colour of a shape: "the square is blue" (some square is blue);
* outlines: "the circle has a black outline";
* relative position: "the red circle is above the blue square" (above, below,
  left of, right of, inside);
* position on the canvas: "the sun is in the top right corner" (only for shape
  nouns and quoted text), "the octagon is centered";
* text: "contains the text 'STOP'", "the word 'Sale' must appear";
* size: "the canvas must be 400x300".
"""

from __future__ import annotations

import re
from functools import lru_cache

from designrl.tasks.svg.colour_names import (
    COLOR_WORDS,
    DESCRIPTIVE,
    MODIFIERS,
    ColorSpec,
    color_spec,
)
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

_NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_SHAPES = {
    "circle": "circle", "dot": "circle", "disc": "circle", "disk": "circle",
    "ellipse": "ellipse", "oval": "ellipse",
    "rectangle": "rectangle", "rect": "rectangle", "square": "square",
    "line": "line", "line segment": "line", "straight line": "line",
    "triangle": "triangle", "polygon": "polygon", "polyline": "polyline", "path": "path",
    "pentagon": "pentagon", "hexagon": "hexagon", "octagon": "octagon", "star": "star",
    "shape": ANY_SHAPE, "element": ANY_ELEMENT, "text element": "text", "text": "text",
}
_SHAPE = "(?:" + "|".join(sorted((re.escape(k) for k in _SHAPES), key=len, reverse=True)) + \
    ")(?:e?s)?"
_WORD = "(?:" + "|".join(COLOR_WORDS) + r")\b"
_PREFIX = "(?:" + "|".join(sorted({*MODIFIERS, *DESCRIPTIVE, *COLOR_WORDS}, key=len,
                                   reverse=True)) + ")"
_COLOR = rf"(?:#[0-9a-f]{{3,8}}\b|rgba?\([^)]*\)|(?:{_PREFIX} )?{_WORD})"
_Q = r"\x00(\d+)\x00"
_QUANT = (r"(?:(?P<op>at least|no fewer than|not fewer than|no less than|not less than|"
          r"a minimum of|minimum of|more than|at most|no more than|not more than|a maximum of|"
          r"maximum of|up to|fewer than|less than|exactly|precisely|only|just) )?"
          r"(?P<n>\d+|" + "|".join(_NUMBERS) + r"|a single|single|an|a|some|several|multiple"
          r"|many)")
_VERB = (r"(?:contains?|includes?|ha(?:ve|s)|shows?|displays?|features?|depicts?|draws?|adds?|"
         r"uses?|creates?|places?|puts?|renders?|consists? of|be composed of|is composed of)")
_MODAL = r"(?:(?:must|should|shall|will|needs? to|has to|is required to|is expected to) )?"
_BE = r"(?:be |is |are |appears? |sits? |lies? )?"
_PLACED = r"(?:placed |positioned |located |drawn |situated |set )?"
_ADVERB = r"(?:directly |entirely |completely |fully |somewhere |immediately |clearly |just )?"
_LEAD_IN = re.compile(
    r"^(?:(?:please )?(?:make sure|ensure) (?:that )?)?"
    r"(?:(?:the |an? )?(?:svg|image|drawing|illustration|picture|graphic|design|scene|canvas|"
    r"output|artwork|composition)(?: (?:image|code|file|output|canvas))? "
    r"(?=(?:must|should|shall|will|needs? to|has to|is required to|contains?|includes?|ha(?:s|ve)|"
    r"shows?|displays?|features?|depicts?|uses?|is|are|not)\b))?")
_NEGATION = re.compile(r"\b(?:must|should|shall|does|do|will|can|may)(?: not|n't)\b|\bcannot\b")


def _sel(p: str) -> str:
    """A shape phrase with named groups prefixed ``p``: "the red circle", "the text 'X'"."""
    return (rf"(?:(?:the |a |an |one of the |any |both |all |all the |all of the |each |every "
            rf"|the (?:two|three|four|five) )?(?:(?P<{p}c>{_COLOR}) )?(?P<{p}s>{_SHAPE})"
            rf"|(?:the )?(?:text|word|label|title|heading|caption) {_Q.replace('(', f'(?P<{p}q>', 1)}"
            rf"|{_Q.replace('(', f'(?P<{p}q2>', 1)})")


_REGION = (r"(?P<region>(?:(?:top|upper|bottom|lower) (?:left|right)|(?:top|upper|bottom|lower)-"
           r"(?:left|right)|top|upper|bottom|lower|left|right|center|middle)"
           r"(?: (?:corner|half|side|part|portion|area|edge|section))?)")
_CANVAS = r"(?: (?:of|on|in|within) the (?:canvas|image|svg|drawing|picture|scene|page|frame))?"
_BG_TAIL = r"(?: of (?:the )?(?:svg|image|canvas|drawing|picture|scene))?"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("background", re.compile(
        rf"^(?:the )?(?:(?:overall|entire|whole|main|canvas|page|image|svg) )*background"
        rf"(?: color)?{_BG_TAIL} {_MODAL}(?:be|is|be set to|is set to|be filled with|"
        rf"is filled with|be colored|is colored|be painted|is painted|be in|is in) "
        rf"(?:a |an )?(?:solid |plain |flat |uniform |simple |pure )?(?P<c>{_COLOR})(?: color)?$")),
    ("background", re.compile(
        rf"^(?:(?:have|has|use|uses|feature|features|include|includes|be on|is on|with|sit on) )?"
        rf"(?:a |an |the )?(?:solid |plain |flat |uniform |simple |pure )?(?P<c>{_COLOR})"
        rf"(?: colored| color)? background(?: color)?{_BG_TAIL}$")),
    ("background", re.compile(
        rf"^(?:use|uses) (?P<c>{_COLOR}) (?:as|for) the background(?: color)?$")),
    ("size", re.compile(
        r"^(?:(?:be|is|have|has|use|uses|measure|measures) )?(?:a |an )?"
        r"(?:(?:canvas |image |svg )?(?:size|dimensions|width and height|viewbox) )?(?:of )?"
        r"(?P<w>\d+) ?(?:x|×|by) ?(?P<h>\d+)(?: ?(?:pixels|px|units))?(?: in size)?$")),
    ("text", re.compile(
        rf"^(?:{_VERB} |say |says |read |reads |write |writes )?(?:the |a )?(?:text|word|words|"
        rf"label|title|heading|caption|phrase|name)(?: that (?:says|reads)| saying| reading|"
        rf" of)?:? {_Q}(?: (?:somewhere|visibly))?{_CANVAS}$")),
    ("text", re.compile(
        rf"^(?:{_VERB} |say |says |read |reads |write |writes )?{_Q}(?: as (?:a |the )?"
        rf"(?:text|label|title|heading|caption)| text| label| title| heading| caption)?{_CANVAS}$")),
    ("text", re.compile(
        rf"^(?:the )?(?:(?:text|word|label|title|heading|caption) )?{_Q} {_MODAL}{_BE}"
        rf"(?:visible|present|displayed|shown|included|written|rendered|appear|appears)"
        rf"{_CANVAS}$")),
    ("none", re.compile(
        rf"^not {_VERB} (?:any )?(?:(?P<c>{_COLOR}) )?(?P<s>{_SHAPE})$")),
    ("none", re.compile(
        rf"^(?:there (?:must |should |will )?(?:be|is|are) )?no (?:(?P<c>{_COLOR}) )?"
        rf"(?P<s>{_SHAPE})(?: (?:are |is |should be |must be |may be )?(?:used|present|drawn|"
        rf"allowed|included|visible))?$")),
    ("count", re.compile(
        rf"^(?:{_VERB} )?{_QUANT} (?:(?P<c>{_COLOR}) )?(?P<s>{_SHAPE})(?: in total| total)?"
        rf"{_CANVAS}$")),
    ("count", re.compile(
        rf"^there {_MODAL}(?:be|is|are) {_QUANT} (?:(?P<c>{_COLOR}) )?(?P<s>{_SHAPE})"
        rf"(?: in total)?{_CANVAS}$")),
    ("count", re.compile(
        rf"^{_QUANT} (?:(?P<c>{_COLOR}) )?(?P<s>{_SHAPE}) {_MODAL}{_BE}(?:present|visible|drawn|"
        rf"shown|included|used|appear){_CANVAS}$")),
    ("count", re.compile(
        rf"^(?:the )?(?:total )?number of (?:(?P<c>{_COLOR}) )?(?P<s>{_SHAPE}) {_MODAL}"
        rf"(?:be|is|equals?) {_QUANT}$")),
    ("colors", re.compile(
        rf"^(?:(?:use|uses|include|includes|contain|contains|feature|features|have|has|"
        rf"incorporate|incorporates|employ|employs) )(?:the )?(?:colors? )?"
        rf"(?P<list>{_COLOR}(?:(?:,? and |, |,? or ){_COLOR})*)(?: colors?)?$")),
    ("colors", re.compile(
        rf"^(?:the )?(?:colors? )?(?P<list>{_COLOR}(?:(?:,? and |, |,? or ){_COLOR})*)"
        rf"(?: colors?)? {_MODAL}{_BE}(?:used|present|visible|included|featured|appear|appears)$")),
    ("colors", re.compile(
        rf"^(?:the )?(?:color )?(?:palette|color scheme|colors) {_MODAL}(?:include|includes|"
        rf"contain|contains|use|uses|be|are|is|consist of|consists of) "
        rf"(?P<list>{_COLOR}(?:(?:,? and |, |,? or ){_COLOR})*)$")),
    ("all", re.compile(
        rf"^(?:all|every|each)(?: of the)? (?P<s>{_SHAPE}) {_MODAL}(?:be|are|is) "
        rf"(?:filled (?:with |in )?|colored |painted |in )?(?P<c>{_COLOR})$")),
    ("outline", re.compile(
        rf"^(?:{_VERB} )?(?:the |a |an )?(?:(?P<sc>{_COLOR}) )?(?P<s>{_SHAPE}) "
        rf"(?:{_MODAL}(?:have|has) |with )(?:a |an )?(?:thin |thick )?(?P<c>{_COLOR}) "
        rf"(?:outline|stroke|border)$")),
    ("colored", re.compile(
        rf"^(?:the |a |an )?(?P<s>{_SHAPE}) {_MODAL}(?:be|is) (?:filled (?:with |in )?|colored |"
        rf"painted |in )?(?P<c>{_COLOR})$")),
    ("relation", re.compile(
        rf"^{_sel('a')} {_MODAL}{_BE}{_PLACED}{_ADVERB}(?P<rel>above|below|under|underneath|"
        rf"beneath|to the left of|left of|on the left of|to the right of|right of|"
        rf"on the right of|inside|within|inside of|contained in|in) {_sel('b')}$")),
    ("placement", re.compile(
        rf"^{_sel('a')} {_MODAL}{_BE}{_PLACED}(?:in |at |on |near |along |toward |towards )?"
        rf"(?:the )?(?:very )?{_REGION}{_CANVAS}$")),
    ("centered", re.compile(
        rf"^{_sel('a')} {_MODAL}{_BE}(?P<axis>horizontally |vertically )?(?:centered|centred)"
        rf"(?P<axis2> horizontally| vertically)?{_CANVAS}$")),
]
_RELATIONS = {"above": "above", "below": "below", "under": "below", "underneath": "below",
              "beneath": "below", "to the left of": "left_of", "left of": "left_of",
              "on the left of": "left_of", "to the right of": "right_of",
              "right of": "right_of", "on the right of": "right_of", "inside": "inside",
              "within": "inside", "inside of": "inside", "contained in": "inside", "in": "inside"}
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|‘([^’]+)’|(?<!\w)'((?:[^']|'(?=\w))+)'(?!\w)")


class _NotUnderstood(Exception):
    pass


def parse_requirement(sentence: str) -> Predicate | None:
    """The predicate that checks ``sentence``, or None when no computed check applies."""
    return _parse_cached(sentence.strip())


@lru_cache(maxsize=4096)
def _parse_cached(sentence: str) -> Predicate | None:
    quotes: list[str] = []

    def stash(found: re.Match[str]) -> str:
        quotes.append(next(g for g in found.groups() if g is not None).strip())
        return f"\x00{len(quotes) - 1}\x00"

    text = _QUOTED.sub(stash, sentence)
    text = _normalise(text)
    for kind, pattern in _PATTERNS:
        found = pattern.match(text)
        if found is None:
            continue
        try:
            return _build(kind, found, quotes)
        except _NotUnderstood:
            continue
    return None


def _normalise(text: str) -> str:
    text = text.lower().strip()
    text = re.sub(r"^(?:[-*•]\s*|\d+[.)]\s*)", "", text)
    text = text.replace("colour", "color").replace("grey", "gray").replace("centre", "center")
    text = text.replace("&", " and ").replace("’", "'")
    text = re.sub(r"[.!;]+$", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = _NEGATION.sub("not", text)
    text = _LEAD_IN.sub("", text)
    text = re.sub(rf"^{_MODAL}(?:also )?", "", text) if not text.startswith("there") else text
    return text.strip()


def _color(value: str | None) -> ColorSpec | None:
    if value is None:
        return None
    spec = color_spec(value)
    if spec is None:
        raise _NotUnderstood(value)
    return spec


def _shape(value: str) -> str:
    word = value
    for suffix in ("es", "s", ""):
        if suffix and word.endswith(suffix) and word[: -len(suffix)] in _SHAPES:
            return _SHAPES[word[: -len(suffix)]]
        if not suffix and word in _SHAPES:
            return _SHAPES[word]
    raise _NotUnderstood(value)


def _quantity(op: str | None, n: str) -> tuple[str, int]:
    if n in ("a", "an", "some"):
        count, default = 1, ">="
    elif n in ("several", "multiple", "many"):
        count, default = 2, ">="
    elif n in ("a single", "single"):
        count, default = 1, "=="
    else:
        count, default = (int(n) if n.isdigit() else _NUMBERS[n]), "=="
    if op is None:
        return default, count
    if op in ("at least", "no fewer than", "not fewer than", "no less than", "not less than",
              "a minimum of", "minimum of"):
        return ">=", count
    if op == "more than":
        return ">=", count + 1
    if op in ("at most", "no more than", "not more than", "a maximum of", "maximum of", "up to"):
        return "<=", count
    if op in ("fewer than", "less than"):
        return "<=", count - 1
    return "==", count  # exactly, precisely, only, just


def _selector(found: re.Match[str], p: str, quotes: list[str]) -> Selector:
    groups = found.groupdict()
    quote = groups.get(f"{p}q") or groups.get(f"{p}q2")
    if quote is not None:
        return Selector("text", text=quotes[int(quote)])
    return Selector(_shape(groups[f"{p}s"]), _color(groups.get(f"{p}c")))


def _build(kind: str, found: re.Match[str], quotes: list[str]) -> Predicate:
    g = found.groupdict()
    if kind == "background":
        return BackgroundColor(_color(g["c"]))  # type: ignore[arg-type]
    if kind == "size":
        return CanvasSize(float(g["w"]), float(g["h"]))
    if kind == "text":
        return ShapeCount(Selector("text", text=quotes[int(found.group(1))]), ">=", 1)
    if kind == "none":
        return ShapeCount(Selector(_shape(g["s"]), _color(g.get("c"))), "==", 0)
    if kind == "count":
        op, n = _quantity(g["op"], g["n"])
        return ShapeCount(Selector(_shape(g["s"]), _color(g.get("c"))), op, n)
    if kind == "colors":
        parts = re.split(r",? and |, |,? or ", g["list"])
        specs = tuple(_color(p) for p in parts)
        return ColorsUsed(specs, any_of=" or " in g["list"])  # type: ignore[arg-type]
    if kind == "all":
        return AllColored(Selector(_shape(g["s"])), _color(g["c"]))  # type: ignore[arg-type]
    if kind == "outline":
        return Outlined(Selector(_shape(g["s"]), _color(g.get("sc"))), _color(g["c"]))  # type: ignore[arg-type]
    if kind == "colored":
        return ShapeCount(Selector(_shape(g["s"]), _color(g["c"])), ">=", 1)
    if kind == "relation":
        plural = g.get("as") is not None and g["as"] not in _SHAPES  # "circles are inside"
        return Relation(_selector(found, "a", quotes), _RELATIONS[g["rel"]],
                        _selector(found, "b", quotes), every=plural)
    if kind == "placement":
        return Placement(_selector(found, "a", quotes), _region(g["region"]))
    if kind == "centered":
        axis = (g.get("axis") or g.get("axis2") or "").strip()
        region = {"horizontally": "hcenter", "vertically": "vcenter"}.get(axis, "center")
        return Placement(_selector(found, "a", quotes), region)
    raise _NotUnderstood(kind)


def _region(phrase: str) -> str:
    words = phrase.replace("-", " ").split()
    corner = words[-1] == "corner"
    words = [w for w in words if w not in ("corner", "half", "side", "part", "portion", "area",
                                          "edge", "section")]
    words = ["top" if w == "upper" else "bottom" if w == "lower" else
             "center" if w == "middle" else w for w in words]
    region = "_".join(words)
    if corner and "_" in region:
        region += "_corner"
    return region
