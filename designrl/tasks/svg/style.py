"""The computed style of SVG elements: presentation attributes, ``style=``, ``<style>`` rules.

Only the properties the checks read are computed (paint, opacity, visibility,
font size, text anchor). Cascade order, lowest first: inherited value,
presentation attribute, stylesheet rules by specificity then source order,
inline ``style=``. Stylesheet selectors are the simple ones models write
(``tag``, ``.class``, ``#id``, ``tag.class``, ``*``, comma lists); rules with
combinators, pseudo-classes or at-rules are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from designrl.tasks.svg.parse import is_svg_element, local_name

PROPERTIES = ("fill", "stroke", "stroke-width", "opacity", "fill-opacity", "stroke-opacity",
              "display", "visibility", "color", "font-size", "text-anchor", "stop-color",
              "stop-opacity")
INHERITED = frozenset({"fill", "stroke", "stroke-width", "fill-opacity", "stroke-opacity",
                       "visibility", "color", "font-size", "text-anchor"})
INITIAL = {"fill": "black", "stroke": "none", "stroke-width": "1", "fill-opacity": "1",
           "stroke-opacity": "1", "visibility": "visible", "color": "black",
           "font-size": "16", "text-anchor": "start", "opacity": "1", "display": "inline",
           "stop-color": "black", "stop-opacity": "1"}

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE = re.compile(r"^(\*|[a-zA-Z][\w-]*)?((?:[.#][\w-]+)*)$")


@dataclass(frozen=True)
class _Rule:
    specificity: tuple[int, int, int]
    order: int
    tag: str | None
    ids: tuple[str, ...]
    classes: tuple[str, ...]
    declarations: dict[str, str]

    def matches(self, element: Element) -> bool:
        if self.tag is not None and self.tag != local_name(element.tag):
            return False
        if self.ids and element.get("id") not in self.ids:
            return False
        classes = set((element.get("class") or "").split())
        return all(c in classes for c in self.classes)


def parse_declarations(text: str) -> dict[str, str]:
    """``"fill: red; stroke:blue !important"`` -> ``{"fill": "red", "stroke": "blue"}``."""
    out: dict[str, str] = {}
    for part in text.split(";"):
        name, sep, value = part.partition(":")
        name = name.strip().lower()
        if sep and name in PROPERTIES:
            out[name] = value.replace("!important", "").strip()
    return out


class Stylesheet:
    """The simple rules of all ``<style>`` elements in a document."""

    def __init__(self, root: Element) -> None:
        self.rules: list[_Rule] = []
        for element in root.iter():
            if is_svg_element(element) and local_name(element.tag) == "style":
                self._add("".join(element.itertext()))
        self.rules.sort(key=lambda r: (r.specificity, r.order))

    def _add(self, css: str) -> None:
        css = _COMMENT.sub("", css)
        for selectors, body in _RULE.findall(css):
            if selectors.strip().startswith("@"):
                continue
            declarations = parse_declarations(body)
            if not declarations:
                continue
            for selector in selectors.split(","):
                found = _SIMPLE.match(selector.strip())
                if not found or not selector.strip():
                    continue
                tag = found.group(1)
                parts = re.findall(r"[.#][\w-]+", found.group(2))
                ids = tuple(p[1:] for p in parts if p[0] == "#")
                classes = tuple(p[1:] for p in parts if p[0] == ".")
                spec = (len(ids), len(classes), 1 if tag and tag != "*" else 0)
                self.rules.append(_Rule(spec, len(self.rules), None if tag in (None, "*") else tag,
                                        ids, classes, declarations))

    def declarations_for(self, element: Element) -> dict[str, str]:
        out: dict[str, str] = {}
        for rule in self.rules:
            if rule.matches(element):
                out.update(rule.declarations)
        return out


def compute_style(element: Element, parent: dict[str, str], sheet: Stylesheet) -> dict[str, str]:
    """The element's computed properties given its parent's computed ones."""
    style = {name: parent[name] for name in INHERITED if name in parent}
    for name in PROPERTIES:
        if name not in style and name in INITIAL and name in INHERITED:
            style[name] = INITIAL[name]
    for name in PROPERTIES:
        value = element.get(name)
        if value is not None:
            style[name] = value.strip()
    style.update(sheet.declarations_for(element))
    style.update(parse_declarations(element.get("style") or ""))
    for name, value in list(style.items()):
        if value == "inherit":
            style[name] = parent.get(name, INITIAL.get(name, ""))
    return style
