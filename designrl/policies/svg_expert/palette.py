"""The colours the svg expert paints with: the RGB a colour phrase is drawn in (one no other
requirement's colour answers to), colours no requirement names, and black or white for
contrast."""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence
from functools import lru_cache

from designrl.tasks.svg.colour_names import RGB, ColorSpec, hsl
from designrl.tasks.svg.predicates import (
    AllColored,
    Outlined,
    Placement,
    Predicate,
    Relation,
    ShapeCount,
)

FAMILY_RGB: dict[str, RGB] = {
    "red": (220, 20, 20), "orange": (255, 140, 0), "yellow": (255, 215, 0),
    "green": (34, 139, 34), "cyan": (0, 188, 212), "blue": (30, 90, 220),
    "purple": (123, 44, 191), "magenta": (214, 26, 170), "pink": (255, 150, 190),
    "brown": (139, 69, 19), "black": (20, 20, 20), "white": (255, 255, 255),
    "gray": (128, 128, 128),
}
FREE_ORDER = ("blue", "red", "green", "orange", "purple", "yellow", "cyan", "brown",
              "magenta", "gray", "black", "white")
"""Colours for shapes no requirement colours, tried in this order."""


def mentioned_colors(predicates: Sequence[Predicate]) -> tuple[ColorSpec, ...]:
    """Colours that requirements pick shapes by (a shape given another colour must not
    answer to them)."""
    found: list[ColorSpec] = []
    for p in predicates:
        if isinstance(p, ShapeCount | Outlined | Placement):
            sels = [p.selector]
        elif isinstance(p, AllColored):
            sels = [p.selector]
            found.append(p.color)
        elif isinstance(p, Relation):
            sels = [p.a, p.b]
        else:
            sels = []
        found += [s.color for s in sels if s.color is not None]
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=1024)
def choose_rgb(spec: ColorSpec, avoid: tuple[ColorSpec, ...] = ()) -> RGB:
    """A colour ``spec`` names, if possible one that no other colour in ``avoid`` names too."""
    base = _canonical(spec)
    others = [a for a in avoid if a.text != spec.text and not a.matches(base)]
    if spec.rgb is not None or not any(a.matches(base) for a in others):
        return base
    for rgb in _candidates():
        if spec.matches(rgb) and not any(a.matches(rgb) for a in others):
            return rgb
    return base


def choose_free_rgb(taken: list[RGB], mentioned: Sequence[ColorSpec], background: RGB) -> RGB:
    """A colour no requirement names, far from the background and the other shapes."""
    for strict in (True, False):
        for rgb in (FAMILY_RGB[name] for name in FREE_ORDER):
            if any(spec.matches(rgb) for spec in mentioned):
                continue
            if rgb_distance(rgb, background) < 120:
                continue
            if strict and any(rgb_distance(rgb, t) < 60 for t in taken):
                continue
            return rgb
    return contrast_rgb(background)


def contrast_rgb(rgb: RGB) -> RGB:
    """Black or white, whichever stands out more on ``rgb``."""
    luminance = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (20, 20, 20) if luminance > 140 else (255, 255, 255)


def rgb_distance(a: RGB | None, b: RGB) -> float:
    if a is None:
        return 0.0
    return math.dist(a, b)


def _canonical(spec: ColorSpec) -> RGB:
    if spec.rgb is not None:
        return spec.rgb
    family = spec.family or "gray"
    base = FAMILY_RGB.get(family, (128, 128, 128))
    tweak = {"light": 0.75, "pale": 0.82, "pastel": 0.8, "dark": 0.25, "deep": 0.28}
    if spec.modifier in tweak:
        hue, sat, _ = hsl(base)
        if family == "gray":
            level = round(255 * tweak[spec.modifier])
            base = (level, level, level)
        else:
            base = _from_hsl(hue, max(sat, 0.6), tweak[spec.modifier])
    if spec.matches(base):
        return base
    return next((rgb for rgb in _candidates() if spec.matches(rgb)), base)


@lru_cache(maxsize=1)
def _candidates() -> tuple[RGB, ...]:
    """An ordered sweep of colours to search when the canonical one does not fit."""
    out = []
    for light in (0.5, 0.4, 0.6, 0.3, 0.7, 0.25, 0.8, 0.15, 0.9, 0.05, 0.97):
        for sat in (0.9, 0.6, 0.3, 0.0):
            for hue in range(0, 360, 6):
                out.append(_from_hsl(hue, sat, light))
    return tuple(dict.fromkeys(out))


def _from_hsl(hue: float, sat: float, light: float) -> RGB:
    r, g, b = colorsys.hls_to_rgb(hue / 360, light, sat)
    return (round(r * 255), round(g * 255), round(b * 255))
