"""A ladder of ever worse copies of a page, for checking that the reward ranks them.

``ladder(html, seed)`` returns (name, html) from best to worst: the reference,
small text edits, changed colours, shuffled layout, styles removed, text
removed, blank. A reward that measures the right thing scores them in that
order (``tests/tasks/html/test_reward_validity.py``).
"""

from __future__ import annotations

import colorsys
import random
import re

import lxml.html

LADDER = ("reference", "text_edits", "colors", "shuffled", "no_styles", "no_text", "blank")
_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
_RGB = re.compile(r"rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)")
HUE_TURN = 0.42  # about 150 degrees
_SKIP = {"script", "style", "head", "title", "meta", "link"}


def _parse(html: str):
    return lxml.html.document_fromstring(html)


def _serialise(root) -> str:
    return lxml.html.tostring(root, doctype="<!DOCTYPE html>", encoding="unicode")


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
    return _serialise(root)


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
    return _serialise(root)


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
    return _serialise(root)


def no_text(html: str, seed: int = 0) -> str:
    """Remove every visible text node, keeping the markup."""
    root = _parse(html)
    for element, attr in list(_text_nodes(root)):
        setattr(element, attr, None)
    return _serialise(root)


def blank(html: str, seed: int = 0) -> str:
    return "<!DOCTYPE html><html><head></head><body></body></html>"


def ladder(html: str, seed: int = 0) -> list[tuple[str, str]]:
    """The reference and its degradations, best first."""
    steps = {"text_edits": text_edits, "colors": colors, "shuffled": shuffled,
             "no_styles": no_styles, "no_text": no_text, "blank": blank}
    return [("reference", html)] + [(name, fn(html, seed)) for name, fn in steps.items()]
