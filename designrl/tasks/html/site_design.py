"""How generated html pages look: a design drawn from a seed's random stream (palette
from a base hue, font pairing, modular type scale, container width, radius, header
style) and the stylesheet it writes."""

from __future__ import annotations

import colorsys
import random
from dataclasses import dataclass

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


def draw_design(rng: random.Random) -> Design:
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


def stylesheet(d: Design) -> str:
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
