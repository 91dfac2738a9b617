"""The viewport a reference page is designed for: both it and every candidate render there.

A page says its width in two ways: a viewport meta with a number
(``<meta name="viewport" content="width=640">``), or a fixed pixel ``width`` or
``min-width`` on ``html`` or ``body`` (in a style sheet rule for exactly that
element, or its ``style`` attribute; a body's width gets the default body margins,
8 px each side, added). Either gives the viewport's width (the meta first); ``width=device-width`` and anything else give the default, 1280 px. The
height stays the default's (800 px): pages are captured full length anyway.
"""

from __future__ import annotations

import re

DEFAULT_VIEWPORT = (1280, 800)
MIN_WIDTH, MAX_WIDTH = 320, 2560  # a declared width outside these is not believed

_META = re.compile(r"<meta\b[^>]*>", re.I)
_NAME_VIEWPORT = re.compile(r"""\bname\s*=\s*["']?viewport\b""", re.I)
_CONTENT = re.compile(r"""\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_META_WIDTH = re.compile(r"(?:^|[,;\s])width\s*=\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*(?:$|[,;\s])", re.I)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.I | re.S)
_ROOT_RULE = re.compile(r"(?:^|[}\s;])(html|body)\s*\{([^{}]*)\}", re.I)
_ROOT_TAG = re.compile(r"<(html|body)\b[^>]*\bstyle\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.I)
BODY_MARGINS = 16
_DECLARED = re.compile(r"(?:^|[;{\s])(?:min-)?width\s*:\s*(\d+(?:\.\d+)?)px", re.I)


def _believable(value: str) -> int | None:
    width = round(float(value))
    return width if MIN_WIDTH <= width <= MAX_WIDTH else None


def meta_width(html: str) -> int | None:
    """The number in the page's viewport meta ``width=``, if it has one."""
    for tag in _META.findall(html):
        if not _NAME_VIEWPORT.search(tag):
            continue
        content = _CONTENT.search(tag)
        if content is None:
            continue
        found = _META_WIDTH.search(next(g for g in content.groups() if g is not None))
        if found is not None:
            return _believable(found.group(1))
    return None


def declared_width(html: str) -> int | None:
    """A fixed px ``width``/``min-width`` the page gives its ``html`` or ``body``."""
    blocks = [found for sheet in _STYLE.findall(html) for found in _ROOT_RULE.findall(sheet)]
    blocks += [(tag, a or b) for tag, a, b in _ROOT_TAG.findall(html)]
    widths = [w + (BODY_MARGINS if tag.lower() == "body" else 0)
              for tag, block in blocks for v in _DECLARED.findall(block)
              if (w := _believable(v)) is not None]
    return max(widths) if widths else None


def page_viewport(html: str) -> tuple[int, int]:
    """(width, height) to render the page and anything compared with it at."""
    width = meta_width(html) or declared_width(html)
    return (width, DEFAULT_VIEWPORT[1]) if width else DEFAULT_VIEWPORT
