"""The parts a page is built from, one builder per part a request can name (the names in
``request.PART_PATTERNS``); each turns a ``Context`` into the page's next sections."""

from __future__ import annotations

from collections.abc import Callable

from designrl.policies.webpage_template.block import Block, Context
from designrl.policies.webpage_template.parts.apps import calculator, todo
from designrl.policies.webpage_template.parts.data import chart, table
from designrl.policies.webpage_template.parts.forms import contact
from designrl.policies.webpage_template.parts.gallery import gallery
from designrl.policies.webpage_template.parts.landing import features, hero, pricing
from designrl.policies.webpage_template.parts.product import product
from designrl.policies.webpage_template.parts.questions import faq, quiz
from designrl.policies.webpage_template.parts.tabs import tabs
from designrl.policies.webpage_template.parts.weather import weather

BUILDERS: dict[str, Callable[[Context], list[Block]]] = {
    "hero": hero, "features": features, "pricing": pricing, "todo": todo, "contact": contact,
    "gallery": gallery, "calculator": calculator, "faq": faq, "weather": weather,
    "product": product, "quiz": quiz, "tabs": tabs, "chart": chart, "table": table}
