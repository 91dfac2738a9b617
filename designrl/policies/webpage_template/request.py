"""Reading a webpage request: a small keyword reader for the brand and button labels in
quotes, the subject, counts, name lists, toggle pairs and the parts the request names, so
the template answers the request rather than returning one generic page."""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_NUM = r"(\d+|" + "|".join(NUMBERS) + r")"
_QUOTED = re.compile(r"[\"“]([^\"“”]{1,60})[\"”]")

# Parts a request can name, with the words that name them (first match wins the order).
PART_PATTERNS: dict[str, str] = {
    "hero": r"\bhero\b|\blanding\b|\bheadline\b",
    "features": r"(?<!of )\bfeatures\b(?! list)",
    "pricing": r"\bpricing\b|\bplans?\b",
    "todo": r"\bto-?do\b|\btask list\b",
    "contact": r"\bcontact\b|\bform\b",
    "gallery": r"\bgallery\b|\blightbox\b",
    "calculator": r"\bcalculator\b",
    "faq": r"\bfaq\b|\baccordion\b",
    "weather": r"\bweather\b|\bforecast\b",
    "product": r"\bproduct page\b|\badd to cart\b",
    "tabs": r"\btabs?\b",
    "chart": r"\bchart\b|\bgraph\b",
    "table": r"(?<!pricing )\btable\b",
    "quiz": r"\bquiz\b|\btrivia\b",
}
# Parts another part already draws (a sign-up form in the hero, tabs on a product page).
ABSORBED = {"contact": ("hero",), "tabs": ("product",), "chart": ("weather",),
            "table": ("pricing",), "faq": ("quiz",), "pricing": ("product",)}
# Topics the content banks know, with the words that name them (first match wins).
TOPIC_WORDS = (
    ("study", ("note", "student", "study", "class", "course")),
    ("books", ("book", "library", "reading")),
    ("shoes", ("shoe", "sneaker", "running")),
    ("space", ("solar system", "planet", "space", "astronom")),
    ("food", ("recipe", "restaurant", "cafe", "coffee", "food")),
    ("photo", ("gallery", "photo", "picture", "image")),
)


@dataclass(frozen=True)
class Request:
    """What the keyword reader pulled out of one request."""

    text: str
    brand: str
    descriptor: str
    subject: str
    topic: str
    parts: tuple[str, ...]
    labels: tuple[str, ...] = ()
    lists: tuple[tuple[str, ...], ...] = ()
    toggles: tuple[tuple[str, str], ...] = ()
    wants_nav: bool = False
    uses_rick: bool = False

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.text, re.I) is not None

    def count(self, noun: str, default: int) -> int:
        """The number the request puts before ``noun`` (``six questions``, ``five-question``)."""
        match = re.search(_NUM + r"[ -](?:[\w]+[ -])?" + noun, self.text, re.I)
        if not match:
            return default
        word = match.group(1).lower()
        return max(1, min(12, int(word) if word.isdigit() else NUMBERS[word]))

    def label(self, pattern: str, default: str) -> str:
        """The request's own label for a control (``a "Get started" button``), else ``default``."""
        for label in self.labels:
            if re.search(pattern, label, re.I):
                return label
        return default

    def names_after(self, pattern: str) -> tuple[str, ...]:
        """A list the request gives after ``pattern`` (``tabs for Description, Specs and Reviews``)."""
        match = re.search(pattern + r"\s+(?:for\s+|:\s*)?([A-Z][\w' ]*(?:,\s*[A-Z][\w' ]*)*"
                          r"(?:,?\s+(?:and|or)\s+[A-Z][\w' ]*)?)", self.text)
        return split_names(match.group(1)) if match else ()


def split_names(text: str) -> tuple[str, ...]:
    """The names in a list: ``Free, Pro and Team``, ``All / Active / Done``."""
    names = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*/\s*", text.strip())
    return tuple(n.strip() for n in names if n.strip())


def read_request(prompt: str) -> Request:
    """Brand, subject, counts, lists and parts of a webpage request."""
    text = " ".join(prompt.split())
    lower = text.lower()
    brand, labels = "", []
    for match in _QUOTED.finditer(text):
        name, after = match.group(1).strip(), text[match.end():match.end() + 12].lower()
        before = text[max(0, match.start() - 12):match.start()].lower()
        if re.match(r"\s*(button|link|tab|label|cta)", after) or brand:
            labels.append(name)
        elif re.search(r"(for|called|named|brand)\s*$", before) or not labels:
            brand = name
        else:
            labels.append(name)
    labels += [m.group(1).strip() for m in re.finditer(
        r"\b(?:an?|the)\s+([A-Z][\w']*(?:\s+(?:to\s+)?[\w']+)?)\s+button", text)]
    descriptor = ""
    if brand:
        found = re.search(re.escape(brand) + r"[\"”]?,\s+((?:an?|the)\s+[^:;.]+)", text)
        descriptor = found.group(1) if found else ""
    head = re.split(r"[:;(]", text, maxsplit=1)[0]  # "a quiz about the solar system: ..."
    found = re.search(r"\b(?:page|app|site|website|quiz|game|dashboard|section|store|shop|blog)"
                      r"\s+(?:for|about|on)\s+(?:an?\s+|the\s+|one\s+)?(?:pair of\s+)?"
                      r"([a-z][a-z -]{2,40}?)(?=[,.]|\s+(?:with|that|in|where|and|as)\b|$)",
                      head)
    subject = found.group(1).strip() if found else ""
    lists = tuple(split_names(m.group(1)) for m in re.finditer(r"\(([^)]{3,120})\)", text))
    lists += tuple(split_names(m.group(0)) for m in re.finditer(
        r"\b[A-Z]\w+(?:\s*/\s*[A-Z]\w+){2,}", text))
    toggles = tuple((a, b) for a, b in re.findall(r"\b(\w+)/(\w+)\s+(?:toggle|switch)", text))
    return Request(text=text, brand=brand, descriptor=descriptor, subject=subject,
                   topic=_topic(lower), parts=_parts(lower), labels=tuple(labels), lists=lists,
                   toggles=toggles, wants_nav=bool(re.search(r"\bnav(igation)?\b", lower)),
                   uses_rick="rick.jpg" in lower)


def _parts(lower: str) -> tuple[str, ...]:
    """The parts the request names, in the order it names them, less those another part
    draws; a hero, features and a contact form when it names none."""
    found = []
    for name, pattern in PART_PATTERNS.items():
        match = re.search(pattern, lower)
        if match:
            found.append((match.start(), name))
    names = [name for _, name in sorted(found)]
    if "contact" in names and "hero" in names and not re.search(r"\bcontact\b", lower):
        names.remove("contact")  # "a button that reveals a sign-up form": the hero's form
    names = [n for n in names if not any(owner in names for owner in ABSORBED.get(n, ()))]
    return tuple(names) if names else ("hero", "features", "contact")


def _topic(lower: str) -> str:
    for topic, words in TOPIC_WORDS:
        if any(re.search(r"\b" + w, lower) for w in words):
            return topic
    return "general"
