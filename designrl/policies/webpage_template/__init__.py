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
* each part (``parts``) is a ``Block`` (its section, its nav label, its script) written in one
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

from designrl.policies.webpage_template.page import build_page
from designrl.policies.webpage_template.request import Request, read_request

__all__ = ["Request", "build_page", "read_request"]
