"""What the template's parts say when the request does not: feature cards, FAQs and quiz
questions for a few topics (with a general fallback), tables, cities and made-up brands."""

from __future__ import annotations

import random

from designrl.policies.webpage_template.request import Request

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


def name_brand(req: Request, rng: random.Random) -> str:
    """The request's brand, else a made-up one that fits its topic."""
    if req.brand:
        return req.brand
    name = rng.choice(BRAND_PARTS[0]) + rng.choice(BRAND_PARTS[1])
    suffix = {"books": " Books", "shoes": " Running", "space": " Academy", "food": " Kitchen",
              "photo": " Studio"}.get(req.topic, "")
    if "weather" in req.parts:
        suffix = " Weather"
    return name + suffix
