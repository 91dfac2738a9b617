"""The frame a page is assembled in: the parts the request names, then a header with the
brand (and a nav when there are sections to go to), a footer, the stylesheet and the scripts,
as one ```html fence."""

from __future__ import annotations

import html
import random
import re
import zlib

from designrl.policies.webpage_template.block import Context, esc
from designrl.policies.webpage_template.content import name_brand
from designrl.policies.webpage_template.parts import BUILDERS
from designrl.policies.webpage_template.request import read_request
from designrl.policies.webpage_template.theme import FONTS, PALETTES, write_css
from designrl.tasks.webpage.spec import WebpageItem

LOGO = ("<svg viewBox='0 0 28 28' aria-hidden='true' focusable='false'>"
        "<rect width='28' height='28' rx='8' fill='var(--primary)'/>"
        "<path d='M8 18l6-9 6 9z' fill='#ffffff'/></svg>")


def build_page(item: WebpageItem, seed: int = 0) -> str:
    """A complete page for the item's request, in one ```html fence, as a model would reply."""
    req = read_request(item.prompt)
    rng = random.Random(f"{item.id}|{seed}")
    palette = PALETTES[(zlib.crc32(item.id.encode()) + seed) % len(PALETTES)]
    body_font, head_font = FONTS[seed % len(FONTS)]
    ctx = Context(req, rng, palette, name_brand(req, rng))
    for part in req.parts:
        ctx.blocks.extend(BUILDERS[part](ctx))
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
    css = write_css(palette, rng.choice((10, 12, 16)), body_font, head_font)
    scripts = "\n".join(b.script for b in blocks if b.script)
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
