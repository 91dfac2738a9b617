"""Ladders of ever worse copies of a page, for checking that the reward ranks them.

Two ladders, each (name, html) from best to worst:

* ``ladder(html, seed)``, the first one: the reference, small text edits, changed
  colours, shuffled layout, styles removed, text removed, blank;
* ``style_ladder(html, seed)``, Design2Code-style changes of style only: the
  reference, a minor text edit, colours changed, the later half of the page
  unstyled, the layout declarations removed, all styles removed, blank.

A reward that measures the right thing scores each in its order (``ladders.py``
gathers the ones the bench and tests run). ``near_blank`` is a page with one
short line of the reference's text, the floor a reward must hold near 0.

Every page is rewritten with lxml and written back with the reference's own
doctype (or none): a page without one renders in quirks mode, and giving it one
would change its layout, not only the step's.
"""

from __future__ import annotations

import colorsys
import html as html_lib
import random
import re

import lxml.html

from designrl.tasks.html.css import filter_block, filter_declarations

LADDER = ("reference", "text_edits", "colors", "shuffled", "no_styles", "no_text", "blank")
STYLE_LADDER = ("reference", "minor_text_edit", "colors_changed", "half_styles", "no_layout",
                "no_styles", "blank")
_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
_RGB = re.compile(r"rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)")
HUE_TURN = 0.42  # about 150 degrees
_SKIP = {"script", "style", "head", "title", "meta", "link"}
_DOCTYPE = re.compile(r"^\s*(?:<!--.*?-->\s*)*(<!doctype[^>]*>)", re.I | re.S)


def _parse(html: str):
    return lxml.html.document_fromstring(html)


def _serialise(root, source: str) -> str:
    """The tree as HTML, with ``source``'s doctype when it has one (none otherwise)."""
    found = _DOCTYPE.match(source)
    if found is None:
        return lxml.html.tostring(root, encoding="unicode")
    return lxml.html.tostring(root, doctype=found.group(1), encoding="unicode")


def _text_nodes(root):
    """(element, attribute) pairs holding visible text: 'text' or 'tail'."""
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in _SKIP:
            continue
        if element.text and element.text.strip():
            yield element, "text"
        parent = element.getparent()
        if element.tail and element.tail.strip() and parent is not None and parent.tag not in _SKIP:
            yield element, "tail"


def text_edits(html: str, seed: int = 0, share: float = 0.1) -> str:
    """Replace about ``share`` of the words with a scrambled copy of themselves."""
    rng = random.Random(seed)
    root = _parse(html)
    for element, attr in _text_nodes(root):
        words = getattr(element, attr).split(" ")
        for k, word in enumerate(words):
            if len(word) > 3 and rng.random() < share:
                words[k] = "".join(rng.sample(word, len(word)))
        setattr(element, attr, " ".join(words))
    return _serialise(root, html)


def minor_text_edit(html: str, seed: int = 0) -> str:
    """A few words (about one in twenty of the longer ones) scrambled in place."""
    return text_edits(html, seed, share=0.05)


def _rotate(r: int, g: int, b: int, turn: float = HUE_TURN) -> tuple[int, int, int]:
    """The colour with its hue turned by ``turn`` (a fraction of the circle); grey stays."""
    h, lightness, saturation = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
    out = colorsys.hls_to_rgb((h + turn) % 1.0, lightness, saturation)
    return tuple(round(v * 255) for v in out)


def _rotate_hex(match: re.Match) -> str:
    value = match.group(1)
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    n = int(value, 16)
    r, g, b = _rotate(n >> 16, (n >> 8) & 255, n & 255)
    return f"#{r:02x}{g:02x}{b:02x}"


def _rotate_rgb(match: re.Match) -> str:
    r, g, b = _rotate(*(min(255, int(v)) for v in match.groups()))
    return match.group(0).split("(")[0] + f"({r}, {g}, {b}"


def colors(html: str, seed: int = 0) -> str:
    """Turn the hue of every colour literal, and tint the default text colour: the page
    keeps its lightness and layout but not its palette."""
    html = _RGB.sub(_rotate_rgb, _HEX.sub(_rotate_hex, html))
    base = "<style>body{color:#2a5db0}</style>"
    if re.search(r"<head[^>]*>", html, re.I):
        return re.sub(r"(<head[^>]*>)", lambda m: m.group(1) + base, html, count=1, flags=re.I)
    return base + html


# colors_changed: every colour the page names, in CSS or in colour attributes, repainted.

NAMED_COLOURS = {
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
    "blue": (0, 0, 255), "yellow": (255, 255, 0), "orange": (255, 165, 0),
    "purple": (128, 0, 128), "gray": (128, 128, 128), "grey": (128, 128, 128),
    "silver": (192, 192, 192), "navy": (0, 0, 128), "maroon": (128, 0, 0),
    "teal": (0, 128, 128), "olive": (128, 128, 0), "lime": (0, 255, 0), "aqua": (0, 255, 255),
    "fuchsia": (255, 0, 255), "darkgray": (169, 169, 169), "darkgrey": (169, 169, 169),
    "lightgray": (211, 211, 211), "lightgrey": (211, 211, 211), "dimgray": (105, 105, 105),
    "dimgrey": (105, 105, 105), "gainsboro": (220, 220, 220), "whitesmoke": (245, 245, 245),
    "darkblue": (0, 0, 139), "darkred": (139, 0, 0), "darkgreen": (0, 100, 0),
    "lightblue": (173, 216, 230), "steelblue": (70, 130, 180), "crimson": (220, 20, 60),
    "gold": (255, 215, 0), "pink": (255, 192, 203), "brown": (165, 42, 42),
    "beige": (245, 245, 220), "ivory": (255, 255, 240), "tomato": (255, 99, 71),
    "coral": (255, 127, 80), "indigo": (75, 0, 130), "violet": (238, 130, 238),
    "skyblue": (135, 206, 235), "royalblue": (65, 105, 225), "slategray": (112, 128, 144),
    "darkslategray": (47, 79, 79), "lightgreen": (144, 238, 144), "salmon": (250, 128, 114),
}
_COLOUR = re.compile(
    r"#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})\b"
    r"|\b(?:rgba?|hsla?)\(\s*[^()]*\)"
    r"|\b(?:" + "|".join(sorted(NAMED_COLOURS, key=len, reverse=True)) + r")\b", re.I)
_NUMBER = re.compile(r"[-+]?\d*\.?\d+%?")
_COLOUR_ATTRIBUTES = ("bgcolor", "color", "text", "link", "vlink", "alink", "fill", "stroke",
                      "stop-color")


def _channel(token: str, scale: float = 255.0) -> float:
    return float(token[:-1]) / 100 * scale if token.endswith("%") else float(token)


def _parse_colour(text: str) -> tuple[tuple[float, float, float], str] | None:
    """(rgb 0-255, alpha text to keep) of a CSS colour literal, or None."""
    low = text.lower()
    if low in NAMED_COLOURS:
        return NAMED_COLOURS[low], ""
    if low.startswith("#"):
        digits = low[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        rgb = tuple(int(digits[k:k + 2], 16) for k in (0, 2, 4))
        alpha = digits[6:8]
        return rgb, (f"{int(alpha, 16) / 255:.3f}" if alpha else "")
    numbers = _NUMBER.findall(low)
    if len(numbers) < 3:
        return None
    alpha = numbers[3] if len(numbers) > 3 else ""
    if low.startswith("hsl"):
        h = float(numbers[0].rstrip("%")) / 360
        s, lightness = _channel(numbers[1], 1.0), _channel(numbers[2], 1.0)
        r, g, b = colorsys.hls_to_rgb(h % 1.0, min(1.0, lightness), min(1.0, s))
        return (r * 255, g * 255, b * 255), alpha
    return tuple(min(255.0, _channel(n)) for n in numbers[:3]), alpha


def repaint(rgb: tuple[float, float, float], turn: float = HUE_TURN) -> tuple[int, int, int]:
    """A different colour of about the same lightness: the hue turned, greys tinted,
    black and white drawn in a little so they take the tint too."""
    h, lightness, saturation = colorsys.rgb_to_hls(*(max(0.0, min(1.0, v / 255)) for v in rgb))
    out = colorsys.hls_to_rgb((h + turn) % 1.0, 0.06 + 0.88 * lightness, max(saturation, 0.45))
    return tuple(round(v * 255) for v in out)


def _repaint_text(text: str, turn: float, attribute: bool = False) -> str:
    """``text`` with its colour literals repainted; in a colour attribute (``bgcolor``),
    whose legacy parsing reads only names and hex, the new colour is written in hex."""
    def swap(match: re.Match) -> str:
        parsed = _parse_colour(match.group(0))
        if parsed is None:
            return match.group(0)
        (r, g, b), alpha = repaint(parsed[0], turn), parsed[1]
        if attribute:
            return f"#{r:02x}{g:02x}{b:02x}"
        return f"rgba({r}, {g}, {b}, {alpha})" if alpha else f"rgb({r}, {g}, {b})"
    return _COLOUR.sub(swap, text)


def _style_places(root):
    """Every place the page keeps CSS: (element, None) for a <style>'s text, (element,
    'style') for a style attribute."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag == "style" and element.text:
            yield element, None
        if element.get("style"):
            yield element, "style"


def _rewrite_css(root, rewrite) -> None:
    for element, attribute in list(_style_places(root)):
        if attribute is None:
            element.text = rewrite(element.text, True)
        else:
            element.set(attribute, rewrite(element.get(attribute), False))


def colors_changed(html: str, seed: int = 0) -> str:
    """Every colour the page names (hex, rgb, hsl, names; in CSS and colour attributes)
    and its default text and page colours repainted (``repaint``): same layout, same
    lightness, another palette."""
    turn = HUE_TURN + random.Random(seed).uniform(-0.05, 0.05)
    root = _parse(html)
    _rewrite_css(root, lambda css, sheet: _repaint_text(css, turn))
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in _COLOUR_ATTRIBUTES:
            value = element.get(name)
            if value:
                element.set(name, _repaint_text(value, turn, attribute=True))
    ink, paper = repaint((0, 0, 0), turn), repaint((255, 255, 255), turn)
    _prepend_style(root, f"html{{background:rgb{paper}}}body{{color:rgb{ink}}}")
    return _serialise(root, html)


def _prepend_style(root, css: str) -> None:
    """A <style> first in <head> (so the page's own rules still win over it)."""
    head = root.find("head")
    if head is None:
        head = lxml.html.Element("head")
        root.insert(0, head)
    style = lxml.html.Element("style")
    style.text = css
    head.insert(0, style)


# half_styles and no_layout: declarations removed from every style sheet and attribute.

LAYOUT_PROPERTIES = frozenset((
    "display", "position", "top", "right", "bottom", "left", "float", "clear", "width",
    "height", "min-width", "max-width", "min-height", "max-height", "gap", "row-gap",
    "column-gap", "order", "columns", "z-index", "transform", "translate", "rotate", "scale",
    "text-align", "vertical-align", "box-sizing", "aspect-ratio", "table-layout", "contain",
    "overflow", "overflow-x", "overflow-y", "object-fit", "object-position",
))
LAYOUT_PREFIXES = ("margin", "padding", "flex", "grid", "inset", "align-", "justify-", "place-",
                   "column-")


def is_layout_property(prop: str) -> bool:
    """Does the property place or size boxes (rather than paint them or set type)?"""
    prop = prop.removeprefix("-webkit-").removeprefix("-moz-").removeprefix("-ms-")
    return prop in LAYOUT_PROPERTIES or prop.startswith(LAYOUT_PREFIXES)


def _filter_styles(html: str, keep) -> str:
    root = _parse(html)

    def rewrite(css: str, sheet: bool) -> str:
        return filter_declarations(css, keep) if sheet else filter_block(css, keep)

    _rewrite_css(root, rewrite)
    for element in root.iter():
        if isinstance(element.tag, str) and element.get("style") is not None \
                and not element.get("style").strip():
            del element.attrib["style"]
    return _serialise(root, html)


def half_styles(html: str, seed: int = 0) -> str:
    """The later half of the page unstyled: the second half of the body's elements, in
    document order, lose their ``class``, ``id`` and ``style`` attributes, so only the
    style sheets' rules for bare tags still reach them. The first half is untouched."""
    root = _parse(html)
    body = root.find("body")
    elements = [e for e in (body if body is not None else root).iter()
                if isinstance(e.tag, str) and e.tag not in _SKIP and e is not body]
    for element in elements[len(elements) // 2:]:
        for name in ("class", "id", "style"):
            element.attrib.pop(name, None)
    return _serialise(root, html)


def no_layout(html: str, seed: int = 0) -> str:
    """Every layout declaration removed (``is_layout_property``: display, position,
    sizes, margins, paddings, flex, grid, alignment ...): the page keeps its colours,
    backgrounds, borders and type, in the normal flow."""
    return _filter_styles(html, lambda prop, value: not is_layout_property(prop))


def shuffled(html: str, seed: int = 0) -> str:
    """Scatter the page: permute the elements that hold text across the whole tree, then
    shuffle the order of every container's children."""
    rng = random.Random(seed)
    root = _parse(html)
    leaves = [e for e, attr in _text_nodes(root) if attr == "text" and len(e) == 0]
    slots = []
    for leaf in leaves:  # a placeholder where each leaf was, then refill them permuted
        slot = lxml.html.Element("i")
        slot.tail, leaf.tail = leaf.tail, None
        leaf.addprevious(slot)
        leaf.getparent().remove(leaf)
        slots.append(slot)
    rng.shuffle(leaves)
    for slot, leaf in zip(slots, leaves, strict=True):
        leaf.tail = slot.tail
        slot.addprevious(leaf)
        slot.getparent().remove(slot)
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in _SKIP or element.tag == "html":
            continue
        children = [c for c in element if isinstance(c.tag, str) and c.tag not in _SKIP]
        if len(children) < 2:
            continue
        order = children[:]
        while order == children:
            rng.shuffle(order)
        for child in children:
            element.remove(child)  # drops the child's tail text with it: fine for a degradation
        for child in order:
            element.append(child)
    return _serialise(root, html)


def no_styles(html: str, seed: int = 0) -> str:
    """Remove <style> blocks, style attributes, class attributes and stylesheet links."""
    root = _parse(html)
    for element in list(root.iter("style")):
        element.drop_tree()
    for element in list(root.iter("link")):
        if "stylesheet" in (element.get("rel") or ""):
            element.drop_tree()
    for element in root.iter():
        if isinstance(element.tag, str):
            element.attrib.pop("style", None)
            element.attrib.pop("class", None)
    return _serialise(root, html)


def no_text(html: str, seed: int = 0) -> str:
    """Remove every visible text node, keeping the markup."""
    root = _parse(html)
    for element, attr in list(_text_nodes(root)):
        setattr(element, attr, None)
    return _serialise(root, html)


def blank(html: str, seed: int = 0) -> str:
    return "<!DOCTYPE html><html><head></head><body></body></html>"


def first_text(html: str, limit: int = 60) -> str:
    """The page's first visible text (in the body), cut to ``limit`` characters."""
    root = _parse(html)
    body = root.find("body")
    for element, attr in _text_nodes(body if body is not None else root):
        text = " ".join(getattr(element, attr).split())
        if text:
            return text[:limit]
    return "Welcome"


def near_blank(html: str, seed: int = 0) -> str:
    """A white page holding one short line of the reference's text: nearly blank, but
    not blank, so it is scored rather than refused."""
    return ("<!DOCTYPE html><html><head><title>page</title></head><body><p>"
            f"{html_lib.escape(first_text(html))}</p></body></html>")


def ladder(html: str, seed: int = 0) -> list[tuple[str, str]]:
    """The reference and its degradations, best first (``LADDER``)."""
    steps = {"text_edits": text_edits, "colors": colors, "shuffled": shuffled,
             "no_styles": no_styles, "no_text": no_text, "blank": blank}
    return [("reference", html)] + [(name, fn(html, seed)) for name, fn in steps.items()]


def style_ladder(html: str, seed: int = 0) -> list[tuple[str, str]]:
    """The reference and changes of its style only, best first (``STYLE_LADDER``)."""
    steps = {"minor_text_edit": minor_text_edit, "colors_changed": colors_changed,
             "half_styles": half_styles, "no_layout": no_layout, "no_styles": no_styles,
             "blank": blank}
    return [("reference", html)] + [(name, fn(html, seed)) for name, fn in steps.items()]
