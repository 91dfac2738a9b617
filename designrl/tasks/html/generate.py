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
import colorsys
import html
import random
from dataclasses import dataclass

from designrl.tasks.html.spec import HtmlItem
from designrl.tasks.layout.generate import TEST_SEED_START

__all__ = ["TEST_SEED_START", "generate_item", "generate_page"]


@dataclass(frozen=True)
class Theme:
    kinds: tuple[str, ...]  # what the business calls itself ("Bakery")
    places: tuple[str, ...]  # first words of its name
    nav: tuple[str, ...]
    headlines: tuple[str, ...]
    items: tuple[tuple[str, str], ...]  # (name, one-sentence description)
    sentences: tuple[str, ...]
    cta: tuple[str, ...]


THEMES = (
    Theme(("Bakery", "Bread Company", "Bakehouse"), ("Willow Street", "Old Mill", "Harbour",
                                                      "Juniper", "Sunrise"),
          ("Menu", "Our story", "Wholesale", "Visit us", "Cakes", "Contact"),
          ("Fresh bread, baked before sunrise", "Slow dough, good mornings",
           "Pastries worth getting up for", "Baked by hand, every single day"),
          (("Sourdough loaves", "Naturally leavened for two days and baked on stone."),
           ("Croissants", "Laminated with French butter, flaky all the way through."),
           ("Celebration cakes", "Made to order for birthdays, weddings and Tuesdays."),
           ("Seeded rye", "Dense, dark and packed with sunflower and pumpkin seeds."),
           ("Morning buns", "Cinnamon, orange zest and a crackly sugar crust."),
           ("Wholesale", "Daily deliveries to cafes and restaurants across town.")),
          ("Our ovens are lit at four every morning so the shelves are full when we open.",
           "We mill our own flour from grain grown by three family farms nearby.",
           "Everything is made by hand in small batches, with no shortcuts.",
           "Come early on Saturdays: the cardamom knots sell out by ten.",
           "Leftover bread goes to the community kitchen at the end of each day.",
           "Ask about our baking classes, held on the first Sunday of the month."),
          ("Order a cake", "See today's menu", "Find the shop")),
    Theme(("Law", "Legal", "Solicitors"), ("Hartley", "Bennett & Ross", "Carver", "Whitmore",
                                          "Ashford"),
          ("Practice areas", "Our team", "Insights", "Fees", "Careers", "Contact"),
          ("Clear legal advice for people and businesses", "Practical answers, fair fees",
           "We stand beside you when it matters"),
          (("Family law", "Separation, custody and financial agreements handled with care."),
           ("Employment", "Contracts, disputes and workplace investigations."),
           ("Property", "Buying, selling and leasing homes and commercial premises."),
           ("Wills and probate", "Plan ahead and protect the people you love."),
           ("Business law", "Company formation, shareholder agreements and contracts."),
           ("Dispute resolution", "Mediation first, and strong representation in court.")),
          ("Our solicitors explain your options in plain English before any work begins.",
           "We publish our fixed fees, so there are no surprises on the final bill.",
           "The first thirty-minute consultation is free and without obligation.",
           "We have advised local families and firms for more than forty years.",
           "Every client has a named lawyer and a direct phone number.",
           "Meetings can take place at our office, by phone or by video call."),
          ("Book a consultation", "Meet the team", "Read our fees")),
    Theme(("Hiking Club", "Walkers", "Trail Society"), ("Ridgeway", "Fellside", "Cedar Valley",
                                                       "Northern Hills", "Bluebell"),
          ("Walks", "Join", "Routes", "Gallery", "Safety", "News"),
          ("Explore the hills with friendly company", "Every weekend, a new trail",
           "Fresh air, good boots and great people"),
          (("Saturday rambles", "Gentle walks of eight to twelve kilometres for all levels."),
           ("Summit days", "Challenging routes for experienced hikers with good fitness."),
           ("Navigation course", "Learn to read maps and use a compass in six evenings."),
           ("Family walks", "Short loops with picnic stops, perfect for young legs."),
           ("Kit library", "Borrow boots, poles and waterproofs before you buy your own."),
           ("Trail care", "Help repair paths and plant hedges with our volunteer crew.")),
          ("New members are always welcome and your first three walks are free.",
           "Every walk is led by a trained volunteer who knows the route well.",
           "We meet at the village hall car park at nine sharp.",
           "Bring water, lunch and a layer you can add when the wind picks up.",
           "Our routes are graded so you can choose a walk that suits your pace.",
           "After most walks we stop for tea and cake at a local cafe."),
          ("Join the club", "See upcoming walks", "Download routes")),
    Theme(("Software", "Labs", "Cloud"), ("Brightline", "Northstar", "Quantum Leaf", "Paperplane",
                                          "Orbit"),
          ("Product", "Pricing", "Customers", "Docs", "Blog", "Sign in"),
          ("Ship faster with fewer meetings", "The project tracker your team will actually use",
           "Plan, build and launch in one place"),
          (("Boards and timelines", "See every task, owner and deadline at a glance."),
           ("Automations", "Move work forward with rules that run while you sleep."),
           ("Integrations", "Connect the chat, code and calendar tools you already use."),
           ("Reports", "Track progress with dashboards that update in real time."),
           ("Permissions", "Share the right projects with the right people."),
           ("Mobile apps", "Check in and update tasks from anywhere.")),
          ("Teams of every size use our tools to plan their work and hit their deadlines.",
           "Set up takes minutes, and you can import your projects from a spreadsheet.",
           "Your data is encrypted at rest and in transit, and backed up every hour.",
           "Our support team answers questions around the clock, every day of the year.",
           "Start free and upgrade only when your team grows.",
           "Over two thousand companies switched to us last year."),
          ("Start free trial", "Book a demo", "See pricing")),
    Theme(("Museum", "Gallery", "Art Centre"), ("City", "Riverside", "Holloway", "Eastgate",
                                               "Lantern"),
          ("Exhibitions", "Visit", "Events", "Collection", "Learning", "Shop"),
          ("Art, history and ideas under one roof", "Discover stories from five centuries",
           "Open every day, free for everyone"),
          (("Maps of the world", "Rare charts and globes from the age of exploration."),
           ("Modern portraits", "Faces of the city painted over the last hundred years."),
           ("Textiles and craft", "Quilts, weaving and embroidery from local makers."),
           ("Family Sundays", "Drawing, stories and hands-on activities for children."),
           ("Late openings", "Talks, music and the galleries after dark on Thursdays."),
           ("Guided tours", "Join a curator for an hour among the highlights.")),
          ("Entry to the permanent collection is free, thanks to our members and donors.",
           "The galleries are step-free, with lifts to every floor.",
           "Our cafe on the ground floor serves lunch from noon until three.",
           "School groups can book free workshops led by our learning team.",
           "New exhibitions open every spring and autumn.",
           "Photography without flash is welcome in most rooms."),
          ("Plan your visit", "Become a member", "See what's on")),
    Theme(("Dental Clinic", "Dental Care", "Smile Studio"), ("Parkside", "Maple", "Greenway",
                                                            "Seaview", "Oakfield"),
          ("Treatments", "Our dentists", "Prices", "New patients", "Emergencies", "Book"),
          ("Gentle dental care for the whole family", "Healthy smiles, calm visits",
           "Modern dentistry with a personal touch"),
          (("Check-ups", "A thorough exam and clean every six months."),
           ("Hygiene", "Scale and polish to keep gums healthy and teeth bright."),
           ("Whitening", "Safe, supervised whitening that lasts."),
           ("Implants", "Permanent replacements that look and feel natural."),
           ("Children's dentistry", "Friendly first visits that build good habits."),
           ("Emergency care", "Same-day appointments when you are in pain.")),
          ("We take new patients of all ages and offer evening appointments twice a week.",
           "Nervous patients can ask for longer appointments and a quiet room.",
           "Our prices are listed online, and payment plans are available.",
           "Free parking is available behind the clinic.",
           "Reminders are sent by text two days before your appointment.",
           "Our team has cared for local families for over twenty years."),
          ("Book an appointment", "Register as a new patient", "View prices")),
    Theme(("Coffee Roasters", "Coffee", "Roastery"), ("Copper Kettle", "Black Sheep", "Fieldnote",
                                                     "Harvest", "Little Owl"),
          ("Shop", "Subscriptions", "Cafes", "Wholesale", "Brew guides", "About"),
          ("Small-batch coffee, roasted this week", "Great coffee starts at the farm",
           "Your morning cup, done properly"),
          (("House espresso", "Chocolate, hazelnut and a long caramel finish."),
           ("Ethiopian single origin", "Bright and floral with notes of bergamot."),
           ("Decaf Colombia", "All of the flavour, none of the jitters."),
           ("Subscriptions", "Fresh beans delivered every two or four weeks."),
           ("Brewing kit", "Grinders, kettles and filters we use ourselves."),
           ("Barista training", "Half-day courses for cafes and home enthusiasts.")),
          ("We buy green coffee directly from growers and pay well above market prices.",
           "Every bag is roasted to order and shipped within two days.",
           "Our cafes serve seasonal filters alongside the classics.",
           "Returnable tins cut our packaging waste by half.",
           "Tell us how you brew and we will grind your beans to match.",
           "Free delivery on orders over thirty dollars."),
          ("Shop coffee", "Start a subscription", "Find a cafe")),
    Theme(("Architects", "Design Studio", "Architecture"), ("Stone & Field", "Linea", "Atelier North",
                                                          "Kestrel", "Granary"),
          ("Projects", "Studio", "Approach", "Journal", "Awards", "Contact"),
          ("Buildings that fit their place", "Thoughtful homes and public spaces",
           "Design for the way people live"),
          (("Private homes", "New houses and careful extensions, designed around daylight."),
           ("Schools", "Bright, calm classrooms that teachers love to work in."),
           ("Restoration", "Giving old buildings a second life with care and respect."),
           ("Workplaces", "Offices and studios that help teams do their best work."),
           ("Landscape", "Gardens and courtyards planned with the building."),
           ("Planning advice", "Guidance through permissions and regulations.")),
          ("We work with timber, brick and stone sourced as close to the site as possible.",
           "Every project starts with a long walk around the site and a conversation.",
           "Our buildings use less energy than the regulations require.",
           "The studio has won twelve national awards since it opened.",
           "We keep our team small so that partners lead every project.",
           "Clients are invited to the studio to see models at every stage."),
          ("Start a project", "View our work", "Meet the studio")),
)

FIRST_NAMES = ("Maya", "Omar", "Sofia", "Liam", "Ines", "Kenji", "Amara", "Lucas", "Priya", "Noah",
               "Elena", "Tomas")
LAST_NAMES = ("Chen", "Haddad", "Rossi", "Walsh", "Duarte", "Sato", "Okafor", "Meyer", "Patel",
              "Novak", "Lindqvist", "Moreau")
QUOTES = ("Friendly, quick and honest from start to finish. I would not go anywhere else.",
          "They listened carefully and got every detail right. Highly recommended.",
          "The best decision we made this year. Thank you to the whole team!",
          "Reliable, warm and always happy to help. It feels like family.")
STAT_LABELS = (("years of experience", 12, 45), ("happy customers", 800, 9500),
               ("five-star reviews", 120, 980), ("projects completed", 60, 640),
               ("people on the team", 8, 60), ("cities served", 3, 24))
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FONTS = (("'Helvetica Neue', Arial, sans-serif", "'Helvetica Neue', Arial, sans-serif"),
         ("Georgia, 'Times New Roman', serif", "Arial, sans-serif"),
         ("'Trebuchet MS', Verdana, sans-serif", "Verdana, sans-serif"),
         ("'Palatino Linotype', Palatino, serif", "Georgia, serif"),
         ("'Courier New', monospace", "Arial, sans-serif"),
         ("Verdana, sans-serif", "Tahoma, Verdana, sans-serif"))


def _hex(h: float, s: float, lightness: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h % 1.0, lightness, s)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


@dataclass(frozen=True)
class Design:
    primary: str
    tint: str
    soft: str
    ink: str
    muted: str
    accent: str
    head_font: str
    body_font: str
    base: int
    ratio: float
    width: int
    radius: int
    header: str  # "light" | "dark" | "primary"

    def size(self, step: int) -> int:
        """Font size ``step`` levels up (or down) the modular scale."""
        return round(self.base * self.ratio ** step)


def _design(rng: random.Random) -> Design:
    hue = rng.random()
    accent_shift = rng.choice((0.08, -0.08, 0.1, 0.5))  # analogous, or complementary
    head, body = rng.choice(FONTS)
    return Design(
        primary=_hex(hue, rng.uniform(0.5, 0.75), rng.uniform(0.3, 0.42)),
        tint=_hex(hue, rng.uniform(0.35, 0.7), rng.uniform(0.93, 0.97)),
        soft=_hex(hue, rng.uniform(0.3, 0.5), rng.uniform(0.82, 0.88)),
        ink=_hex(hue, 0.25, rng.uniform(0.1, 0.16)),
        muted=_hex(hue, 0.1, rng.uniform(0.35, 0.42)),
        accent=_hex(hue + accent_shift, rng.uniform(0.55, 0.8), rng.uniform(0.45, 0.55)),
        head_font=head, body_font=body, base=rng.choice((14, 15, 16, 16, 17, 18)),
        ratio=rng.choice((1.2, 1.25, 1.333, 1.414)), width=rng.choice((960, 1040, 1120, 1200)),
        radius=rng.choice((0, 4, 8, 12, 16)), header=rng.choice(("light", "dark", "primary")))


def esc(text: str) -> str:
    return html.escape(text, quote=True)


class _Page:
    """The page being written for one seed: its random stream, theme, design and name."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.theme = rng.choice(THEMES)
        self.design = _design(rng)
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


def _css(d: Design) -> str:
    head_bg, head_fg = {"light": ("#ffffff", d.ink), "dark": (d.ink, "#ffffff"),
                        "primary": (d.primary, "#ffffff")}[d.header]
    return f"""
* {{ box-sizing: border-box; }}
body {{ margin: 0; font-family: {d.body_font}; font-size: {d.base}px; line-height: 1.55;
       color: {d.ink}; background: #ffffff; }}
h1, h2, h3, h4 {{ font-family: {d.head_font}; line-height: 1.2; margin: 0 0 0.5em; }}
h1 {{ font-size: {d.size(4)}px; }} h2 {{ font-size: {d.size(3)}px; }}
h3 {{ font-size: {d.size(1)}px; }} h4 {{ font-size: {d.base}px; text-transform: uppercase; }}
p {{ margin: 0 0 1em; }}
a {{ color: {d.primary}; }}
.wrap {{ max-width: {d.width}px; margin: 0 auto; padding: 0 24px; }}
.narrow {{ max-width: {min(d.width, 760)}px; }}
.center {{ text-align: center; }}
.grid {{ display: grid; gap: 28px; }}
.cols2 {{ display: grid; grid-template-columns: 1fr 1fr; gap: 48px; align-items: start; }}
.middle {{ align-items: center; }}
section {{ padding: {d.base * 4}px 0; }}
.band {{ background: {d.tint}; }}
.top {{ background: {head_bg}; color: {head_fg}; border-bottom: 1px solid rgba(0,0,0,0.08); }}
.bar {{ display: flex; align-items: center; gap: 32px; min-height: 72px; }}
.logo {{ display: flex; align-items: center; gap: 10px; font-family: {d.head_font};
         font-size: {d.size(1)}px; font-weight: 700; color: inherit; text-decoration: none; }}
.top nav {{ display: flex; gap: 24px; margin-left: auto; }}
.top nav a {{ color: inherit; text-decoration: none; }}
.button {{ display: inline-block; padding: 12px 22px; border-radius: {d.radius}px;
           background: {d.primary}; color: #ffffff; font-weight: 700; text-decoration: none;
           border: 2px solid {d.primary}; }}
.top.primary .button {{ background: #ffffff; color: {d.primary}; border-color: #ffffff; }}
.button.ghost {{ background: transparent; color: {d.primary}; }}
.actions {{ display: flex; gap: 16px; margin-top: 24px; }}
.center .actions {{ justify-content: center; }}
.hero {{ padding: {d.base * 6}px 0; }}
.hero h1 {{ max-width: 16em; }}
.center h1 {{ margin-left: auto; margin-right: auto; }}
.lead {{ font-size: {d.size(1)}px; color: {d.muted}; }}
.eyebrow {{ font-size: {d.size(-1)}px; letter-spacing: 0.08em; text-transform: uppercase;
            font-weight: 700; color: {d.primary}; }}
.intro {{ color: {d.muted}; max-width: 40em; margin-bottom: 32px; }}
.pic {{ display: block; width: 100%; height: auto; border-radius: {d.radius}px; }}
.card {{ background: #ffffff; border: 1px solid rgba(0,0,0,0.1); border-radius: {d.radius}px;
         overflow: hidden; }}
.card .pic {{ border-radius: 0; }}
.card-body {{ padding: 20px 22px 24px; }}
.card p {{ color: {d.muted}; }}
.more {{ font-weight: 700; }}
.side h3 {{ font-size: {d.base}px; text-transform: uppercase; letter-spacing: 0.06em;
            color: {d.muted}; }}
.side {{ border-left: 3px solid {d.tint}; padding-left: 20px; }}
.plain {{ list-style: none; padding: 0; margin: 0 0 24px; }}
.plain li {{ padding: 4px 0; }}
.article ul {{ padding-left: 20px; }}
.article li {{ margin-bottom: 8px; }}
.feature {{ display: flex; gap: 16px; align-items: flex-start; }}
.feature svg {{ flex: none; }}
.stats {{ background: {d.ink}; color: #ffffff; }}
.stat p {{ margin: 0; }}
.number {{ font-family: {d.head_font}; font-size: {d.size(4)}px; font-weight: 700;
           color: {d.accent}; }}
blockquote {{ margin: 0 0 16px; font-family: {d.head_font}; font-size: {d.size(2)}px;
              font-style: italic; }}
.who {{ color: {d.muted}; }}
table {{ width: 100%; border-collapse: collapse; margin-bottom: 16px; }}
th, td {{ text-align: left; padding: 12px 8px; border-bottom: 1px solid rgba(0,0,0,0.12); }}
th {{ background: {d.tint}; }}
.note {{ font-size: {d.size(-1)}px; color: {d.muted}; }}
.cta {{ background: {d.primary}; color: #ffffff; }}
.cta .button {{ background: #ffffff; color: {d.primary}; border-color: #ffffff; }}
footer {{ background: {d.tint}; padding: 48px 0 24px; font-size: {d.size(-1)}px; }}
footer a {{ color: {d.ink}; }}
.logo-text {{ font-family: {d.head_font}; font-size: {d.size(1)}px; font-weight: 700; }}
.legal {{ margin-top: 32px; color: {d.muted}; }}
"""


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
<style>{_css(page.design)}</style>
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
