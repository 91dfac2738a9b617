"""Reading a webpage request into what a page for it must show: named parts and key terms.

``read_requirements(prompt)`` returns ``Requirements``:

* ``atoms``: the parts the request names, each checkable on the rendered page
  (``alignment.check_atom``): text it quotes or lists (a brand, plan names, filter names),
  controls it names (``a "Get started" button``, ``an Add button``, ``tabs for
  Description, Specs and Reviews``), form fields (``a form (name, email, message)``), and
  page parts (navigation, header, footer, form, table, chart, pictures and how many,
  headline, tabs, accordion, lightbox, progress indicator, selectors, toggles). A part the
  request says appears on use (``a button that reveals a sign-up form``, ``opens it in a
  lightbox with previous/next buttons``) is ``later``: it may be hidden when the page loads;
* ``terms``: the request's content words (stemmed), less the words that only describe
  structure (``section``, ``button``, ``header`` ...), which the atoms check instead; the
  page's readable text should use them (``alignment.term_coverage``).

The reader is deliberately conservative: a phrase it cannot read is left to the terms,
never guessed into an atom a good page could fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_NUM = r"(\d+|" + "|".join(NUMBERS) + r")"
_QUOTED = re.compile(r"[\"“]([^\"“”]{1,60})[\"”]")
_REVEAL = re.compile(r"\b(?:reveal|open|show|expand|pop|appear|replac)\w*\b|\bfinal\b|"
                     r"\bat the end\b|\bon success\b|\bafterwards\b", re.I)
_LATER_END = re.compile(r"[;.]|,\s+(?:a|an|the|and|plus)\s+|\s+plus\s+", re.I)
TECH = frozenset({"html", "css", "svg", "js", "javascript", "json", "canvas", "dom"})

STOPWORDS = frozenset("""a an the and or of for to in on at by with without from into onto as is
are be been being it its it's this that these those each every any all some no not only one
two three four five six seven eight nine ten eleven twelve first last per via than then when
where which who whom whose what while so such can could must should will would may might do
does did done have has had make made build create write design use using give gives show shows
showing let lets like also plus up down out over under about after before both either neither
own same other others more most less least very just there their them they you your we our us
i me my he she his her him if else until once here how why etc e g eg ie same new too off
reveal reveals revealing validate validates highlight highlights expand expands collapse
collapses open opens enlarge enlarged replace replaces convert converts update updates handle
handles chain chained drawn draw leave leaves track tracks filter filters support supports allow
allows appear appears contain contains include includes need needs want wants get landing
rick jpg png""".split())

# Words that name structure, not content: the atoms check these parts; the page need not
# print the words.
STRUCTURE = frozenset("""page pages website site web app application section sections part parts
header footer nav navigation navbar menu link links hero headline heading headings title
subtitle pitch tagline button buttons form forms field fields input inputs text textbox box
boxes list lists item items grid column columns row rows card cards layout responsive style
styled styling design designed clean modern simple minimal plain html css javascript js svg
image images picture pictures photo photos icon icons element elements component components
block blocks area panel panels container content contents control controls click clicking
clicked tap press pressing pressed select selects selector selectors dropdown drop toggle
toggles switch switches tab tabs table tables chart charts graph graphs label labels
placeholder placeholders modal dialog popup lightbox overlay accordion interactive interaction
interactions user users visitor visitors screen screens view views state states data made
made-up fake sample dummy small short long large big little single multiple side bar
indicator enter type typing typed value values message messages inline immediate
immediately line lines below above top bottom left right center centre middle full""".split())

PAGE_KINDS = frozenset({"product", "contact", "landing", "home", "homepage", "profile", "detail",
                        "details", "portfolio", "about"})
SYNONYMS: dict[str, tuple[str, ...]] = {  # what a page may say instead of the request's word
    "faq": ("frequently asked", "common questions", "questions and answers"),
    "contact": ("get in touch", "write to us", "reach us", "talk to us", "message us"),
    "todo": ("tasks", "to do"),
    "pricing": ("plans", "per month", "/mo", "$", "€", "£"),
    "gallery": ("photos", "pictures", "portfolio"),
    "quiz": ("trivia", "question 1"),
}
SYMBOLS: dict[str, str] = {  # request words a control shows as a symbol (its whole name)
    "digit": r"\d", "equal": r"=", "clear": r"a?c|ce|clear|reset", "decimal": r"[.,]",
    "point": r"[.,]", "operation": r"[+\-−×÷*/]", "plus": r"\+", "minus": r"[-−]",
    "multiply": r"[×*x]", "divid": r"[÷/]", "division": r"[÷/]", "percent": r"%",
    "celsius": r"°\s*c", "fahrenheit": r"°\s*f", "delet": r"×|✕|🗑", "clos": r"×|✕",
    "previous": r"‹|←|«|<", "next": r"›|→|»|>",
}


@dataclass(frozen=True)
class Atom:
    """One checkable part: ``kind`` (``text``, ``control``, ``field``, ``part``), what it
    names (``target``), its weight in the parts score, and ``later`` when the request says
    it appears on use."""

    kind: str
    target: str
    weight: float = 1.0
    later: bool = False
    count: int = 1


@dataclass(frozen=True)
class Requirements:
    text: str
    atoms: tuple[Atom, ...] = ()
    terms: tuple[str, ...] = ()
    words: tuple[str, ...] = field(default=(), repr=False)
    """The request's words in order (lower case), for spotting the request pasted in."""


def stem(word: str) -> str:
    """A light suffix stripper, applied to request and page words alike."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if w in NUMBERS:
        return str(NUMBERS[w])
    if w.endswith("us") or w.endswith("ss"):
        return w
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"),
                         ("shes", "sh"), ("ing", ""), ("ed", ""), ("ly", ""), ("es", "e"),
                         ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def tokens(text: str) -> list[str]:
    """Lower-case words and numbers in any alphabet (hyphenated words split; scripts written
    without spaces come out as whole runs, which only an exact run matches)."""
    text = re.sub(r"\bto-do\b", "todo", text.lower().replace("’", "'"))
    return re.findall(r"[^\W_]+(?:'[^\W_]+)?", text)


def split_names(text: str) -> tuple[str, ...]:
    """The names in a list: ``Free, Pro and Team``, ``All / Active / Done``."""
    names = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*/\s*", text.strip())
    names = [re.sub(r"^(?:an?|the)\s+", "", n.strip(), flags=re.I) for n in names]
    return tuple(n for n in names if n and len(n) <= 40)


def _later_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in _REVEAL.finditer(text):
        end = _LATER_END.search(text, match.end())
        spans.append((match.start(), end.start() if end else len(text)))
    return spans


def read_requirements(prompt: str) -> Requirements:
    """The atoms and terms of one request."""
    text = " ".join(str(prompt).split())
    lower = text.lower()
    later_spans = _later_spans(text)
    atoms: list[Atom] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: str, target: str, weight: float, at: int, count: int = 1) -> None:
        key = (kind, target.lower())
        if not target or key in seen:
            return
        seen.add(key)
        later = any(a <= at < b for a, b in later_spans)
        atoms.append(Atom(kind, target, weight, later, count))

    subject = _subject(text)
    if subject:
        add("subject", subject, 2.0, 0)
    _read_names(text, add)
    _read_parts(text, lower, add)
    shown = "".join(ch if not any(a <= i < b for a, b in later_spans) else " "
                    for i, ch in enumerate(text))
    terms = _terms(shown)
    return Requirements(text, tuple(atoms), terms, tuple(tokens(text)))


def _subject(text: str) -> str:
    """What the page is, in the request's first words: ``Write a calculator with ...`` ->
    ``calculator``; ``a weather dashboard for one city`` -> ``weather dashboard``."""
    head = re.split(r"[:;(.]|\s+(?:with|that|where|which|showing|of|for|about|on|in)\s+|,",
                    text, maxsplit=1)[0]
    found = re.search(r"\b(?:an?|the)\s+(.+)$", head, re.I)
    if not found:
        return ""
    words = [w for w in tokens(found.group(1))
             if w not in STOPWORDS and w not in STRUCTURE and not w.isdigit()
             and stem(w) not in STRUCTURE and not re.match(r"\d", w)]
    words = [w for w in words if w not in ("multiple", "choice", "question", "interactive")]
    if not words or all(w in PAGE_KINDS for w in words) and words != ["contact"]:
        if re.match(r"\s*(?:for|about|on)\s+[\"“]", text[len(head):]):
            return ""  # a brand follows: the text atom names it
        # "a product page for a pair of running shoes": the page is about what follows
        after = re.search(r"\b(?:for|about|on)\s+(?:an?\s+|the\s+)?(?:pair of\s+)?"
                          r"([a-z][a-z -]{2,40}?)(?=[,.:;(]|\s+(?:with|that|in|where|and)\b|$)",
                          text[len(head):len(head) + 80] if head else text)
        words = [w for w in tokens(after.group(1)) if w not in STOPWORDS
                 and w not in STRUCTURE] if after else []
    elif words != ["contact"]:  # "a blog home page": the page is a blog, not a "home"
        words = [w for w in words if w not in PAGE_KINDS]
    return " ".join(words[-2:])


def _read_names(text: str, add) -> None:
    """Quoted text, name lists and named controls."""
    _read_quoted_and_listed(text, add)
    _read_named_controls(text, add)


def _read_quoted_and_listed(text: str, add) -> None:
    """Quoted text (a control when a control word follows), names in parentheses (fields
    after "form with"), and slash-separated lists (controls before "buttons", "tabs" ...)."""
    for match in _QUOTED.finditer(text):
        name, after = match.group(1).strip(), text[match.end():match.end() + 14].lower()
        if re.match(r"\s*(button|link|tab|cta|label)", after):
            add("control", name, 1.5, match.start())
        else:
            add("text", name, 2.0, match.start())
    for match in re.finditer(r"\(([^)]{3,120})\)", text):
        before = text[max(0, match.start() - 30):match.start()].lower()
        names = [n for n in split_names(match.group(1))
                 if n.lower() not in TECH and "." not in n and not n.lower().startswith("e.g")]
        if re.search(r"\b(?:form|fields?)\s*(?:with\s*)?$", before):
            for name in names:
                add("field", name.split()[0], 1.0, match.start())
        elif len(names) >= 2 and all(n[:1].isupper() and len(n.split()) <= 3 for n in names):
            for name in names:
                add("text", name, 1.0, match.start())
    for match in re.finditer(r"\b[\w'°-]+(?:\s*/\s*[\w'°-]+)+", text):
        names = split_names(match.group(0))
        if len(names) < 2 or any(len(n) > 20 or n.lower() in TECH for n in names):
            continue
        after = text[match.end():match.end() + 20].lower()
        kind = "control" if re.match(r"\s*(?:\w+\s+)?(buttons?|toggle|switch|filters?|tabs?)\b",
                                     after) else "text"
        for name in names:
            add(kind, name, 1.0, match.start())


def _read_named_controls(text: str, add) -> None:
    """Controls named by how they are asked for: "tabs for A, B and C", "a Sign up button",
    "the share button", "buttons for + and -"."""
    for match in re.finditer(r"\btabs?\s+(?:for\s+|:\s*)([A-Z][\w' ]*(?:,\s*[A-Z][\w' ]*)*"
                             r"(?:,?\s+(?:and|or)\s+[A-Z][\w' ]*)?)", text):
        for name in split_names(match.group(1)):
            add("control", name, 1.0, match.start())
    for match in re.finditer(r"\b(?:an?|the)\s+([A-Z][\w']*(?:\s+to\s+[\w']+)?)\s+buttons?\b",
                             text):
        add("control", match.group(1), 1.0, match.start())
    generic = {"big", "small", "single", "filter", "toggle", "primary", "secondary", "icon",
               "round", "large", "main", "submit", "category"}
    for match in re.finditer(r"\b(?:an?|the|each|every)\s+([a-z]+)\s+buttons?\b", text):
        if match.group(1) not in generic and match.group(1) not in STOPWORDS:
            add("control", match.group(1), 1.0, match.start())
    for match in re.finditer(r"\bbuttons?\s+for\s+([^;:.]{3,120})", text):
        for name in split_names(match.group(1)):
            word = stem(name.split()[-1])
            if word in SYMBOLS:
                add("control", word, 0.5, match.start())


PART_WORDS: tuple[tuple[str, str, float], ...] = (
    # (part, request words, weight)
    ("nav", r"\bnav(?:igation|bar)?\b|\bmenu\b", 1.0),
    ("header", r"\bheader\b", 0.5),
    ("footer", r"\bfooter\b", 0.5),
    ("form", r"\bforms?\b|\bsign[- ]?up\b|\bsubscribe\b|\bnewsletter\b|\blog[- ]?in\b", 1.0),
    ("text_field", r"\btext (?:field|box|input)\b|\binput field\b", 1.0),
    ("search", r"\bsearch (?:box|field|bar|input)\b", 1.0),
    ("table", r"(?<!pricing )\btable\b", 1.0),
    ("chart", r"\bcharts?\b|\bgraphs?\b|\bplot\b", 1.0),
    ("image", r"\bpictures?\b|\bimages?\b|\bphotos?\b|\bgallery\b|\bthumbnails?\b", 1.0),
    ("headline", r"\bhero\b|\bheadline\b|\blanding page\b", 0.5),
    ("tabs", r"\btabs\b", 1.0),
    ("accordion", r"\baccordion\b|\bexpands?\b|\bcollaps", 1.0),
    ("dialog", r"\blightbox\b|\bmodal\b|\bdialog\b|\bpop-?up\b", 1.0),
    ("progress", r"\bprogress\b", 1.0),
    ("selector", r"\bselect(?:or|ors)?\b|\bdrop-?down\b", 1.0),
    ("toggle", r"\btoggle\b|\bswitch\b", 1.0),
    ("checkbox", r"\bcheck(?:ed)? off\b|\bcheckbox", 1.0),
    ("list", r"\blist\b", 0.5),
)


def _read_parts(text: str, lower: str, add) -> None:
    for part, pattern, weight in PART_WORDS:
        match = re.search(pattern, lower)
        if match:
            count = 1
            if part == "image":
                found = re.search(_NUM + r"\s+(?:[a-z-]+\s+)?(?:pictures|images|photos)", lower)
                count = (int(found.group(1)) if found and found.group(1).isdigit()
                         else NUMBERS.get(found.group(1), 1)) if found else 1
            add("part", part, weight, match.start(), count)
    for match in re.finditer(r"\b([a-z][a-z-]+)\s+section\b", lower):
        word = match.group(1)
        if word not in STOPWORDS and word not in STRUCTURE and not re.match(r"\d|three|two|four",
                                                                           word):
            add("heading", word, 1.0, match.start())
    for match in re.finditer(r"\bsection\s+(?:for|about|on|with)\s+([a-z]+)", lower):
        if match.group(1) not in STOPWORDS and match.group(1) not in STRUCTURE:
            add("heading", match.group(1), 1.0, match.start())


def _terms(text: str) -> tuple[str, ...]:
    """The request's content words, stemmed, in order, once each."""
    out: list[str] = []
    for word in tokens(text):
        if word in STOPWORDS or word in STRUCTURE or len(word) < 3 and not word.isdigit():
            continue
        if word.isdigit():
            continue
        s = stem(word)
        if s in STRUCTURE or s in STOPWORDS:
            continue
        if s not in out:
            out.append(s)
    return tuple(out)
