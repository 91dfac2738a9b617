"""What a part builder gets and gives (a ``Context`` in, ``Block`` sections out) and the
markup helpers every part shares."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass, field
from urllib.parse import quote

from designrl.policies.webpage_template.request import NUMBERS, Request
from designrl.policies.webpage_template.theme import Palette


@dataclass
class Block:
    """One section of the page: its markup, its nav label ('' for none), its script, and
    anything it adds to the page's header (a product page's cart button)."""

    id: str
    label: str
    html: str
    script: str = ""
    header_extra: str = ""


@dataclass
class Context:
    """What every part builder reads: the request, the page's random source, palette and
    brand, and the blocks built so far."""

    request: Request
    rng: random.Random
    palette: Palette
    brand: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def first(self) -> bool:
        """No block yet: this one carries the page's ``h1``."""
        return not self.blocks


def esc(text: str) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def js(value) -> str:
    """``value`` as a JavaScript literal, safe inside a ``<script>``."""
    return json.dumps(value).replace("</", "<\\/")


def cap(text: str) -> str:
    """``text`` with its first letter upper case."""
    return text[:1].upper() + text[1:]


def number_word(n: int) -> str:
    """``n`` as a word where the reader knows one (``five``), else in digits."""
    return next((word for word, value in NUMBERS.items() if value == n), str(n))


def slug(text: str) -> str:
    """``text`` as an id: lower case, dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def heading(ctx: Context, text: str) -> str:
    """The section's heading: the page's ``h1`` in its first section, else an ``h2``."""
    tag = "h1" if ctx.first else "h2"
    return f"<{tag}>{esc(text)}</{tag}>"


def sub_tag(ctx: Context) -> str:
    """The tag for headings inside a section: one level below the section's own."""
    return "h2" if ctx.first else "h3"


def picture(ctx: Context, caption: str, index: int = 0) -> str:
    """An image source: ``rick.jpg`` when the request asks for it, else an inline SVG scene."""
    if ctx.request.uses_rick:
        return "rick.jpg"
    p, rng = ctx.palette, random.Random(f"{caption}|{index}")
    hill = rng.randint(150, 210)
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 400 300'>"
           f"<rect width='400' height='300' fill='{p.soft}'/>"
           f"<circle cx='{rng.randint(60, 340)}' cy='{rng.randint(50, 110)}' r='34' fill='#fff'/>"
           f"<path d='M0 {hill} Q 120 {hill - 70} 220 {hill} T 400 {hill - 20} V300 H0Z' "
           f"fill='{p.primary}' opacity='0.55'/>"
           f"<path d='M0 250 Q 160 {hill + 10} 400 240 V300 H0Z' fill='{p.dark}'/></svg>")
    return "data:image/svg+xml," + quote(svg, safe=" =:/'")
