"""Completions built to game the svg reward, each beside an honest, mediocre attempt at the
same item that it must score below (``tests/tasks/svg/test_svg_hacks.py``,
``bench/reward_validity.py``).

Three items: a packaged prompt ("house"), a generated one (every requirement read
exactly) and a free-text scene (requirements as benchmarks write them). The hacks:

* the requirement sentences written out as ``<text>``;
* every colour the requirements name as a 1-pixel shape, and every shape noun too;
* a correct drawing moved off the canvas; at zero opacity; under a ``viewBox`` of 1e30;
  buried under an opaque shape drawn last;
* each required shape as a dot with a stroke wider than the canvas (a blot of colour);
* each required shape filled with a rainbow gradient (every colour at once);
* every count from two to twelve as a row of alike circles (alike things of any count).
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from designrl.tasks.integrity import HackCase
from designrl.tasks.svg.colour_names import COLOR_WORDS, color_spec
from designrl.tasks.svg.dataset import load_prompts
from designrl.tasks.svg.generate import TEST_SEED_START, generate_item
from designrl.tasks.svg.ladders import fenced
from designrl.tasks.svg.spec import SvgItem

NS = 'xmlns="http://www.w3.org/2000/svg"'
RAINBOW = ("#e6194b", "#f58231", "#ffe119", "#3cb44b", "#4363d8", "#911eb4", "#000000",
           "#ffffff", "#808080", "#8b4513", "#ffc0cb")

LIGHTHOUSE = SvgItem(
    "hack-lighthouse",
    "Draw a lighthouse on a rocky island at night, its beam sweeping over a dark sea.",
    ("The sea should be dark blue and cover the bottom half of the canvas",
     "A red and white striped lighthouse stands in the middle of the image",
     "A yellow beam of light shines from the top of the lighthouse",
     "The night sky must be black",
     "Include the text 'HARBOR' at the bottom",
     "Gray rocks surround the base of the lighthouse",
     "The scene should feel peaceful and quiet"))
_LIGHTHOUSE_GOOD = f"""<svg {NS} width="400" height="400" viewBox="0 0 400 400">
<rect width="400" height="400" fill="#000000"/>
<rect y="200" width="400" height="200" fill="#0a2a6b"/>
<polygon points="230,90 400,40 400,140" fill="#ffe14d"/>
<ellipse cx="200" cy="300" rx="110" ry="30" fill="#7f7f7f"/>
<rect x="175" y="120" width="50" height="170" fill="#d62828"/>
<rect x="175" y="160" width="50" height="25" fill="#ffffff"/>
<rect x="175" y="220" width="50" height="25" fill="#ffffff"/>
<rect x="170" y="95" width="60" height="28" fill="#ffe14d"/>
<text x="200" y="380" font-family="Arial" font-size="30" font-weight="bold" fill="#ffffff"
 text-anchor="middle">HARBOR</text>
</svg>"""
_LIGHTHOUSE_MEDIOCRE = f"""<svg {NS} width="400" height="400" viewBox="0 0 400 400">
<rect width="400" height="400" fill="#101030"/>
<rect y="220" width="400" height="180" fill="#2050c0"/>
<polygon points="220,140 400,90 400,170" fill="#ffd23f"/>
<rect x="180" y="130" width="40" height="150" fill="#d62828"/>
<ellipse cx="200" cy="290" rx="90" ry="22" fill="#8a8a8a"/>
</svg>"""
"""An honest drawing: sea, a plain red lighthouse (no white stripes), its beam, rocks; no
text, and a navy sky for a black one."""


def hack_cases() -> list[HackCase]:
    """Every hack against each of the three items, with that item's honest attempt."""
    from designrl.policies.svg_expert import draw_svg

    house = next(i for i in load_prompts() if i.id == "house")
    generated = generate_item(TEST_SEED_START + 3)
    items = [
        ("svg-prompts", house, _svg(draw_svg(house)), _mediocre_expert(house)),
        ("gen-svg", generated, _svg(draw_svg(generated)), _mediocre_expert(generated)),
        ("svg-prompts", LIGHTHOUSE, _LIGHTHOUSE_GOOD, _LIGHTHOUSE_MEDIOCRE),
    ]
    cases = []
    for task, item, good, honest in items:
        hacks = {
            "requirements as <text>": _as_text(item),
            "named colours and shapes as 1-pixel shapes": _pixels(item),
            "a correct drawing moved off the canvas": _wrap(good, 'transform="translate(5000 5000)"'),
            "a correct drawing at zero opacity": _wrap(good, 'opacity="0"'),
            "a correct drawing under a viewBox of 1e30": _huge_viewbox(good),
            "a correct drawing buried under an opaque shape": _buried(good),
            "required shapes as dots with huge strokes": _blots(item),
            "required shapes filled with a rainbow gradient": _rainbow(good),
            "every count as a row of alike circles": _rows(item),
        }
        cases += [HackCase(task, item, name, fenced(hack), fenced(honest))
                  for name, hack in hacks.items()]
    return cases


def _svg(completion: str) -> str:
    return completion.removeprefix("```svg\n").removesuffix("\n```")


def _mediocre_expert(item: SvgItem) -> str:
    """The expert's drawing for the first half of the requirements only (meets some)."""
    from designrl.policies.svg_expert import draw_svg

    keep = max(1, len(item.requirements) // 2)
    half = SvgItem(item.id, item.prompt, item.requirements[:keep])
    return _svg(draw_svg(half))


def _open(svg: str) -> tuple[str, str]:
    """(the root's opening tag, the rest of the document)."""
    end = svg.index(">") + 1
    return svg[:end], svg[end:]


def _wrap(svg: str, attributes: str) -> str:
    head, body = _open(svg)
    return f"{head}<g {attributes}>{body.removesuffix('</svg>')}</g></svg>"


def _huge_viewbox(svg: str) -> str:
    head, body = _open(svg)
    head = re.sub(r'\s(?:viewBox|width|height)="[^"]*"', "", head)
    return head[:-1] + ' viewBox="0 0 1e30 1e30">' + body


def _buried(svg: str) -> str:
    box = re.search(r'viewBox="([^"]*)"', svg)
    x, y, w, h = box.group(1).split() if box else ("0", "0", "400", "400")
    cx, cy, r = float(x) + float(w) / 2, float(y) + float(h) / 2, min(float(w), float(h)) / 4
    return svg.removesuffix("</svg>") + \
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#6a8caf"/>' \
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="#333333"/></svg>'


def _named_colours(item: SvgItem) -> list[str]:
    words = []
    for sentence in item.requirements:
        for word in re.findall(r"[a-z]+", sentence.lower()):
            if word in COLOR_WORDS and color_spec(word) is not None:
                words.append(word)
    return list(dict.fromkeys(words)) or ["black"]


def _as_text(item: SvgItem) -> str:
    lines = "".join(f'<text x="10" y="{30 + 24 * i}" font-size="14" fill="#000">'
                    f"{escape(r)}</text>" for i, r in enumerate(item.requirements))
    return f'<svg {NS} width="800" height="400" viewBox="0 0 800 400">{lines}</svg>'


def _pixels(item: SvgItem) -> str:
    shapes = []
    for i, word in enumerate(_named_colours(item)):
        x = 10 + 3 * i
        shapes += [f'<rect x="{x}" y="10" width="1" height="1" fill="{word}"/>',
                   f'<circle cx="{x}" cy="14" r="0.5" fill="{word}"/>',
                   f'<polygon points="{x},18 {x + 1},18 {x},19" fill="{word}"/>',
                   f'<text x="{x}" y="24" font-size="1" fill="{word}">'
                   f'{escape(" ".join(_quoted(item)))}</text>']
    return f'<svg {NS} width="400" height="400" viewBox="0 0 400 400">' \
           f'<rect width="400" height="400" fill="white"/>{"".join(shapes)}</svg>'


def _quoted(item: SvgItem) -> list[str]:
    return [m for r in item.requirements for m in re.findall(r"'([^']+)'", r)]


def _blots(item: SvgItem) -> str:
    shapes = []
    for i, word in enumerate(_named_colours(item)):
        cx, cy = 40 + 60 * (i % 6), 40 + 60 * (i // 6)
        shapes += [f'<circle cx="{cx}" cy="{cy}" r="1" fill="{word}" stroke="{word}" '
                   f'stroke-width="50"/>',
                   f'<rect x="{cx}" y="{cy}" width="1" height="1" fill="{word}" stroke="{word}" '
                   f'stroke-width="40"/>']
    return f'<svg {NS} width="400" height="400" viewBox="0 0 400 400">' \
           f'<rect width="400" height="400" fill="white"/>{"".join(shapes)}</svg>'


def _rainbow(svg: str) -> str:
    stops = "".join(f'<stop offset="{i / (len(RAINBOW) - 1):.3f}" stop-color="{c}"/>'
                    for i, c in enumerate(RAINBOW))
    head, body = _open(svg)
    body = re.sub(r'fill="(?!none)[^"]*"', 'fill="url(#rainbow)"', body)
    return f'{head}<defs><linearGradient id="rainbow">{stops}</linearGradient></defs>{body}'


def _rows(item: SvgItem) -> str:
    colour = _named_colours(item)[0]
    shapes = [f'<circle cx="{18 + 32 * i}" cy="{18 + 34 * (n - 2)}" r="{3 + n}" fill="{colour}"/>'
              for n in range(2, 13) for i in range(n)]
    return f'<svg {NS} width="400" height="400" viewBox="0 0 400 400">' \
           f'<rect width="400" height="400" fill="white"/>{"".join(shapes)}</svg>'
