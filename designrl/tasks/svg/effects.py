"""Ways an SVG can show colours its shapes' paints do not list.

The reader may say a colour is *absent* only when neither the render nor any visible
shape's paint shows it; that second half holds only when the paints are the whole
story. Images, filters (a flood, a colour matrix, a drop shadow), blend modes, markers
(drawn shapes the walker does not list), ``<foreignObject>`` and animations can each
put colours on the page that no ``fill`` or ``stroke`` names, so an SVG using any of
them never has a colour called absent.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from designrl.tasks.svg.parse import local_name

EFFECT_TAGS = frozenset({"image", "filter", "foreignObject", "marker", "animate", "set",
                         "animateColor", "feImage"})
EFFECT_PROPERTIES = ("filter", "mix-blend-mode", "marker", "marker-start", "marker-mid",
                     "marker-end", "animation")


def colour_effects(root: Element) -> tuple[str, ...]:
    """The features of ``root`` that can paint colours no shape lists (empty: none)."""
    found: dict[str, None] = {}
    for element in root.iter():
        tag = local_name(element.tag)
        if tag in EFFECT_TAGS:
            found[f"<{tag}>"] = None
        if tag == "style" and any(word in (element.text or "") for word in
                                  (*EFFECT_PROPERTIES, "@keyframes")):
            found["a stylesheet with filters, blending, markers or animation"] = None
        style = (element.get("style") or "").lower()
        for name in EFFECT_PROPERTIES:
            if element.get(name) is not None or f"{name}:" in style.replace(" ", ""):
                found[name] = None
    return tuple(found)
