"""The svg expert: a model-free drawing of what an item's requirements ask for.

It reads only the requirement sentences (through ``parse_requirement``, the
same reader the reward uses), so it works on generated items, designrl's own
prompts and SVGBench-style questions alike; sentences no computed check reads
are ignored. From the predicates ``plan`` collects:

* the canvas size and background colour;
* groups of identical shapes (kind, colour, count, outline, quoted text), one
  per shape the requirements name, then more shapes until every count holds
  ("exactly 3 circles", "at least 5 shapes") without breaking an exact one;
* colours (``palette``): "all stars must be yellow", colours a palette must use
  (given to a shape without a colour, else as an outline), and for the rest
  colours that no requirement names, so no count of "red circles" grows by accident.

``layout`` gives each group one cell on a grid (3 x 3, larger for long chains),
found by a small search that meets every "above"/"left of" order and every
"in the top left corner"/"centered" placement; a group that must be inside
another is drawn inside its first shape, sized to fit. ``draw`` writes the SVG.

The reply is what a model would send: one ```svg block holding a complete SVG
document. It is deterministic; ``seed`` only varies which of the valid layouts
is drawn. It is the svg family's SFT teacher.
"""

from __future__ import annotations

from designrl.policies.svg_expert.draw import write_svg
from designrl.policies.svg_expert.plan import Plan
from designrl.tasks.svg.requirements import parse_requirement
from designrl.tasks.svg.spec import SvgItem

__all__ = ["draw_svg"]


def draw_svg(item: SvgItem, seed: int = 0) -> str:
    """A completion for ``item``: one fenced SVG document drawing what its requirements ask."""
    predicates = [p for p in (parse_requirement(r) for r in item.requirements) if p is not None]
    return f"```svg\n{write_svg(Plan(predicates), seed)}\n```"
