"""Generated html items (``gen-html``): one seed, one self-contained reference page.

Design2Code's pages are few and cannot ship with the package, so training needs pages
made from a seed. ``generate_item(seed)`` draws, with ``random.Random(seed)`` only:

* a theme (a bakery, a law firm, a hiking club ...) whose real English names,
  headlines, services and sentences fill the text, so block and text metrics see
  words and line lengths like a real site's, never lorem ipsum;
* a design: one palette from a base hue (a primary, its tint, a dark ink, an
  analogous or complementary accent), a font pairing, a base size and modular
  ratio, a container width for a 1280 px viewport, card radius and header style;
* a page: header with logo and nav, then 3 to 6 sections from a set of one- to
  three-column patterns (hero, cards, text beside a picture, article with sidebar,
  feature list, numbers, quote, table, call to action), then a footer.

Pictures are inline SVG or ``data:`` URIs (no network, no files) and there is no
script, so a page renders the same every time and in well under a second. Seeds
below ``TEST_SEED_START`` are the train split, from it the test split.
"""

from __future__ import annotations

import base64
import html
import random

from designrl.tasks.html.site_design import draw_design, stylesheet
from designrl.tasks.html.site_themes import (
    DAYS,
    FIRST_NAMES,
    LAST_NAMES,
    QUOTES,
    STAT_LABELS,
    THEMES,
)
from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.layout.generate import TEST_SEED_START

__all__ = ["TEST_SEED_START", "generate_item", "generate_page"]


def esc(text: str) -> str:
    return html.escape(text, quote=True)


class _Page:
    """The page being written for one seed: its random stream, theme, design and name."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.theme = rng.choice(THEMES)
        self.design = draw_design(rng)
        self.name = f"{rng.choice(self.theme.places)} {rng.choice(self.theme.kinds)}"
        self._decks: dict[str, list[str]] = {}

    def draw(self, pool: tuple[str, ...]) -> str:
        """The next of ``pool`` in a shuffled deck, so a page repeats itself only when a
        pool runs out."""
        deck = self._decks.setdefault(pool[0], [])
        if not deck:
            deck.extend(self.rng.sample(pool, len(pool)))
        return deck.pop()

    def headline(self) -> str:
        return self.draw(self.theme.headlines)

    def paragraph(self, lo: int = 2, hi: int = 3) -> str:
        return " ".join(self.draw(self.theme.sentences) for _ in range(self.rng.randint(lo, hi)))

    def items(self, n: int) -> list[tuple[str, str]]:
        return self.rng.sample(self.theme.items, min(n, len(self.theme.items)))

    def person(self) -> str:
        return f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(LAST_NAMES)}"

    def picture(self, width: int, height: int, label: str) -> str:
        """An abstract illustration: inline ``<svg>`` or an ``<img>`` with a ``data:`` URI."""
        rng, d = self.rng, self.design
        shapes = [f"<rect width='{width}' height='{height}' fill='{d.soft}'/>"]
        for _ in range(rng.randint(2, 4)):
            colour = rng.choice((d.primary, d.accent, d.muted))
            cx, cy = rng.randint(0, width), rng.randint(0, height)
            r = rng.randint(min(width, height) // 8, min(width, height) // 3)
            shape = rng.choice(("circle", "rect"))
            if shape == "circle":
                shapes.append(f"<circle cx='{cx}' cy='{cy}' r='{r}' fill='{colour}' "
                              f"opacity='0.7'/>")
            else:
                shapes.append(f"<rect x='{cx - r}' y='{cy - r // 2}' width='{2 * r}' "
                              f"height='{r}' rx='{r // 6}' fill='{colour}' opacity='0.6'/>")
        body = "".join(shapes)
        if rng.random() < 0.5:
            return (f'<svg class="pic" viewBox="0 0 {width} {height}" width="{width}" '
                    f'height="{height}" role="img" aria-label="{esc(label)}">{body}</svg>')
        svg = (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}'>"
               f"{body}</svg>")
        data = base64.b64encode(svg.encode()).decode()
        return (f'<img class="pic" src="data:image/svg+xml;base64,{data}" width="{width}" '
                f'height="{height}" alt="{esc(label)}">')

    def button(self, text: str, ghost: bool = False) -> str:
        return f'<a class="button{" ghost" if ghost else ""}" href="#">{esc(text)}</a>'


# Sections: each writes one band of the page.


def _hero(page: _Page) -> str:
    rng, t = page.rng, page.theme
    title, text = page.headline(), page.paragraph(1, 2)
    buttons = page.button(t.cta[0]) + (page.button(t.cta[1], ghost=True)
                                       if rng.random() < 0.6 else "")
    if rng.random() < 0.5:
        return f"""
<section class="hero center"><div class="wrap">
  <h1>{esc(title)}</h1><p class="lead">{esc(text)}</p><div class="actions">{buttons}</div>
</div></section>"""
    return f"""
<section class="hero"><div class="wrap cols2">
  <div><p class="eyebrow">{esc(page.name)}</p><h1>{esc(title)}</h1>
    <p class="lead">{esc(text)}</p><div class="actions">{buttons}</div></div>
  <div>{page.picture(560, 400, title)}</div>
</div></section>"""


def _cards(page: _Page) -> str:
    rng = page.rng
    n = rng.choice((2, 3, 3, 4))
    with_pictures = rng.random() < 0.6
    cards = []
    for name, text in page.items(n):
        picture = page.picture(400, 260, name) if with_pictures else ""
        link = f'<a class="more" href="#">Learn more about {esc(name.lower())}</a>' \
            if rng.random() < 0.5 else ""
        cards.append(f'<article class="card">{picture}<div class="card-body">'
                     f'<h3>{esc(name)}</h3><p>{esc(text)}</p>{link}</div></article>')
    title = rng.choice(("What we offer", "Our services", "Highlights", "Popular right now",
                        f"Why choose {page.name}"))
    return f"""
<section class="{rng.choice(('', 'band'))}"><div class="wrap">
  <h2>{esc(title)}</h2><p class="intro">{esc(page.paragraph(1, 1))}</p>
  <div class="grid" style="grid-template-columns:repeat({n},1fr)">{''.join(cards)}</div>
</div></section>"""


def _split(page: _Page) -> str:
    rng = page.rng
    name, text = page.items(1)[0]
    picture = f"<div>{page.picture(520, 380, name)}</div>"
    words = f"""<div><h2>{esc(name)}</h2><p>{esc(text)} {esc(page.paragraph(2, 2))}</p>
    <p>{esc(page.paragraph(1, 2))}</p>{page.button(rng.choice(page.theme.cta), ghost=True)}</div>"""
    pair = (picture + words) if rng.random() < 0.5 else (words + picture)
    return f"""
<section class="{rng.choice(('', 'band'))}"><div class="wrap cols2 middle">{pair}</div></section>"""


def _article(page: _Page) -> str:
    rng, t = page.rng, page.theme
    bullets = "".join(f"<li><strong>{esc(n)}</strong>: {esc(d)}</li>" for n, d in page.items(3))
    links = "".join(f'<li><a href="#">{esc(n)}</a></li>' for n in rng.sample(t.nav, 4))
    sidebar = f"""<aside class="side"><h3>Quick links</h3><ul class="plain">{links}</ul>
    <h3>Opening hours</h3><p>{DAYS[0]} to {DAYS[4]}: 9am to 6pm<br>{DAYS[5]}: 10am to 4pm</p></aside>"""
    main = f"""<div class="article"><p class="eyebrow">{esc(rng.choice(t.nav))}</p>
    <h2>{esc(page.headline())}</h2><p>{esc(page.paragraph(3, 3))}</p>
    <ul>{bullets}</ul><p>{esc(page.paragraph(2, 3))}</p></div>"""
    three = rng.random() < 0.35
    extra = f"""<aside class="side"><h3>From the blog</h3><p>{esc(page.paragraph(1, 2))}</p>
    <a class="more" href="#">Read the latest post</a></aside>""" if three else ""
    layout = "220px 1fr 220px" if three else ("1fr 280px" if rng.random() < 0.5 else "280px 1fr")
    parts = (sidebar + main + extra) if layout.startswith("2") else (main + sidebar)
    return f"""
<section><div class="wrap grid" style="grid-template-columns:{layout}">{parts}</div></section>"""


def _features(page: _Page) -> str:
    rng, d = page.rng, page.design
    cols = rng.choice((2, 3))
    rows = "".join(
        f'<div class="feature"><svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true">'
        f'<circle cx="20" cy="20" r="20" fill="{d.tint}"/><circle cx="20" cy="20" r="8" '
        f'fill="{d.accent}"/></svg><div><h3>{esc(n)}</h3><p>{esc(x)}</p></div></div>'
        for n, x in page.items(cols * 2))
    return f"""
<section class="band"><div class="wrap">
  <h2 class="center">{esc(rng.choice(('How it works', 'Everything included', 'Our approach')))}</h2>
  <div class="grid" style="grid-template-columns:repeat({cols},1fr)">{rows}</div>
</div></section>"""


def _stats(page: _Page) -> str:
    rng = page.rng
    stats = "".join(f'<div class="stat"><p class="number">{rng.randint(lo, hi):,}</p>'
                    f'<p>{esc(label)}</p></div>'
                    for label, lo, hi in rng.sample(STAT_LABELS, rng.choice((3, 4))))
    return f"""
<section class="stats"><div class="wrap grid center" style="grid-auto-flow:column">{stats}</div></section>"""


def _quote(page: _Page) -> str:
    rng = page.rng
    return f"""
<section><div class="wrap narrow center">
  <blockquote><p>&ldquo;{esc(rng.choice(QUOTES))}&rdquo;</p></blockquote>
  <p class="who"><strong>{esc(page.person())}</strong>, customer since {rng.randint(2009, 2023)}</p>
</div></section>"""


def _table(page: _Page) -> str:
    rng = page.rng
    rows = "".join(f"<tr><td>{esc(n)}</td><td>{esc(rng.choice(DAYS))}</td>"
                   f"<td>${rng.randint(8, 240)}</td></tr>" for n, _ in page.items(4))
    return f"""
<section><div class="wrap narrow">
  <h2>{esc(rng.choice(('Prices', 'This week', 'Timetable')))}</h2>
  <table><thead><tr><th>Item</th><th>Next available</th><th>From</th></tr></thead>
  <tbody>{rows}</tbody></table>
  <p class="note">{esc(page.paragraph(1, 1))}</p>
</div></section>"""


def _cta(page: _Page) -> str:
    rng, t = page.rng, page.theme
    return f"""
<section class="cta"><div class="wrap center">
  <h2>{esc(page.headline())}</h2><p>{esc(page.paragraph(1, 1))}</p>
  {page.button(rng.choice(t.cta))}
</div></section>"""


BODY_SECTIONS = (_cards, _split, _article, _features, _stats, _quote, _table)


def _header(page: _Page, cta: bool) -> str:
    rng, d, t = page.rng, page.design, page.theme
    links = "".join(f'<a href="#">{esc(n)}</a>' for n in t.nav[:rng.randint(3, 6)])
    cta = page.button(t.cta[0]) if cta else ""
    mark = (f'<svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">'
            f'<rect width="32" height="32" rx="{min(d.radius, 16)}" fill="{d.accent}"/>'
            f'<path d="M8 22 L16 9 L24 22 Z" fill="#ffffff"/></svg>')
    return f"""
<header class="top {d.header}"><div class="wrap bar">
  <a class="logo" href="#">{mark}<span>{esc(page.name)}</span></a>
  <nav>{links}</nav>{cta}
</div></header>"""


def _footer(page: _Page) -> str:
    rng, t = page.rng, page.theme
    n = rng.randint(1, 3)
    heads = ("Visit", "Company", "Help", "Follow")
    cols = []
    for i in range(n):
        links = "".join(f"<li><a href='#'>{esc(x)}</a></li>" for x in rng.sample(t.nav, 3))
        cols.append(f"<div><h4>{heads[i]}</h4><ul class='plain'>{links}</ul></div>")
    address = f"{rng.randint(2, 180)} {rng.choice(('High Street', 'Mill Lane', 'Market Square', 'Park Road'))}"
    return f"""
<footer><div class="wrap grid" style="grid-template-columns:2fr{' 1fr' * n}">
  <div><p class="logo-text">{esc(page.name)}</p><p>{esc(address)}<br>
    hello@{page.name.lower().replace(' ', '').replace('&', 'and')}.example</p></div>
  {''.join(cols)}
</div><div class="wrap legal">&copy; {rng.randint(2019, 2025)} {esc(page.name)}. All rights reserved.</div></footer>"""


def generate_page(seed: int) -> str:
    """The page for ``seed``: a complete HTML document."""
    page = _Page(seed)
    rng = page.rng
    sections = [_hero(page)] if rng.random() < 0.85 else []
    body = rng.sample(BODY_SECTIONS, rng.randint(2, 4))
    if body[0] in (_stats, _quote) and not sections:  # a page opens with words, not numbers
        body.reverse()
    sections += [section(page) for section in body]
    if rng.random() < 0.5:
        sections.append(_cta(page))
    title = f"{page.name} | {rng.choice(page.theme.headlines)}"
    header = _header(page, cta=rng.random() < 0.5 or 'class="button' not in "".join(sections))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<style>{stylesheet(page.design)}</style>
</head>
<body>{header}
<main>{''.join(sections)}
</main>{_footer(page)}
</body>
</html>
"""


def generate_item(seed: int) -> HtmlItem:
    """The ``gen-html`` item for ``seed`` (deterministic: the same seed, the same page)."""
    return HtmlItem(f"gen-html-{seed}", generate_page(seed))
