"""The webpage family's model-free ``template`` policy: a page built from the request.

``build_page(item, seed)`` answers a webpage request the way a model should, as one
```html fence holding a complete, self-contained document (inline CSS and script,
pictures as inline SVG or the ``rick.jpg`` the prompt allows, no other URL). It is
the family's SFT teacher, so it has to read the request rather than return one
generic page:

* ``read_request`` is a small keyword reader: the brand and button labels in quotes,
  the subject (``for an online bookshop``), counts (``six questions``), name lists
  (``(Free, Pro, Team)``, ``All / Active / Done``, ``tabs for A, B and C``), the
  toggle pairs (``Celsius/Fahrenheit``) and which parts the request names (hero,
  features, pricing, to-do, form, gallery, calculator, FAQ, weather, chart,
  product, tabs, table, quiz), in the order it names them;
* each part is a ``Block`` (its section, its nav label, its script) written in one
  house style: semantic landmarks, a label on every field, WCAG AA contrast,
  44 px targets, one type scale (14 / 16 / 20 / 28 / 40 px) and spacing rhythm,
  and one palette (a single hue on white) picked by ``seed``;
* every control changes the page when used (``interact.py`` clicks, fills and
  submits each kind): buttons reveal, filter, switch or count; forms validate and
  confirm; nav links go to sections of the page.

``seed`` varies the palette, the font pairing and the made-up details (brand,
city, weather); the same (item, seed) always gives the same page.
"""

from __future__ import annotations

import html
import json
import random
import re
import zlib
from dataclasses import dataclass, field

from designrl.tasks.webpage.spec import WebpageItem

# Reading the request.

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
        return _split_names(match.group(1)) if match else ()


def _split_names(text: str) -> tuple[str, ...]:
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
    lists = tuple(_split_names(m.group(1)) for m in re.finditer(r"\(([^)]{3,120})\)", text))
    lists += tuple(_split_names(m.group(0)) for m in re.finditer(
        r"\b[A-Z]\w+(?:\s*/\s*[A-Z]\w+){2,}", text))
    toggles = tuple((a, b) for a, b in re.findall(r"\b(\w+)/(\w+)\s+(?:toggle|switch)", text))
    found_parts = []
    for name, pattern in PART_PATTERNS.items():
        match = re.search(pattern, lower)
        if match:
            found_parts.append((match.start(), name))
    names = [name for _, name in sorted(found_parts)]
    if "contact" in names and "hero" in names and not re.search(r"\bcontact\b", lower):
        names.remove("contact")  # "a button that reveals a sign-up form": the hero's form
    names = [n for n in names if not any(owner in names for owner in ABSORBED.get(n, ()))]
    if not names:
        names = ["hero", "features", "contact"]
    return Request(text=text, brand=brand, descriptor=descriptor, subject=subject,
                   topic=_topic(lower), parts=tuple(names), labels=tuple(labels), lists=lists,
                   toggles=toggles, wants_nav=bool(re.search(r"\bnav(igation)?\b", lower)),
                   uses_rick="rick.jpg" in lower)


def _topic(lower: str) -> str:
    for topic, words in TOPIC_WORDS:
        if any(re.search(r"\b" + w, lower) for w in words):
            return topic
    return "general"


# Content the reader can draw on: a few topics, and a general fallback.

TOPIC_WORDS = (
    ("study", ("note", "student", "study", "class", "course")),
    ("books", ("book", "library", "reading")),
    ("shoes", ("shoe", "sneaker", "running")),
    ("space", ("solar system", "planet", "space", "astronom")),
    ("food", ("recipe", "restaurant", "cafe", "coffee", "food")),
    ("photo", ("gallery", "photo", "picture", "image")),
)

FEATURES = {
    "study": [("Organised by course", "Every note lands in the right class folder, so revision "
               "starts with everything in one place."),
              ("Search that finds it", "Type a word you remember and jump straight to the page, "
               "lecture slide or scribble that mentions it."),
              ("Ready for exams", "Turn highlights into flashcards and track what you have "
               "reviewed before the big day.")],
    "books": [("Hand-picked shelves", "Booksellers choose new titles every week, with notes on "
               "why each one is worth your time."),
              ("Fast, free delivery", "Orders over $25 ship free and arrive in two to four "
               "working days."),
              ("Easy returns", "Changed your mind? Send any book back within 30 days.")],
    "general": [("Quick to start", "Set up in a minute with sensible defaults you can change "
                 "whenever you like."),
                ("Works everywhere", "Your work syncs between phone, tablet and laptop, online "
                 "or off."),
                ("Private by design", "Your data stays yours: no ads, no tracking, export any "
                 "time.")],
}

FAQS = {
    "books": [
        ("How long does delivery take?", "Most orders arrive in two to four working days. "
         "You get a tracking link as soon as your books leave our shop."),
        ("Do you ship internationally?", "Yes, we ship to over 40 countries. Shipping costs "
         "are shown at checkout before you pay."),
        ("Can I return a book?", "You can return any book in its original condition within "
         "30 days for a full refund."),
        ("Do you sell e-books and audiobooks?", "Yes. Digital titles are delivered to your "
         "account straight after purchase and can be read in our app."),
        ("Do you offer gift cards?", "Gift cards from $10 to $200 are sent by email and never "
         "expire."),
        ("Can I order a book that is out of stock?", "Press Notify me on the book's page and "
         "we will email you when it is back, or order it and we will ship it when it arrives."),
    ],
    "general": [
        ("How do I create an account?", "Press Sign up, enter your email and choose a "
         "password. It takes less than a minute."),
        ("Is there a free plan?", "Yes, the free plan covers everything you need to get "
         "started, with no time limit."),
        ("How can I contact support?", "Write to us from the Help page and we will reply "
         "within one working day."),
        ("Can I cancel at any time?", "Yes. You can cancel from your account settings and keep "
         "access until the end of the billing period."),
        ("Is my data safe?", "Your data is encrypted in transit and at rest, and you can "
         "export or delete it whenever you like."),
        ("Do you offer discounts?", "Students, teachers and non-profits get 30% off any paid "
         "plan."),
    ],
}

QUIZZES = {
    "space": [
        ("Which planet is closest to the Sun?", ["Venus", "Mercury", "Mars", "Earth"], 1,
         "Mercury orbits the Sun at about 58 million km."),
        ("Which is the largest planet in the solar system?", ["Saturn", "Neptune", "Jupiter",
                                                              "Uranus"], 2,
         "Jupiter is more than twice as massive as all the other planets combined."),
        ("Which planet is known as the Red Planet?", ["Mars", "Venus", "Mercury", "Jupiter"], 0,
         "Iron oxide dust gives Mars its red colour."),
        ("How many planets orbit the Sun?", ["Seven", "Nine", "Ten", "Eight"], 3,
         "Since 2006 there are eight planets; Pluto is a dwarf planet."),
        ("Which planet has the most famous ring system?", ["Uranus", "Saturn", "Neptune",
                                                           "Mars"], 1,
         "Saturn's rings are made of ice and rock and are easy to see through a telescope."),
        ("What is at the centre of the solar system?", ["The Moon", "Earth", "The Sun",
                                                        "Jupiter"], 2,
         "Every planet orbits the Sun, which holds 99.8% of the system's mass."),
    ],
    "general": [
        ("What is the capital of France?", ["Lyon", "Paris", "Nice", "Lille"], 1,
         "Paris has been France's capital for most of the last thousand years."),
        ("How many continents are there?", ["Five", "Six", "Seven", "Eight"], 2,
         "Africa, Antarctica, Asia, Australia, Europe, North and South America."),
        ("Which gas do plants take in?", ["Oxygen", "Carbon dioxide", "Nitrogen", "Helium"], 1,
         "Plants use carbon dioxide and sunlight to make sugar."),
        ("What is the largest ocean?", ["Atlantic", "Indian", "Arctic", "Pacific"], 3,
         "The Pacific covers about a third of Earth's surface."),
        ("How many days are in a leap year?", ["364", "365", "366", "367"], 2,
         "February gets a 29th day every four years."),
        ("Which is the longest river?", ["Nile", "Danube", "Thames", "Seine"], 0,
         "The Nile runs about 6,650 km through eleven countries."),
    ],
}

BRAND_PARTS = (("North", "Bright", "Clear", "Maple", "River", "Summit", "Lumen", "Harbor"),
               ("wind", "path", "field", "stone", "light", "line", "leaf", "way"))
CITIES = ("Lisbon", "Porto", "Bergen", "Galway", "Valencia", "Hobart", "Wellington", "Halifax")

# Palettes: one hue on white. ``primary`` carries white text at >= 4.5:1; ``tint`` and
# ``soft`` are pale enough to count as neutral beside it.


@dataclass(frozen=True)
class Palette:
    name: str
    primary: str
    dark: str
    tint: str
    soft: str


PALETTES = (
    Palette("teal", "#0f766e", "#115e59", "#f0fdfa", "#ccfbf1"),
    Palette("indigo", "#4338ca", "#3730a3", "#eef2ff", "#e0e7ff"),
    Palette("blue", "#1d4ed8", "#1e40af", "#eff6ff", "#dbeafe"),
    Palette("green", "#15803d", "#166534", "#f0fdf4", "#dcfce7"),
    Palette("rose", "#be123c", "#9f1239", "#fff1f2", "#ffe4e6"),
    Palette("violet", "#6d28d9", "#5b21b6", "#f5f3ff", "#ede9fe"),
    Palette("amber", "#b45309", "#92400e", "#fffbeb", "#fef3c7"),
)
SANS = "system-ui, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
FONTS = ((SANS, SANS),  # (body, headings)
         ("'Liberation Sans', Arial, sans-serif", "Georgia, 'DejaVu Serif', serif"))


@dataclass
class Block:
    """One section of the page: its markup, its nav label ('' for none) and its script."""

    id: str
    label: str
    html: str
    script: str = ""
    header_extra: str = ""


@dataclass
class Context:
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
    return html.escape(str(text), quote=True)


def _js(value) -> str:
    return json.dumps(value).replace("</", "<\\/")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _number(n: int) -> str:
    return next((word for word, value in NUMBERS.items() if value == n), str(n))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


def _heading(ctx: Context, text: str, attrs: str = "") -> str:
    tag = "h1" if ctx.first else "h2"
    return f"<{tag}{attrs}>{esc(text)}</{tag}>"


def _sub(ctx: Context) -> str:
    """The tag for headings inside a section: one level below the section's own."""
    return "h2" if ctx.first else "h3"


def _picture(ctx: Context, caption: str, index: int = 0) -> str:
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
    from urllib.parse import quote
    return "data:image/svg+xml," + quote(svg, safe=" =:/'")


ICON = ("<svg class='icon' viewBox='0 0 24 24' aria-hidden='true' focusable='false'>"
        "<circle cx='12' cy='12' r='11' fill='var(--soft)'/>"
        "<path d='M7 12.5l3.2 3.2L17 9' fill='none' stroke='var(--primary)' stroke-width='2.4' "
        "stroke-linecap='round' stroke-linejoin='round'/></svg>")


# The parts.


def hero(ctx: Context) -> Block:
    req, brand = ctx.request, ctx.brand
    what = re.sub(r"^(an?|the)\s+", "", req.descriptor) or req.subject or "app"
    audience = ""
    split = re.match(r"(.+?)\s+for\s+(.+)$", what)
    if split:
        what, audience = split.groups()
    headline = (f"The {what} built for {audience}" if audience
                else f"{brand}: the {what} that keeps up with you")
    pitch = (f"{brand} keeps everything in one calm place, so you spend less time organising "
             f"and more time on what matters. Free to start, ready in a minute.")
    cta = req.label(r"start|sign|join|try|begin", "Get started")
    reveals = req.has(r"reveal|sign-?up|register|form")
    form = ""
    script = ""
    if reveals:
        form = f"""
    <form id="signup" class="card signup" hidden novalidate aria-labelledby="signup-title">
      <h2 id="signup-title">Create your free {esc(brand)} account</h2>
      <div class="row2">
        <div class="field"><label for="su-name">Full name</label>
          <input id="su-name" name="name" autocomplete="name" required></div>
        <div class="field"><label for="su-email">Email</label>
          <input id="su-email" name="email" type="email" autocomplete="email" required></div>
      </div>
      <p class="error" id="su-error"></p>
      <button class="btn" type="submit">Create account</button>
    </form>
    <div id="signup-done" class="card done" role="status" hidden></div>"""
        script = """(() => {
  const open = document.getElementById('cta'), form = document.getElementById('signup');
  const done = document.getElementById('signup-done'), error = document.getElementById('su-error');
  open.addEventListener('click', () => {
    const show = form.hidden && done.hidden;
    form.hidden = !show;
    open.setAttribute('aria-expanded', String(show));
    open.textContent = show ? 'Hide sign-up' : OPEN_LABEL;
    if (show) form.querySelector('input').focus();
  });
  form.addEventListener('submit', event => {
    event.preventDefault();
    const name = form.elements.name.value.trim(), email = form.elements.email.value.trim();
    if (!name || !/^\\S+@\\S+\\.\\S+$/.test(email)) {
      error.textContent = 'Please enter your name and a valid email address.';
      return;
    }
    form.hidden = true;
    done.hidden = false;
    done.textContent = 'Welcome aboard, ' + name + '! We sent a confirmation link to ' + email + '.';
  });
})();""".replace("OPEN_LABEL", _js(cta))
        button = (f'<button id="cta" class="btn" type="button" aria-expanded="false" '
                  f'aria-controls="signup">{esc(cta)}</button>')
    else:
        button = f'<a id="cta" class="btn" href="#{{next}}">{esc(cta)}</a>'
    eyebrow = _cap(req.descriptor or f"Meet {brand}")
    body = f"""
<section id="home" class="hero">
  <div class="wrap narrow center">
    <p class="eyebrow">{esc(eyebrow)}</p>
    {_heading(ctx, headline)}
    <p class="lead">{esc(pitch)}</p>
    <div class="actions">{button}</div>{form}
  </div>
</section>"""
    return Block("home", "Home", body, script)


def features(ctx: Context) -> Block:
    req = ctx.request
    items = FEATURES.get(req.topic, FEATURES["general"])
    n = req.count("column", req.count("features?", 3))
    h = _sub(ctx)
    cards = "".join(f"""
      <article class="card feature">{ICON}<{h} class="h3">{esc(title)}</{h}><p>{esc(text)}</p>
      </article>"""
                    for title, text in (items * 2)[:n])
    audience = re.search(r"\bfor\s+([a-z]+)\s*$", req.descriptor)
    title = (f"Why {audience.group(1)} choose {ctx.brand}" if audience
             else f"Everything you need in {ctx.brand}")
    body = f"""
<section id="features" class="band">
  <div class="wrap">
    <div class="center head">{_heading(ctx, title)}
      <p class="lead">Simple tools that stay out of your way.</p></div>
    <div class="grid" style="--cols:{min(n, 4)}">{cards}
    </div>
  </div>
</section>"""
    return Block("features", "Features", body)


def pricing(ctx: Context) -> Block:
    req = ctx.request
    inline = re.search(r"([A-Z]\w*(?:,\s*[A-Z]\w*)*,?\s+(?:and|or)\s+[A-Z]\w*)\s+(?:plans|tiers)",
                       req.text)
    lists = req.lists + ((_split_names(inline.group(1)),) if inline else ())
    names = next((names for names in lists if 2 <= len(names) <= 4
                  and all(n[:1].isupper() for n in names)), ())
    n = len(names) or req.count("plans?", 3)
    names = names or ("Starter", "Pro", "Team", "Enterprise")[:n]
    prices = [0, 12, 29, 59] if names[0].lower() == "free" else [9, 19, 39, 79]
    perks = [["Up to 3 projects", "1 GB of storage", "Community support"],
             ["Unlimited projects", "50 GB of storage", "Email support"],
             ["Everything in Pro", "Shared workspaces", "Priority support"],
             ["Everything in Team", "Single sign-on", "A dedicated manager"]]
    period = next((t for t in req.toggles if "month" in t[0].lower()), ("Monthly", "Yearly"))
    cards, h = [], _sub(ctx)
    for i, name in enumerate(names):
        badge = '<p class="badge">Most popular</p>' if i == 1 else ""
        items = "".join(f"<li>{esc(p)}</li>" for p in perks[i % 4])
        cards.append(f"""
      <article class="card plan{' featured' if i == 1 else ''}" aria-labelledby="plan-{i}">
        {badge}<{h} class="h3" id="plan-{i}">{esc(name)}</{h}>
        <p class="price" data-month="{prices[i]}"><strong>${prices[i]}</strong>
          <span class="per">/ month</span></p>
        <ul class="ticks">{items}</ul>
        <button class="btn ghost choose" type="button" aria-pressed="false"
          data-plan="{esc(name)}">Choose {esc(name)}</button>
      </article>""")
    title = f"Plans for every {ctx.brand} user" if req.brand else "Simple, honest pricing"
    body = f"""
<section id="pricing">
  <div class="wrap">
    <div class="center head">{_heading(ctx, title)}
      <p class="lead">{"Start free and upgrade" if prices[0] == 0 else "Start small and grow"}
        when you need more. Cancel any time.</p>
      <div class="segmented" role="group" aria-label="Billing period">
        <button type="button" class="seg" data-period="month" aria-pressed="true">{esc(_cap(period[0]))}</button>
        <button type="button" class="seg" data-period="year" aria-pressed="false">{esc(_cap(period[1]))} (2 months free)</button>
      </div>
    </div>
    <div class="grid" style="--cols:{len(names)}">{''.join(cards)}
    </div>
    <p id="plan-status" class="status center" role="status">Pick the plan that fits you.</p>
  </div>
</section>"""
    script = """(() => {
  let period = 'month', chosen = null;
  const status = document.getElementById('plan-status');
  const render = () => document.querySelectorAll('.price').forEach(price => {
    const monthly = Number(price.dataset.month);
    const value = period === 'month' ? monthly : monthly * 10;
    price.querySelector('strong').textContent = '$' + value;
    price.querySelector('.per').textContent = '/ ' + period;
  });
  const describe = () => {
    if (!chosen) return;
    const price = chosen.closest('.plan').querySelector('strong').textContent;
    status.textContent = 'You chose the ' + chosen.dataset.plan + ' plan: ' + price + ' per ' +
      period + '. Nice pick!';
  };
  document.querySelectorAll('[data-period]').forEach(button => button.addEventListener('click', () => {
    period = button.dataset.period;
    document.querySelectorAll('[data-period]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
    if (chosen) describe(); else status.textContent = 'Showing ' + period + 'ly prices.';
  }));
  document.querySelectorAll('.choose').forEach(button => button.addEventListener('click', () => {
    chosen = button;
    document.querySelectorAll('.choose').forEach(b => {
      const on = b === button;
      b.setAttribute('aria-pressed', String(on));
      b.textContent = on ? 'Selected' : 'Choose ' + b.dataset.plan;
      b.closest('.plan').classList.toggle('chosen', on);
    });
    describe();
  }));
})();"""
    return Block("pricing", "Pricing", body, script)


def todo(ctx: Context) -> Block:
    req = ctx.request
    filters = next((names for names in req.lists if len(names) >= 2
                    and names[0].lower() == "all"), ("All", "Active", "Done"))
    start = [("Read chapter 4 for Monday", True), ("Buy groceries for the week", False),
             ("Call the dentist", False)]
    buttons = "".join(
        f'<button type="button" class="seg" data-filter="{i}" aria-pressed="{str(i == 0).lower()}">'
        f'{esc(name)}</button>' for i, name in enumerate(filters[:3]))
    body = f"""
<section id="tasks">
  <div class="wrap narrow">
    <div class="center head">{_heading(ctx, "To-do list")}
      <p class="lead">Add what you need to do, tick it off when it is done.</p></div>
    <div class="card app">
      <form id="todo-form" class="add" autocomplete="off">
        <label for="todo-input">New task</label>
        <div class="inline">
          <input id="todo-input" name="task" placeholder="e.g. Water the plants" maxlength="80">
          <button class="btn" type="submit">{esc(req.label(r"^add", "Add"))}</button>
        </div>
        <p class="error" id="todo-error"></p>
      </form>
      <div class="toolbar">
        <p id="todo-count" class="count" aria-live="polite"></p>
        <div class="segmented" role="group" aria-label="Show tasks">{buttons}</div>
      </div>
      <ul id="todo-list" class="todo-list"></ul>
      <p id="todo-empty" class="empty" hidden>Nothing to show here.</p>
    </div>
  </div>
</section>"""
    script = """(() => {
  let tasks = START.map(([text, done], id) => ({id, text, done})), next = tasks.length, view = 0;
  const list = document.getElementById('todo-list'), count = document.getElementById('todo-count');
  const empty = document.getElementById('todo-empty'), form = document.getElementById('todo-form');
  const input = document.getElementById('todo-input'), error = document.getElementById('todo-error');
  const shown = t => view === 0 || (view === 1 ? !t.done : t.done);
  const render = () => {
    list.replaceChildren();
    for (const task of tasks.filter(shown)) {
      const li = document.createElement('li');
      li.className = task.done ? 'done' : '';
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = task.done;
      box.addEventListener('change', () => { task.done = box.checked; render(); });
      const span = document.createElement('span');
      span.textContent = task.text;
      label.append(box, span);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'link-btn';
      remove.textContent = 'Delete';
      remove.setAttribute('aria-label', 'Delete ' + task.text);
      remove.addEventListener('click', () => { tasks = tasks.filter(t => t !== task); render(); });
      li.append(label, remove);
      list.append(li);
    }
    const left = tasks.filter(t => !t.done).length;
    count.textContent = left + (left === 1 ? ' item' : ' items') + ' left';
    empty.hidden = list.children.length > 0;
  };
  form.addEventListener('submit', event => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) { error.textContent = 'Type a task first.'; return; }
    error.textContent = '';
    tasks.push({id: next++, text, done: false});
    input.value = '';
    render();
  });
  document.querySelectorAll('[data-filter]').forEach(button => button.addEventListener('click', () => {
    view = Number(button.dataset.filter);
    document.querySelectorAll('[data-filter]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  render();
})();""".replace("START", _js(start))
    return Block("tasks", "Tasks", body, script)


FIELD_TYPES = (("mail", "email"), ("password", "password"), ("phone", "tel"), ("tel", "tel"), ("message", "textarea"),
               ("comment", "textarea"), ("select", "select"), ("topic", "select"),
               ("subject", "select"), ("date", "date"))


def _fields(req: Request) -> list[tuple[str, str, str]]:
    """(name, label, type) of the form fields the request lists, else name/email/message."""
    inline = re.search(r"\bwith\s+((?:an?\s+)?[\w -]+(?:,\s*[\w -]+)*\s+and\s+[\w -]+?)\s+fields",
                       req.text)
    lists = req.lists + ((_split_names(re.sub(r"\ban?\s+", "", inline.group(1))),)
                         if inline else ())
    listed = next((names for names in lists if len(names) >= 2 and any(
        re.search(r"name|mail|message", n, re.I) for n in names)), ("name", "email", "message"))
    out = []
    for raw in listed:
        kind = next((t for word, t in FIELD_TYPES if word in raw.lower()), "text")
        label = re.sub(r"\s*\b(select|field|input|dropdown|box)\b", "", raw, flags=re.I).strip()
        out.append((_slug(label), _cap(label), kind))
    return out


def contact(ctx: Context) -> Block:
    """A contact form, or a sign-up form when the request asks for one."""
    req = ctx.request
    signup = req.has(r"sign-?up|register|create an account|join")
    topics = {"books": ["An order", "Delivery", "Returns", "Book recommendations"],
              "shoes": ["An order", "Sizing", "Returns", "Something else"]}.get(
        req.topic, ["A general question", "Support", "Billing", "Feedback"])
    rows, h = [], _sub(ctx)
    for name, label, kind in _fields(req):
        fid = f"f-{name}"
        common = (f'id="{fid}" name="{name}" required aria-describedby="{fid}-error"')
        if kind == "textarea":
            control = f'<textarea {common} rows="5"></textarea>'
        elif kind == "select":
            options = "".join(f"<option>{esc(t)}</option>" for t in topics)
            control = (f'<select {common}><option value="">Choose a {esc(label.lower())}</option>'
                       f"{options}</select>")
        else:
            auto = {"name": ' autocomplete="name"', "email": ' autocomplete="email"',
                    "password": ' autocomplete="new-password" minlength="8"'}.get(name, "")
            control = f'<input {common} type="{kind}"{auto}>'
        rows.append(f"""
          <div class="field"><label for="{fid}">{esc(label)}</label>{control}
            <p class="error" id="{fid}-error"></p></div>""")
    about = f" about {req.subject}" if req.subject else ""
    if signup:
        title, lead = f"Join {ctx.brand}", "Create your free account in under a minute."
        submit, thanks = "Create account", "Your account is ready. Welcome aboard!"
        aside = ("Why join?", [("Free forever", "The basics cost nothing, for as long as you "
                                "like."), ("No spam", "We email you only when it matters."),
                               ("Leave any time", "Delete your account in two clicks.")])
    else:
        title = "Get in touch"
        lead = (f"Questions{about}? Send us a message and we will reply within one working "
                f"day.")
        submit, thanks = "Send message", ("Thanks for writing to us. We will get back to you "
                                          "within one working day.")
        aside = ("Other ways to reach us", [
            ("Email", f"hello@{_slug(ctx.brand)}.example"),
            ("Phone", "+1 555 0134 (9am to 5pm)"), ("Office", "12 Harbour Street, Springfield")])
    facts = "".join(f"<p><strong>{esc(k)}</strong><br>{esc(v)}</p>" for k, v in aside[1])
    body = f"""
<section id="contact">
  <div class="wrap">
    <div class="center head">{_heading(ctx, title)}
      <p class="lead">{esc(lead)}</p></div>
    <div class="split">
      <div>
        <form id="contact-form" class="card" novalidate aria-label="{esc(title)}">{''.join(rows)}
          <button class="btn" type="submit">{esc(submit)}</button>
          <p class="small">What you type stays in this page: nothing is sent anywhere.</p>
        </form>
        <div id="contact-done" class="card done" role="status" tabindex="-1" hidden></div>
      </div>
      <aside class="card info" aria-labelledby="reach">
        <{h} class="h3" id="reach">{esc(aside[0])}</{h}>{facts}
      </aside>
    </div>
  </div>
</section>"""
    script = """(() => {
  const form = document.getElementById('contact-form'), done = document.getElementById('contact-done');
  const check = field => {
    const value = field.value.trim();
    if (!value) return (field.labels[0] ? field.labels[0].textContent : 'This field') + ' is required.';
    if (field.type === 'email' && !/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/.test(value))
      return 'Enter an email address like name@example.com.';
    if (field.type === 'password' && value.length < 8) return 'Use at least 8 characters.';
    return '';
  };
  const show = field => {
    const message = check(field);
    document.getElementById(field.id + '-error').textContent = message;
    field.setAttribute('aria-invalid', String(Boolean(message)));
    return !message;
  };
  for (const field of form.querySelectorAll('input, select, textarea'))
    field.addEventListener('blur', () => { if (field.value) show(field); });
  form.addEventListener('submit', event => {
    event.preventDefault();
    const fields = Array.from(form.querySelectorAll('input, select, textarea'));
    const bad = fields.filter(f => !show(f));
    if (bad.length) { bad[0].focus(); return; }
    const name = form.elements.name ? form.elements.name.value.trim() : '';
    done.innerHTML = '<SUB class="h3"></SUB><p></p>';
    done.querySelector('p').textContent = THANKS;
    done.querySelector('.h3').textContent = 'Thank you' + (name ? ', ' + name : '') + '!';
    form.hidden = true;
    done.hidden = false;
    done.focus();
  });
})();""".replace("SUB", h).replace("THANKS", _js(thanks))
    return Block("contact", "Sign up" if signup else "Contact", body, script)


def gallery(ctx: Context) -> Block:
    req = ctx.request
    n = req.count("(?:pictures|images|photos)", 8)
    cats = ("Nature", "City", "People")
    captions = ("Morning mist over the lake", "Harbour lights at dusk", "Market day in the old town",
                "Pine forest after rain", "Rooftops from the bell tower", "Friends on the pier",
                "Wildflowers in June", "Cyclists crossing the bridge", "A quiet reading corner",
                "Waves at the north beach", "Street musician at noon", "Snow on the ridge")
    kinds = (0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 2, 0)
    shots = []
    data = []
    for i in range(n):
        caption, cat = captions[i % 12], cats[kinds[i % 12]]
        src = _picture(ctx, caption, i)
        data.append({"src": src, "caption": caption, "cat": cat})
        shots.append(f"""
      <figure class="shot" data-cat="{cat}">
        <button type="button" class="shot-open" data-index="{i}" aria-label="Open {esc(caption)}">
          <img src="{esc(src)}" alt="{esc(caption)}" width="400" height="300"></button>
        <figcaption>{esc(caption)}<span class="tag">{cat}</span></figcaption>
      </figure>""")
    filters = "".join(f'<button type="button" class="seg" data-cat="{c}" aria-pressed="'
                      f'{str(c == "All").lower()}">{c}</button>' for c in ("All", *cats))
    body = f"""
<section id="gallery">
  <div class="wrap">
    <div class="center head">{_heading(ctx, "Gallery")}
      <p class="lead">A small collection of favourite shots. Choose a picture to see it larger.</p>
      <div class="segmented" role="group" aria-label="Filter by category">{filters}</div>
      <p id="gallery-status" class="small" aria-live="polite">Showing all {n} pictures</p>
    </div>
    <div class="grid shots" style="--cols:4">{''.join(shots)}
    </div>
  </div>
  <div id="lightbox" class="lightbox" role="dialog" aria-modal="true" aria-labelledby="lb-caption" hidden>
    <div class="lb-panel">
      <img id="lb-img" src="{esc(data[0]['src'])}" alt="">
      <p id="lb-caption" class="lb-caption"></p>
      <div class="lb-controls">
        <button type="button" class="btn ghost" id="lb-prev">Previous</button>
        <button type="button" class="btn" id="lb-close">Close</button>
        <button type="button" class="btn ghost" id="lb-next">Next</button>
      </div>
    </div>
  </div>
</section>"""
    script = """(() => {
  const shots = SHOTS, box = document.getElementById('lightbox');
  const img = document.getElementById('lb-img'), caption = document.getElementById('lb-caption');
  const status = document.getElementById('gallery-status');
  let current = 0, opener = null;
  const visible = () => shots.map((s, i) => i).filter(
    i => !document.querySelectorAll('.shot')[i].hidden);
  const show = index => {
    current = index;
    img.src = shots[index].src;
    img.alt = shots[index].caption;
    caption.textContent = shots[index].caption + ' (' + shots[index].cat + ', ' + (index + 1) +
      ' of ' + shots.length + ')';
  };
  const step = delta => {
    const order = visible(), at = order.indexOf(current);
    show(order[(at + delta + order.length) % order.length]);
  };
  const close = () => { box.hidden = true; if (opener) opener.focus(); };
  document.querySelectorAll('.shot-open').forEach(button => button.addEventListener('click', () => {
    opener = button;
    show(Number(button.dataset.index));
    box.hidden = false;
    document.getElementById('lb-close').focus();
  }));
  document.getElementById('lb-prev').addEventListener('click', () => step(-1));
  document.getElementById('lb-next').addEventListener('click', () => step(1));
  document.getElementById('lb-close').addEventListener('click', close);
  box.addEventListener('click', event => { if (event.target === box) close(); });
  document.addEventListener('keydown', event => {
    if (box.hidden) return;
    if (event.key === 'Escape') close();
    if (event.key === 'ArrowLeft') step(-1);
    if (event.key === 'ArrowRight') step(1);
  });
  document.querySelectorAll('.segmented [data-cat]').forEach(button => button.addEventListener('click', () => {
    const cat = button.dataset.cat;
    document.querySelectorAll('.segmented [data-cat]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    let count = 0;
    document.querySelectorAll('.shot').forEach(shot => {
      shot.hidden = cat !== 'All' && shot.dataset.cat !== cat;
      count += shot.hidden ? 0 : 1;
    });
    status.textContent = cat === 'All' ? 'Showing all ' + count + ' pictures'
      : 'Showing ' + count + ' ' + cat.toLowerCase() + ' pictures';
  }));
})();""".replace("SHOTS", _js(data))
    return Block("gallery", "Gallery", body, script)


def calculator(ctx: Context) -> Block:
    keys = [("C", "clear", "Clear"), ("÷", "/", "Divide"), ("×", "*", "Multiply"),
            ("−", "-", "Subtract"), ("7", "7", ""), ("8", "8", ""), ("9", "9", ""),
            ("+", "+", "Add"), ("4", "4", ""), ("5", "5", ""), ("6", "6", ""),
            ("1", "1", ""), ("2", "2", ""), ("3", "3", ""), ("=", "=", "Equals"),
            ("0", "0", ""), (".", ".", "Decimal point")]
    cells = []
    for face, key, name in keys:
        kind = "op" if key in "/*-+" else ("eq" if key == "=" else
                                          ("fn" if key == "clear" else "num"))
        area = {"+": "plus", "=": "eq", "0": "zero"}.get(key, "")
        style = f' style="grid-area:{area}"' if area else ""
        label = f' aria-label="{name}"' if name else ""
        cells.append(f'<button type="button" class="key {kind}" data-key="{esc(key)}"'
                     f'{label}{style}>{face}</button>')
    body = f"""
<section id="calculator">
  <div class="wrap narrow center">
    {_heading(ctx, "Calculator")}
    <p class="lead">Chain as many operations as you like; each one applies to the running total.</p>
    <div class="calc card" role="group" aria-label="Calculator">
      <div class="display">
        <p id="calc-expr" class="expr" aria-hidden="true">Ready</p>
        <p id="calc-out" class="out" role="status" aria-live="polite">0</p>
      </div>
      <div class="keys">{''.join(cells)}</div>
    </div>
    <p class="small">Keyboard works too: digits, + − × ÷, Enter for equals, Escape to clear.</p>
  </div>
</section>"""
    script = """(() => {
  const out = document.getElementById('calc-out'), expr = document.getElementById('calc-expr');
  const SYM = {'/': '÷', '*': '×', '-': '−', '+': '+'};
  let total = null, op = null, entry = '0', fresh = true, error = false;
  const fmt = n => String(Math.round(n * 1e10) / 1e10);
  const show = note => {
    out.textContent = error ? 'Error' : entry;
    out.classList.toggle('err', error);
    expr.textContent = note || (op ? fmt(total) + ' ' + SYM[op] : 'Ready');
  };
  const apply = () => {
    const b = Number(entry);
    if (op === '/' && b === 0) { error = true; return false; }
    total = op === '+' ? total + b : op === '-' ? total - b : op === '*' ? total * b : total / b;
    entry = fmt(total);
    return true;
  };
  const clear = () => { total = null; op = null; entry = '0'; fresh = true; error = false; };
  const press = key => {
    if (key === 'clear') { clear(); return show(); }
    if (error) clear();
    if (/[0-9.]/.test(key)) {
      if (fresh) { entry = key === '.' ? '0.' : key; fresh = false; }
      else if (key === '.' && entry.includes('.')) return show('Already has a decimal point');
      else if (entry.length < 14) entry = entry === '0' && key !== '.' ? key : entry + key;
      return show();
    }
    if (key === '=') {
      if (op === null) return show(entry + ' =');
      const note = fmt(total) + ' ' + SYM[op] + ' ' + entry + ' =';
      if (!apply()) return show('Cannot divide by zero');
      op = null; fresh = true;
      return show(note);
    }
    if (op !== null && !fresh && !apply()) return show('Cannot divide by zero');
    if (op === null || total === null) total = Number(entry);
    op = key; fresh = true;
    show();
  };
  document.querySelectorAll('.key').forEach(b => b.addEventListener('click', () => press(b.dataset.key)));
  document.addEventListener('keydown', event => {
    const map = {Enter: '=', '=': '=', Escape: 'clear', Delete: 'clear'};
    const key = map[event.key] || (/^[0-9.+\\-*/]$/.test(event.key) ? event.key : null);
    if (key) { event.preventDefault(); press(key); }
  });
})();"""
    return Block("calculator", "Calculator", body, script)


def faq(ctx: Context) -> Block:
    req = ctx.request
    n = req.count("questions?", 6)
    items = (FAQS.get(req.topic, FAQS["general"]) * 2)[:n]
    h = _sub(ctx)
    rows = "".join(f"""
      <div class="qa">
        <{h} class="h3"><button type="button" class="q" aria-expanded="false" aria-controls="a{i}" id="q{i}">
          <span>{esc(q)}</span><span class="sign" aria-hidden="true">+</span></button></{h}>
        <div class="a" id="a{i}" role="region" aria-labelledby="q{i}" hidden><p>{esc(a)}</p></div>
      </div>""" for i, (q, a) in enumerate(items))
    where = f"about our {req.subject}" if req.subject else "before they get started"
    title = "Frequently asked questions"
    body = f"""
<section id="faq">
  <div class="wrap narrow">
    <div class="center head">{_heading(ctx, title)}
      <p class="lead">Quick answers to what people ask most {esc(where)}.</p></div>
    <div class="field search">
      <label for="faq-search">Search the questions</label>
      <input id="faq-search" type="search" placeholder="Type a word to filter" autocomplete="off">
      <p id="faq-status" class="small" aria-live="polite">Showing all {n} questions</p>
    </div>
    <div class="accordion">{rows}
    </div>
    <p id="faq-none" class="empty" hidden>No question matches your search. Try another word.</p>
  </div>
</section>"""
    script = """(() => {
  const items = Array.from(document.querySelectorAll('.qa'));
  const search = document.getElementById('faq-search'), status = document.getElementById('faq-status');
  const none = document.getElementById('faq-none');
  const setOpen = (item, open) => {
    item.querySelector('.q').setAttribute('aria-expanded', String(open));
    item.querySelector('.a').hidden = !open;
    item.querySelector('.sign').textContent = open ? '−' : '+';
    item.classList.toggle('open', open);
  };
  items.forEach(item => item.querySelector('.q').addEventListener('click', () => {
    const open = item.querySelector('.q').getAttribute('aria-expanded') !== 'true';
    items.forEach(other => setOpen(other, other === item && open));
  }));
  const filter = () => {
    const words = search.value.trim().toLowerCase();
    let shown = 0;
    for (const item of items) {
      const text = item.textContent.toLowerCase();
      item.hidden = words !== '' && !text.includes(words);
      shown += item.hidden ? 0 : 1;
    }
    none.hidden = shown > 0;
    status.textContent = words ? shown + ' of ' + items.length + ' questions match "' +
      search.value.trim() + '"' : 'Showing all ' + items.length + ' questions';
  };
  search.addEventListener('input', filter);
  search.addEventListener('keydown', event => { if (event.key === 'Enter') { event.preventDefault(); filter(); } });
})();"""
    return Block("faq", "FAQ", body, script)


WEATHER = ("Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Thunderstorms")


def _weather_icon(kind: str) -> str:
    sun = ("<g stroke='var(--primary)' stroke-width='2.5' stroke-linecap='round'>"
           "<path d='M16 2v4M16 22v4M4 14h4M24 14h4M7.5 5.5l2.8 2.8M21.7 19.7l2.8 2.8"
           "M7.5 22.5l2.8-2.8M21.7 8.3l2.8-2.8'/></g>"
           "<circle cx='16' cy='14' r='6' fill='var(--primary)'/>")
    cloud = ("<path d='M10 28h16a6 6 0 0 0 0-12 8 8 0 0 0-15 2 5 5 0 0 0-1 10z' "
             "fill='var(--soft)' stroke='var(--dark)' stroke-width='1.5'/>")
    rain = "<path d='M14 31l-2 4M20 31l-2 4M26 31l-2 4' stroke='var(--dark)' stroke-width='2'/>"
    parts = {"Sunny": sun, "Partly cloudy": sun + cloud, "Cloudy": cloud,
             "Light rain": cloud + rain, "Showers": cloud + rain,
             "Thunderstorms": cloud + rain}[kind]
    return f"<svg class='wx' viewBox='0 0 40 40' aria-hidden='true' focusable='false'>{parts}</svg>"


def weather(ctx: Context) -> Block:
    rng, req = ctx.rng, ctx.request
    city = rng.choice(CITIES)
    n = req.count("days?", 7)
    names = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    base = rng.randint(14, 22)
    days = []
    for i in range(n):
        kind = rng.choice(WEATHER)
        rain = {"Sunny": 0, "Partly cloudy": rng.randint(0, 1), "Cloudy": rng.randint(0, 2),
                "Light rain": rng.randint(2, 5)}.get(kind, rng.randint(6, 18))
        high = base + rng.randint(-3, 4) - (2 if rain > 5 else 0)
        days.append({"day": names[i % 7], "kind": kind, "high": high,
                     "low": high - rng.randint(5, 9), "rain": rain})
    today = days[0]
    cards = "".join(f"""
        <li><button type="button" class="day" data-i="{i}" aria-pressed="{str(i == 0).lower()}">
          <span class="d">{d['day'][:3]}</span>{_weather_icon(d['kind'])}
          <span class="hi" data-c="{d['high']}">{d['high']}°</span>
          <span class="lo small" data-c="{d['low']}">{d['low']}°</span></button></li>"""
                    for i, d in enumerate(days))
    most = max(d["rain"] for d in days) or 1
    bars = "".join(f"""
        <li><span class="mm small">{d['rain']} mm</span>
          <span class="bar" style="height:{max(2, round(140 * d['rain'] / most))}px"></span>
          <span class="d">{d['day'][:3]}</span></li>""" for d in days)
    toggle = next((t for t in req.toggles if "celsius" in t[0].lower()), ("Celsius", "Fahrenheit"))
    body = f"""
<section id="today">
  <div class="wrap">
    <div class="titlebar">
      <div>{_heading(ctx, f"Weather in {city}")}
        <p class="small">Made-up data for a seven-day week, updated just now.</p></div>
      <div class="segmented" role="group" aria-label="Temperature unit">
        <button type="button" class="seg" data-unit="c" aria-pressed="true">°C <span class="sr">{esc(_cap(toggle[0]))}</span></button>
        <button type="button" class="seg" data-unit="f" aria-pressed="false">°F <span class="sr">{esc(_cap(toggle[1]))}</span></button>
      </div>
    </div>
    <div class="card now" aria-labelledby="now-title">
      <div class="now-main">{_weather_icon(today['kind'])}
        <p class="temp" data-c="{today['high']}" id="now-temp">{today['high']}°</p>
        <div><h2 id="now-title">Today, {today['day']}</h2>
          <p id="now-kind">{today['kind']}</p></div>
      </div>
      <dl class="facts">
        <div><dt>Feels like</dt><dd data-c="{today['high'] - 1}">{today['high'] - 1}°</dd></div>
        <div><dt>Humidity</dt><dd>{rng.randint(48, 86)}%</dd></div>
        <div><dt>Wind</dt><dd>{rng.randint(6, 28)} km/h</dd></div>
        <div><dt>Rain</dt><dd>{today['rain']} mm</dd></div>
      </dl>
    </div>
  </div>
</section>"""
    forecast = f"""
<section id="forecast" class="band">
  <div class="wrap">
    <h2>{n}-day forecast</h2>
    <ul class="week" style="--cols:{n}">{cards}
    </ul>
    <p id="day-detail" class="status" role="status"></p>
  </div>
</section>"""
    rainfall = f"""
<section id="rainfall">
  <div class="wrap">
    <h2 id="rain-title">Daily rainfall</h2>
    <figure class="chart" aria-labelledby="rain-title">
      <ul class="bars week" style="--cols:{n}">{bars}
      </ul>
      <figcaption class="small">Millimetres of rain expected each day.</figcaption>
    </figure>
  </div>
</section>"""
    script = """(() => {
  const days = DAYS;
  let unit = 'c', selected = 0;
  const conv = c => unit === 'c' ? c : Math.round(c * 9 / 5 + 32);
  const render = () => {
    document.querySelectorAll('[data-c]').forEach(
      el => { el.textContent = conv(Number(el.dataset.c)) + '°'; });
    const d = days[selected];
    document.getElementById('day-detail').textContent = d.day + ': ' + d.kind.toLowerCase() +
      ', high ' + conv(d.high) + '°, low ' + conv(d.low) + '°' + (unit === 'c' ? 'C' : 'F') +
      ', ' + d.rain + ' mm of rain.';
  };
  document.querySelectorAll('[data-unit]').forEach(button => button.addEventListener('click', () => {
    unit = button.dataset.unit;
    document.querySelectorAll('[data-unit]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  document.querySelectorAll('.day').forEach(button => button.addEventListener('click', () => {
    selected = Number(button.dataset.i);
    document.querySelectorAll('.day').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  render();
})();""".replace("DAYS", _js(days))
    return [Block("today", "Today", body, script), Block("forecast", "Forecast", forecast),
            Block("rainfall", "Rainfall", rainfall)]


def product(ctx: Context) -> Block:
    req, rng = ctx.request, ctx.rng
    thing = req.subject or "product"
    maker = req.brand or ctx.brand.split()[0]
    name = f"{maker} {rng.choice(('Glide', 'Stride', 'Pace', 'Drift'))} {rng.randint(2, 5)}"
    price = rng.choice((89, 109, 129, 149))
    colours = ("Ocean blue", "Graphite", "Sunset orange")
    sizes = [str(s) for s in range(38, 47)] if req.topic == "shoes" else ["S", "M", "L", "XL"]
    swatches = "".join(
        f'<label class="pill"><input type="radio" name="colour" value="{c}"'
        f'{" checked" if i == 0 else ""}> {c}</label>' for i, c in enumerate(colours))
    options = "".join(f"<option>{s}</option>" for s in sizes)
    tabs = req.names_after(r"tabs") or ("Description", "Specs", "Reviews")
    shoes = req.topic == "shoes"
    specs = [("Weight", "248 g (size 42)"), ("Drop", "8 mm"), ("Upper", "Recycled knit mesh"),
             ("Best for", "Road running, 5 km to marathon")] if shoes else [
        ("Weight", "1.2 kg"), ("Materials", "Recycled aluminium and cotton"),
        ("Warranty", "Two years"), ("In the box", f"The {thing} and a quick-start card")]
    reviews = [("Priya", "★★★★★", "Light, springy and comfortable from the first run."),
               ("Tom", "★★★★☆", "Great grip in the wet. I went half a size up."),
               ("Lena", "★★★★★", "My third pair: they last for about 800 km.")] if shoes else [
        ("Priya", "★★★★★", "Well made and exactly as described."),
        ("Tom", "★★★★☆", "Does the job nicely. Delivery took three days."),
        ("Lena", "★★★★★", "Bought a second one as a gift.")]
    about = ("pairs a soft, responsive foam midsole with a breathable knit upper, so easy miles "
             "feel easier and fast days feel faster.</p><p>A rubber outsole with a wide base "
             "keeps you steady on wet roads and tight corners.") if shoes else (
        f"is our best-loved {esc(thing)}: simple to use, built to last and backed by a two-year "
        f"warranty.</p><p>Every order ships within one working day.")
    panels = {
        0: f"<p>The {esc(name)} {about}</p>",
        1: "<table><caption>Specifications</caption><tbody>" + "".join(
            f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in specs)
           + "</tbody></table>",
        2: "".join(f"<figure class='review'><blockquote><p>{esc(t)}</p></blockquote>"
                   f"<figcaption><span aria-label='{s.count('★')} out of 5 stars'>{s}</span> "
                   f"{esc(w)}</figcaption></figure>" for w, s, t in reviews),
    }
    tab_buttons = "".join(
        f'<button type="button" role="tab" id="tab-{i}" aria-controls="panel-{i}" '
        f'aria-selected="{str(i == 0).lower()}" tabindex="{0 if i == 0 else -1}">{esc(t)}</button>'
        for i, t in enumerate(tabs))
    tab_panels = "".join(
        f'<div role="tabpanel" id="panel-{i}" aria-labelledby="tab-{i}" tabindex="0"'
        f'{"" if i == 0 else " hidden"}>{panels.get(i, "<p>More to come soon.</p>")}</div>'
        for i in range(len(tabs)))
    cart = ('<button type="button" class="cart" id="cart-button" aria-label="Cart, 0 items">'
            'Cart <span class="badge-count" id="cart-count" aria-hidden="true">0</span></button>')
    body = f"""
<section id="product">
  <div class="wrap split product">
    <figure class="photo"><img src="{esc(_picture(ctx, name))}" alt="{esc(name)}, side view"
      width="560" height="420"></figure>
    <div>
      <p class="eyebrow">{esc(_cap(thing))}</p>
      {_heading(ctx, name)}
      <p class="small"><span aria-label="4.6 out of 5 stars">★★★★☆</span> 4.6 · 128 reviews</p>
      <p class="price"><strong>${price}</strong></p>
      <p>Everyday comfort with a lively ride. Free delivery and 30-day returns.</p>
      <fieldset class="choice"><legend>Colour: <span id="colour-name">{colours[0]}</span></legend>
        {swatches}</fieldset>
      <div class="row2">
        <div class="field"><label for="size">Size</label>
          <select id="size" name="size"><option value="">Choose a size</option>{options}</select></div>
        <div class="field"><label for="qty">Quantity</label>
          <div class="stepper"><button type="button" id="qty-down" aria-label="Decrease quantity">−</button>
          <input id="qty" name="qty" type="number" min="1" max="10" value="1" inputmode="numeric">
          <button type="button" id="qty-up" aria-label="Increase quantity">+</button></div></div>
      </div>
      <button type="button" class="btn wide" id="add-to-cart">{esc(req.label(r"cart", "Add to cart"))}</button>
      <p id="cart-status" class="status" role="status">Choose a size to add it to your cart.</p>
    </div>
  </div>
</section>"""
    details = f"""
<section id="details" class="band">
  <div class="wrap">
    <h2>About the {esc(name)}</h2>
    <div role="tablist" aria-label="Product information" class="tabs">{tab_buttons}</div>
    <div class="card panels">{tab_panels}</div>
  </div>
</section>"""
    script = """(() => {
  const qty = document.getElementById('qty'), size = document.getElementById('size');
  const status = document.getElementById('cart-status'), count = document.getElementById('cart-count');
  const cartButton = document.getElementById('cart-button');
  let inCart = 0;
  const clamp = v => Math.min(10, Math.max(1, Math.round(Number(v) || 1)));
  const summary = () => {
    const colour = document.querySelector('input[name=colour]:checked').value;
    status.textContent = qty.value + ' × ' + colour + (size.value ? ', size ' + size.value : '') +
      (size.value ? ' ready to add.' : ': choose a size to add it to your cart.');
  };
  document.getElementById('qty-down').addEventListener('click', () => { qty.value = clamp(qty.value - 1); summary(); });
  document.getElementById('qty-up').addEventListener('click', () => { qty.value = clamp(Number(qty.value) + 1); summary(); });
  qty.addEventListener('input', summary);
  qty.addEventListener('change', () => { qty.value = clamp(qty.value); summary(); });
  size.addEventListener('change', summary);
  document.querySelectorAll('input[name=colour]').forEach(radio => radio.addEventListener('click', () => {
    document.getElementById('colour-name').textContent = radio.value;
    summary();
  }));
  document.getElementById('add-to-cart').addEventListener('click', () => {
    if (!size.value) { size.selectedIndex = 1; }
    inCart += clamp(qty.value);
    count.textContent = inCart;
    cartButton.setAttribute('aria-label', 'Cart, ' + inCart + ' items');
    cartButton.classList.add('bump');
    status.textContent = 'Added ' + clamp(qty.value) + ' × size ' + size.value +
      ' to your cart. Cart total: ' + inCart + '.';
  });
  cartButton.addEventListener('click', () => {
    status.textContent = inCart ? 'Your cart holds ' + inCart + ' pair' + (inCart > 1 ? 's' : '') +
      '. Checkout is coming soon.' : 'Your cart is empty.';
  });
  const tabs = Array.from(document.querySelectorAll('[role=tab]'));
  const select = tab => tabs.forEach(t => {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  });
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', event => {
      const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
      if (step) { const t = tabs[(i + step + tabs.length) % tabs.length]; select(t); t.focus(); }
    });
  });
})();"""
    return [Block("product", "Product", body, script, header_extra=cart),
            Block("details", "Details", details)]


def quiz(ctx: Context) -> Block:
    req = ctx.request
    n = req.count("questions?", 5)
    bank = (QUIZZES.get(req.topic, QUIZZES["general"]) * 2)[:n]
    topic = req.subject or "general knowledge"
    title = f"{_cap(topic)} quiz"
    body = f"""
<section id="quiz">
  <div class="wrap narrow">
    <div class="center head">{_heading(ctx, title)}
      <p class="lead">{_cap(_number(n))} questions, one at a time. How much do you know?</p>
    </div>
    <div class="card app quiz" aria-live="polite">
      <div class="progress-row"><p id="quiz-progress" class="small">Question 1 of {n}</p>
        <p id="quiz-score" class="small">Score: 0</p></div>
      <div class="progress" role="progressbar" aria-label="Quiz progress" aria-valuemin="0"
        aria-valuemax="{n}" aria-valuenow="1"><span id="quiz-bar"></span></div>
      <div id="quiz-body"></div>
    </div>
  </div>
</section>"""
    script = """(() => {
  const bank = BANK, body = document.getElementById('quiz-body');
  const progress = document.getElementById('quiz-progress'), scoreEl = document.getElementById('quiz-score');
  const bar = document.getElementById('quiz-bar'), meter = bar.parentElement;
  let index = 0, score = 0;
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const ask = () => {
    const [question, answers, correct, fact] = bank[index];
    progress.textContent = 'Question ' + (index + 1) + ' of ' + bank.length;
    scoreEl.textContent = 'Score: ' + score;
    meter.setAttribute('aria-valuenow', String(index + 1));
    bar.style.width = (100 * (index + 1) / bank.length) + '%';
    const title = el('h2', 'question', question);
    const grid = el('div', 'answers');
    const feedback = el('p', 'feedback');
    feedback.setAttribute('role', 'status');
    const next = el('button', 'btn', index + 1 < bank.length ? 'Next question' : 'See my score');
    next.type = 'button';
    next.hidden = true;
    answers.forEach((answer, i) => {
      const button = el('button', 'answer', answer);
      button.type = 'button';
      button.addEventListener('click', () => {
        const right = i === correct;
        if (right) score += 1;
        grid.querySelectorAll('button').forEach((b, j) => {
          b.disabled = true;
          if (j === correct) b.classList.add('right');
          else if (j === i) b.classList.add('wrong');
        });
        feedback.textContent = (right ? 'Correct! ' : 'Not quite: it is ' + answers[correct] + '. ') + fact;
        feedback.className = 'feedback ' + (right ? 'good' : 'bad');
        scoreEl.textContent = 'Score: ' + score;
        next.hidden = false;
      });
      grid.append(button);
    });
    next.addEventListener('click', () => { index += 1; index < bank.length ? ask() : finish(); });
    body.replaceChildren(title, grid, feedback, next);
  };
  const finish = () => {
    progress.textContent = 'Finished';
    meter.setAttribute('aria-valuenow', String(bank.length));
    const title = el('h2', 'question', 'You scored ' + score + ' out of ' + bank.length);
    const note = el('p', '', score === bank.length ? 'A perfect score. Brilliant!' :
      score >= bank.length / 2 ? 'Nicely done. Try again for a perfect score?' :
      'Every expert started somewhere. Have another go!');
    const again = el('button', 'btn', 'Restart');
    again.type = 'button';
    again.addEventListener('click', () => { index = 0; score = 0; ask(); });
    body.replaceChildren(title, note, again);
  };
  ask();
})();""".replace("BANK", _js(bank))
    return Block("quiz", "Quiz", body, script)


def tabs(ctx: Context) -> Block:
    names = ctx.request.names_after(r"tabs") or ("Overview", "Details", "Reviews")
    buttons = "".join(
        f'<button type="button" role="tab" id="tab-{i}" aria-controls="panel-{i}" '
        f'aria-selected="{str(i == 0).lower()}" tabindex="{0 if i == 0 else -1}">{esc(t)}</button>'
        for i, t in enumerate(names))
    h = _sub(ctx)
    panels = "".join(
        f'<div role="tabpanel" id="panel-{i}" aria-labelledby="tab-{i}" tabindex="0"'
        f'{"" if i == 0 else " hidden"}><{h} class="h3">{esc(t)}</{h}><p>Everything about '
        f'{esc(t.lower())} in one place, kept short and up to date.</p></div>'
        for i, t in enumerate(names))
    body = f"""
<section id="info" class="band">
  <div class="wrap">{_heading(ctx, "More information")}
    <div role="tablist" aria-label="Sections" class="tabs">{buttons}</div>
    <div class="card panels">{panels}</div>
  </div>
</section>"""
    script = """(() => {
  const tabs = Array.from(document.querySelectorAll('[role=tab]'));
  tabs.forEach(tab => tab.addEventListener('click', () => tabs.forEach(t => {
    t.setAttribute('aria-selected', String(t === tab));
    t.tabIndex = t === tab ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = t !== tab;
  })));
})();"""
    return Block("info", "Info", body, script)


def chart(ctx: Context) -> Block:
    rng = ctx.rng
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    values = [rng.randint(20, 100) for _ in months]
    bars = "".join(f"""
        <li><button type="button" class="barbtn" data-i="{i}" aria-label="{m}: {v}">
          <span class="mm small">{v}</span><span class="bar" style="height:{round(1.4 * v)}px"></span>
          <span class="d">{m}</span></button></li>""" for i, (m, v) in enumerate(zip(months, values, strict=True)))
    body = f"""
<section id="chart">
  <div class="wrap">{_heading(ctx, "Monthly totals")}
    <figure class="chart"><ul class="bars week" style="--cols:{len(months)}">{bars}</ul>
      <figcaption class="small">Choose a bar to read its value.</figcaption>
      <p id="chart-status" class="status center" role="status"></p>
    </figure>
  </div>
</section>"""
    script = """(() => {
  document.querySelectorAll('.barbtn').forEach(b => b.addEventListener('click', () => {
    document.querySelectorAll('.barbtn').forEach(o => o.classList.toggle('on', o === b));
    document.getElementById('chart-status').textContent = b.getAttribute('aria-label');
  }));
})();"""
    return Block("chart", "Chart", body, script)


TABLES = (  # (request words, title, columns, rows): the last column sorts
    (r"hours|opening", "Opening hours", ("Day", "Kitchen", "Seats free"),
     [("Monday", "Closed", 0), ("Tuesday", "12:00 to 22:00", 14), ("Wednesday", "12:00 to 22:00", 9),
      ("Thursday", "12:00 to 23:00", 6), ("Friday", "12:00 to 23:30", 2),
      ("Saturday", "11:00 to 23:30", 4), ("Sunday", "11:00 to 17:00", 11)]),
    (r"order", "Recent orders", ("Order", "Customer", "Total ($)"),
     [("#1042", "Maya Chen", 128), ("#1041", "Omar Haddad", 64), ("#1040", "Sofia Rossi", 212),
      ("#1039", "Liam Walsh", 37), ("#1038", "Ines Duarte", 95)]),
    (r"schedule|timetable|agenda", "Schedule", ("Time", "Session", "Room"),
     [("09:00", "Welcome and coffee", 1), ("10:00", "Opening talk", 2),
      ("11:30", "Workshops", 3), ("14:00", "Panel discussion", 2), ("16:00", "Closing", 1)]),
    (r"", "At a glance", ("Item", "Status", "Price ($)"),
     [("Starter kit", "In stock", 24), ("Travel case", "Low stock", 39),
      ("Spare parts set", "In stock", 12), ("Gift box", "Sold out", 18)]),
)


def table(ctx: Context) -> Block:
    title, columns, rows = next((t, c, r) for words, t, c, r in TABLES
                                if ctx.request.has(words))
    body_rows = "".join(f"<tr><th scope='row'>{esc(a)}</th><td>{esc(b)}</td><td>{c}</td></tr>"
                        for a, b, c in rows)
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in columns)
    body = f"""
<section id="table">
  <div class="wrap">{_heading(ctx, title)}
    <div class="toolbar"><p class="small" id="table-note">{len(rows)} rows, in their usual order.</p>
      <button type="button" class="btn ghost" id="sort">Sort by {esc(columns[2].lower())}</button></div>
    <table class="data">
      <thead><tr>{head}</tr></thead>
      <tbody id="rows">{body_rows}</tbody></table>
  </div>
</section>"""
    script = """(() => {
  let up = true;
  const button = document.getElementById('sort'), label = button.textContent;
  button.addEventListener('click', () => {
    const body = document.getElementById('rows');
    const rows = Array.from(body.rows).sort((a, b) => {
      const d = Number(a.cells[2].textContent) - Number(b.cells[2].textContent);
      return up ? d : -d;
    });
    body.replaceChildren(...rows);
    document.getElementById('table-note').textContent = up ? 'Sorted, lowest first.' : 'Sorted, highest first.';
    button.textContent = up ? label + ' (high first)' : label;
    up = !up;
  });
})();"""
    return Block("table", _cap(title.split()[-1]), body, script)


BUILDERS = {"hero": hero, "features": features, "pricing": pricing, "todo": todo,
            "contact": contact, "gallery": gallery, "calculator": calculator, "faq": faq,
            "weather": weather, "product": product, "quiz": quiz, "tabs": tabs, "chart": chart,
            "table": table}


# The page.

CSS = """
:root { --primary: PRIMARY; --dark: DARK; --tint: TINT; --soft: SOFT; --ink: #0f172a;
        --muted: #475569; --line: #d5dce5; --radius: RADIUSpx; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font-family: BODYFONT; font-size: 16px; line-height: 1.5; color: var(--ink);
       background: #ffffff; }
h1, h2, h3 { font-family: HEADFONT; line-height: 1.25; margin: 0 0 12px; }
h1 { font-size: 40px; } h2 { font-size: 28px; } h3, .h3 { font-size: 20px; }
p { margin: 0 0 16px; }
a { color: var(--dark); }
img { max-width: 100%; display: block; }
:focus-visible { outline: 3px solid var(--dark); outline-offset: 2px; }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 32px; }
.narrow { max-width: 760px; }
.center { text-align: center; }
.head { margin: 0 auto 40px; max-width: 680px; }
.lead { font-size: 20px; color: var(--muted); }
.small { font-size: 14px; color: var(--muted); }
.eyebrow { font-size: 14px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase;
           color: var(--dark); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      white-space: nowrap; }
section { padding: 72px 0; }
.band { background: var(--tint); }
.site-head { border-bottom: 1px solid var(--line); background: #ffffff; }
.bar-list { display: flex; align-items: center; gap: 16px; }
.topbar { display: flex; align-items: center; justify-content: space-between; gap: 24px;
          min-height: 72px; }
.brand { display: inline-flex; align-items: center; gap: 10px; font-size: 20px; font-weight: 700;
         color: var(--ink); text-decoration: none; }
.brand svg { width: 28px; height: 28px; }
.site-head nav ul, .foot ul { display: flex; flex-wrap: wrap; gap: 8px; list-style: none;
                              margin: 0; padding: 0; }
.site-head nav a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 14px;
                   border-radius: 8px; color: var(--ink); text-decoration: none; }
.site-head nav a:hover { background: var(--tint); }
.btn { display: inline-flex; align-items: center; justify-content: center; font: inherit;
       font-weight: 600; min-height: 48px; padding: 0 24px; border-radius: 8px;
       border: 2px solid var(--primary); background: var(--primary); color: #ffffff;
       text-decoration: none; cursor: pointer; }
.btn:hover { background: var(--dark); border-color: var(--dark); }
.btn.ghost { background: #ffffff; color: var(--dark); }
.btn.ghost:hover { background: var(--tint); }
.btn.wide { width: 100%; }
.actions { display: flex; justify-content: center; gap: 16px; margin-top: 32px; }
.card { background: #ffffff; border: 1px solid var(--line); border-radius: var(--radius);
        padding: 32px; }
.grid { display: grid; gap: 24px; grid-template-columns: repeat(var(--cols), minmax(0, 1fr)); }
.split { display: grid; gap: 40px; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
         align-items: start; }
.row2 { display: grid; gap: 16px; grid-template-columns: 1fr 1fr; }
.field { margin-bottom: 16px; text-align: left; }
label, legend { display: block; font-weight: 600; margin-bottom: 6px; }
input, select, textarea { font: inherit; width: 100%; min-height: 48px; padding: 10px 14px;
                          border: 1px solid #64748b; border-radius: 8px; color: var(--ink);
                          background: #ffffff; }
textarea { resize: vertical; }
input[type=checkbox], input[type=radio] { width: 24px; height: 24px; min-height: 0; margin: 0;
                                           accent-color: var(--primary); }
[aria-invalid=true] { border-color: #b91c1c; }
.error { color: #b91c1c; font-size: 14px; margin: 6px 0 0; }
.error:empty, .status:empty { display: none; }
.status { font-weight: 600; margin-top: 24px; }
.done { border-color: var(--primary); background: var(--tint); font-weight: 600; }
.hero { padding: 96px 0; }
.signup { margin-top: 40px; text-align: left; }
.signup .btn { margin-top: 8px; }
.feature .icon { width: 48px; height: 48px; display: block; margin-bottom: 16px; }
.feature p { margin: 0; color: var(--muted); }
.segmented { display: inline-flex; flex-wrap: wrap; justify-content: center; gap: 8px; }
.seg { font: inherit; min-height: 44px; padding: 0 20px; border-radius: 999px; cursor: pointer;
       border: 2px solid var(--primary); background: #ffffff; color: var(--dark); }
.seg[aria-pressed=true] { background: var(--primary); color: #ffffff; }
.plan { display: flex; flex-direction: column; }
.plan.featured { border-color: var(--primary); }
.plan.chosen { border-width: 3px; border-color: var(--dark); background: var(--tint); }
.plan .ticks { flex: 1; }
.badge { align-self: flex-start; font-size: 14px; font-weight: 700; margin: 0 0 12px;
         padding: 2px 12px; border-radius: 999px; background: var(--soft); color: var(--dark); }
.price strong { font-size: 40px; }
.price .per { color: var(--muted); }
.ticks { list-style: none; padding: 0; margin: 0 0 24px; }
.ticks li { padding: 6px 0; border-top: 1px solid var(--line); }
.choose[aria-pressed=true] { background: var(--primary); color: #ffffff; }
.app { text-align: left; }
.inline { display: flex; gap: 12px; }
.inline input { flex: 1; }
.toolbar { display: flex; justify-content: space-between; align-items: center; gap: 16px;
           margin: 24px 0 8px; flex-wrap: wrap; }
.count { margin: 0; font-weight: 600; }
.todo-list { list-style: none; margin: 0; padding: 0; }
.todo-list li { display: flex; justify-content: space-between; align-items: center; gap: 12px;
                padding: 10px 0; border-top: 1px solid var(--line); }
.todo-list label { display: flex; align-items: center; gap: 12px; margin: 0; font-weight: 400; }
.todo-list li.done span { text-decoration: line-through; color: var(--muted); }
.link-btn { font: inherit; min-height: 44px; padding: 0 14px; border-radius: 8px; cursor: pointer;
            border: 1px solid var(--line); background: #ffffff; color: #b91c1c; }
.empty { color: var(--muted); text-align: center; margin: 24px 0 0; }
.info p { margin-bottom: 20px; }
.shots figure { margin: 0; }
.shot-open { display: block; width: 100%; padding: 0; border: 0; border-radius: var(--radius);
             overflow: hidden; cursor: zoom-in; background: var(--soft); }
.shot-open img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; }
.shots figcaption { display: flex; justify-content: space-between; gap: 8px; padding-top: 10px;
                    font-size: 14px; }
.tag { color: var(--dark); font-weight: 700; }
.lightbox { position: fixed; inset: 0; display: grid; place-items: center; padding: 32px;
            background: rgba(15, 23, 42, 0.86); z-index: 10; }
.lightbox[hidden] { display: none; }
.lb-panel { background: #ffffff; border-radius: var(--radius); padding: 24px; max-width: 760px;
            width: 100%; }
.lb-panel img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 8px; }
.lb-caption { margin: 16px 0; font-weight: 600; text-align: center; }
.lb-controls { display: flex; justify-content: center; gap: 12px; }
.calc { max-width: 380px; margin: 0 auto 24px; padding: 24px; text-align: right; }
.display { background: var(--tint); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
.expr { font-size: 16px; color: var(--muted); margin: 0; min-height: 24px; }
.out { font-size: 40px; font-weight: 700; margin: 0; overflow-wrap: anywhere; }
.out.err { color: #b91c1c; }
.keys { display: grid; gap: 10px; grid-template-columns: repeat(4, 1fr);
        grid-template-areas: ". . . ." ". . . plus" ". . . plus" ". . . eq" "zero zero . eq"; }
.key { font: inherit; font-size: 20px; min-height: 60px; border-radius: 8px; cursor: pointer;
       border: 1px solid var(--line); background: #ffffff; color: var(--ink); }
.key:hover { background: var(--tint); }
.key.op, .key.fn { background: var(--soft); color: var(--dark); font-weight: 700;
                   border-color: var(--soft); }
.key.eq { background: var(--primary); color: #ffffff; border-color: var(--primary); }
.search { margin-bottom: 32px; }
.search .small { margin: 8px 0 0; }
.head .segmented + .small { margin: 12px 0 0; }
.qa { border-bottom: 1px solid var(--line); }
.qa .h3 { margin: 0; }
.q { display: flex; width: 100%; justify-content: space-between; align-items: center; gap: 16px;
     font: inherit; font-size: 20px; font-weight: 600; text-align: left; min-height: 64px;
     padding: 12px 4px; border: 0; background: none; color: var(--ink); cursor: pointer; }
.q:hover { color: var(--dark); }
.sign { font-size: 28px; color: var(--dark); }
.a p { color: var(--muted); padding: 0 4px 8px; }
.titlebar { display: flex; justify-content: space-between; align-items: center; gap: 24px;
            margin-bottom: 32px; }
.now { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 32px;
       align-items: center; }
.now-main { display: flex; align-items: center; gap: 24px; }
.now-main .wx { width: 96px; height: 96px; }
.now-main h2 { margin-bottom: 4px; }
.now-main p { margin: 0; }
.temp { font-size: 56px; font-weight: 700; line-height: 1; }
.facts { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin: 0; }
.facts dt { color: var(--muted); font-size: 14px; }
.facts dd { margin: 0; font-size: 20px; font-weight: 600; }
.week { display: grid; gap: 16px; grid-template-columns: repeat(var(--cols), minmax(0, 1fr));
        list-style: none; margin: 0; padding: 0; }
.day { display: flex; flex-direction: column; align-items: center; gap: 4px; width: 100%;
       font: inherit; padding: 16px 8px; border-radius: var(--radius); cursor: pointer;
       border: 1px solid var(--line); background: #ffffff; color: var(--ink); }
.day[aria-pressed=true] { border: 2px solid var(--primary); background: var(--soft); }
.day .wx { width: 48px; height: 48px; }
.d { font-weight: 700; }
.hi { font-size: 20px; font-weight: 700; }
.bars li, .barbtn { display: flex; flex-direction: column; align-items: center; justify-content: flex-end;
                    gap: 6px; min-height: 200px; }
.barbtn { width: 100%; font: inherit; border: 0; background: none; color: var(--ink); cursor: pointer; }
.bar { display: block; width: min(48px, 70%); border-radius: 6px 6px 0 0; background: var(--primary); }
.chart { margin: 0; }
.chart figcaption { margin-top: 16px; text-align: center; }
.product { align-items: center; }
.photo { margin: 0; }
.photo img { width: 100%; border-radius: var(--radius); aspect-ratio: 4 / 3; object-fit: cover; }
.choice { border: 0; padding: 0; margin: 0 0 16px; }
.pill { display: inline-flex; align-items: center; gap: 8px; min-height: 44px; padding: 0 14px;
        margin: 0 8px 8px 0; border: 1px solid var(--line); border-radius: 999px;
        font-weight: 400; cursor: pointer; }
.stepper { display: flex; gap: 8px; }
.stepper button { font: inherit; font-size: 20px; min-width: 48px; min-height: 48px;
                  border-radius: 8px; border: 1px solid var(--line); background: var(--tint);
                  color: var(--ink); cursor: pointer; }
.stepper input { text-align: center; }
.cart { display: inline-flex; align-items: center; gap: 8px; font: inherit; font-weight: 600;
        min-height: 44px; padding: 0 16px; border-radius: 999px; cursor: pointer;
        border: 2px solid var(--primary); background: #ffffff; color: var(--dark); }
.badge-count { display: inline-grid; place-items: center; min-width: 28px; height: 28px;
               border-radius: 999px; background: var(--primary); color: #ffffff; }
.cart.bump { background: var(--tint); }
.tabs { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 16px; }
[role=tab] { font: inherit; font-weight: 600; min-height: 48px; padding: 0 24px; cursor: pointer;
             border-radius: 8px; border: 2px solid var(--primary); background: #ffffff;
             color: var(--dark); }
[role=tab][aria-selected=true] { background: var(--primary); color: #ffffff; }
.panels p:last-child { margin-bottom: 0; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 700; margin-bottom: 8px; }
th, td { text-align: left; padding: 12px; border-bottom: 1px solid var(--line); }
.review { margin: 0 0 16px; }
.review blockquote { margin: 0 0 4px; }
.review p { margin: 0; }
.progress-row { display: flex; justify-content: space-between; }
.progress-row p { margin: 0 0 8px; }
.progress { height: 8px; border-radius: 999px; background: var(--soft); margin-bottom: 24px; }
.progress span { display: block; height: 100%; width: 0; border-radius: 999px;
                 background: var(--primary); }
.answers { display: grid; gap: 12px; grid-template-columns: 1fr 1fr; margin-bottom: 16px; }
.answer { font: inherit; text-align: left; min-height: 56px; padding: 12px 16px; cursor: pointer;
          border-radius: 8px; border: 2px solid var(--line); background: #ffffff; color: var(--ink); }
.answer:hover:not(:disabled) { border-color: var(--primary); }
.answer:disabled { cursor: default; color: var(--ink); }
.answer.right { border-color: #15803d; background: #f0fdf4; }
.answer.wrong { border-color: #b91c1c; background: #fef2f2; }
.feedback.good { color: #166534; }
.feedback.bad { color: #991b1b; }
.site-foot { background: var(--ink); color: #e2e8f0; padding: 40px 0; }
.foot { display: flex; justify-content: space-between; align-items: center; gap: 24px;
        flex-wrap: wrap; }
.foot p { margin: 0; }
.foot-brand { font-size: 20px; font-weight: 700; color: #ffffff; }
.foot a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 12px;
          color: #ffffff; }
@media (max-width: 760px) {
  .grid, .split, .row2, .now, .answers { grid-template-columns: 1fr; }
  .week:not(.bars) { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .bars { gap: 6px; }
  .now-main { flex-wrap: wrap; }
  .bar-list, .titlebar, .topbar { flex-wrap: wrap; }
  h1 { font-size: 32px; }
  section { padding: 48px 0; }
}
"""

LOGO = ("<svg viewBox='0 0 28 28' aria-hidden='true' focusable='false'>"
        "<rect width='28' height='28' rx='8' fill='var(--primary)'/>"
        "<path d='M8 18l6-9 6 9z' fill='#ffffff'/></svg>")


def _brand(req: Request, rng: random.Random) -> str:
    if req.brand:
        return req.brand
    name = rng.choice(BRAND_PARTS[0]) + rng.choice(BRAND_PARTS[1])
    suffix = {"books": " Books", "shoes": " Running", "space": " Academy", "food": " Kitchen",
              "photo": " Studio"}.get(req.topic, "")
    if "weather" in req.parts:
        suffix = " Weather"
    return name + suffix


def build_page(item: WebpageItem, seed: int = 0) -> str:
    """A complete page for the item's request, in one ```html fence, as a model would reply."""
    req = read_request(item.prompt)
    rng = random.Random(f"{item.id}|{seed}")
    palette = PALETTES[(zlib.crc32(item.id.encode()) + seed) % len(PALETTES)]
    body_font, head_font = FONTS[seed % len(FONTS)]
    ctx = Context(req, rng, palette, _brand(req, rng))
    for part in req.parts:
        made = BUILDERS[part](ctx)
        ctx.blocks.extend(made if isinstance(made, list) else [made])
    blocks = ctx.blocks
    for i, block in enumerate(blocks):  # a hero's link-style button goes to the next section
        block.html = block.html.replace("{next}", blocks[min(i + 1, len(blocks) - 1)].id)
    # A nav when the request asks for one or there are sections to go to below the first.
    wants_nav = req.wants_nav or sum(bool(b.label) for b in blocks[1:]) >= 2
    nav_blocks = [b for b in blocks if b.label] if wants_nav else []
    nav = ""
    if nav_blocks:
        links = "".join(f'<li><a href="#{b.id}">{esc(b.label)}</a></li>' for b in nav_blocks)
        if req.wants_nav:  # "links to the sections below": the footer is one too
            links += '<li><a href="#about">About</a></li>'
        nav = f'<nav aria-label="Main"><ul>{links}</ul></nav>'
    extra = "".join(b.header_extra for b in blocks)
    right = f'<div class="bar-list">{nav}{extra}</div>' if nav and extra else nav or extra
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", "".join(b.html for b in blocks), re.S)
    title = html.unescape(re.sub(r"<[^>]+>", "", h1.group(1))) if h1 else ctx.brand
    tagline = (f"{ctx.brand} is {req.descriptor}." if req.descriptor
               else "Made with care, for people who like things simple.")
    foot_links = "".join(f'<li><a href="#{b.id}">{esc(b.label)}</a></li>' for b in nav_blocks)
    foot_links += '<li><a href="#top">Back to top</a></li>'
    css = (CSS.replace("PRIMARY", palette.primary).replace("DARK", palette.dark)
           .replace("TINT", palette.tint).replace("SOFT", palette.soft)
           .replace("RADIUS", str(rng.choice((10, 12, 16))))
           .replace("BODYFONT", body_font).replace("HEADFONT", head_font))
    scripts = "\n".join(b.script for b in ctx.blocks if b.script)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} | {esc(ctx.brand)}</title>
<style>{css}</style>
</head>
<body>
<header class="site-head" id="top">
  <div class="wrap topbar">
    <a class="brand" href="#top">{LOGO}<span>{esc(ctx.brand)}</span></a>
    {right}
  </div>
</header>
<main id="main">{''.join(b.html for b in blocks)}
</main>
<footer class="site-foot" id="about">
  <div class="wrap foot">
    <div><p class="foot-brand">{esc(ctx.brand)}</p>
      <p>{esc(tagline)} © 2025 {esc(ctx.brand)}.</p></div>
    <nav aria-label="Footer"><ul>{foot_links}</ul></nav>
  </div>
</footer>
<script>
{scripts}
</script>
</body>
</html>"""
    return f"```html\n{page}\n```"
