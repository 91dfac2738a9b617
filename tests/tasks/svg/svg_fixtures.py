"""Shared pieces of the svg tests: the ladders come from the library
(``designrl.tasks.svg.ladders``), so the tests and ``bench/reward_validity.py`` rank the same
completions; ``rough_verdicts`` scores requirements on a drawing with the rough raster (no
browser)."""

from __future__ import annotations

from designrl.tasks.svg import score_svg
from designrl.tasks.svg.facts import svg_facts
from designrl.tasks.svg.ladders import LADDER_SVGS as LADDERS
from designrl.tasks.svg.ladders import fenced, ladders
from designrl.tasks.svg.parse import parse_svg
from designrl.tasks.svg.raster import rasterize

NS = 'xmlns="http://www.w3.org/2000/svg"'

__all__ = ["LADDERS", "NS", "fenced", "ladders", "rough_verdicts"]


def rough_verdicts(body: str, requirements: list[str], view: str = "0 0 400 400") -> list[str]:
    """Each requirement's verdict on ``<svg viewBox=view>body</svg>``, rasterised roughly."""
    facts = svg_facts(parse_svg(f'<svg {NS} viewBox="{view}">{body}</svg>'))
    return [d.verdict for d in score_svg(facts, rasterize(facts), requirements).details]
