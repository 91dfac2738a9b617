"""The svg family's floor: a few random shapes in random colours, seeded.

It reads neither the prompt nor the requirements, so every table has a baseline
that a policy must beat by drawing what was asked.
"""

from __future__ import annotations

import random

from designrl.tasks.svg.spec import SvgItem

COLOURS = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
           "#f032e6", "#808080", "#000000", "#ffffff")


def random_svg(item: SvgItem, seed: int = 0) -> str:
    """A valid SVG of 2–6 random shapes, the same for the same item and seed."""
    rng = random.Random(f"{item.id} {seed}")
    shapes = []
    for _ in range(rng.randint(2, 6)):
        fill = rng.choice(COLOURS)
        x, y = rng.randint(20, 380), rng.randint(20, 380)
        kind = rng.choice(("circle", "rect", "ellipse"))
        if kind == "circle":
            shapes.append(f'<circle cx="{x}" cy="{y}" r="{rng.randint(10, 60)}" fill="{fill}"/>')
        elif kind == "rect":
            shapes.append(f'<rect x="{x - 40}" y="{y - 30}" width="{rng.randint(20, 120)}" '
                          f'height="{rng.randint(20, 120)}" fill="{fill}"/>')
        else:
            shapes.append(f'<ellipse cx="{x}" cy="{y}" rx="{rng.randint(10, 70)}" '
                          f'ry="{rng.randint(10, 50)}" fill="{fill}"/>')
    body = "\n  ".join(shapes)
    return ('```svg\n<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" '
            f'viewBox="0 0 400 400">\n  <rect width="400" height="400" '
            f'fill="{rng.choice(COLOURS)}"/>\n  {body}\n</svg>\n```')
