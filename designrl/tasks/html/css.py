"""Just enough CSS reading to degrade a page's styling: its declarations, one at a time.

``filter_declarations(css, keep)`` rewrites a style sheet (or a ``style`` attribute's
text) keeping only the declarations ``keep(property, value)`` accepts. Blocks nest
(``@media``, ``@supports``, ``@keyframes``); strings, comments and parentheses
(``url(data:...;base64,...)``) are read as single units, so a ``;`` or ``}`` inside
them splits nothing. Anything it cannot read is kept as it is.
"""

from __future__ import annotations

from collections.abc import Callable

Keep = Callable[[str, str], bool]


def _skip_string(css: str, i: int) -> int:
    """Index just past the string that starts at ``i``."""
    quote, i = css[i], i + 1
    while i < len(css) and css[i] != quote:
        i += 2 if css[i] == "\\" else 1
    return min(len(css), i + 1)


def _scan(css: str, i: int, stops: str) -> int:
    """Index of the first character of ``stops`` at nesting depth 0 from ``i`` (strings,
    comments and brackets skipped), or ``len(css)``."""
    depth = 0
    while i < len(css):
        c = css[i]
        if c in "\"'":
            i = _skip_string(css, i)
            continue
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = len(css) if end < 0 else end + 2
            continue
        if depth == 0 and c in stops:
            return i
        if c in "([":
            depth += 1
        elif c in ")]" and depth:
            depth -= 1
        i += 1
    return i


def _block_end(css: str, start: int) -> int:
    """Index of the ``}`` closing the block whose ``{`` is at ``start`` (or ``len(css)``)."""
    depth, i = 0, start
    while i < len(css):
        i = _scan(css, i, "{}")
        if i >= len(css):
            return i
        depth += 1 if css[i] == "{" else -1
        if depth == 0:
            return i
        i += 1
    return i


def filter_block(body: str, keep: Keep) -> str:
    """A declaration list (``color: red; margin: 0``) with the refused declarations gone."""
    out, i = [], 0
    while i < len(body):
        end = _scan(body, i, ";")
        declaration = body[i:end]
        name, colon, value = declaration.partition(":")
        prop = name.strip().lower()
        if not colon or not prop or keep(prop, value.strip()):
            out.append(declaration)
        i = end + 1
    return ";".join(d for d in out if d.strip())


def filter_declarations(css: str, keep: Keep) -> str:
    """The style sheet with only the declarations ``keep(property, value)`` accepts."""
    out, i = [], 0
    while i < len(css):
        opening = _scan(css, i, "{;")
        if opening >= len(css) or css[opening] == ";":  # a statement (@import ...;) or the end
            out.append(css[i:opening + 1])
            i = opening + 1
            continue
        closing = _block_end(css, opening)
        body = css[opening + 1:closing]
        nested = _scan(body, 0, "{") < len(body)
        inner = filter_declarations(body, keep) if nested else filter_block(body, keep)
        out.append(css[i:opening + 1] + inner + "}")
        i = closing + 1
    return "".join(out)
