"""Fenced code blocks (```lang ... ```) in a model's completion or a judge's reply.

The families find their document (HTML, SVG, a layout action, a judge's JSON
verdict) in fenced blocks; this is the one place that says what a fence is.
A fence opens with three backticks and a language tag; its body runs to the
next three backticks, which need not start a line (models often close a fence
right after the document). An unterminated fence is no block.

Fences of other languages are not skipped as whole blocks: only fences whose
opening matches are blocks, so the scan goes on inside a non-matching block.
That is how each family has always read its completions, and their rewards
depend on it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Fence:
    """One fenced block: its language tag ('' when bare), body, and span in the text."""

    language: str
    body: str
    start: int
    end: int


def fenced_blocks(text: str, languages: Iterable[str] | None = None, *,
                  inline: bool = False, ignore_case: bool = False) -> list[Fence]:
    """Every fenced block in ``text``, in order.

    ``languages``: the tags a block may open with, right after the backticks ('' for
    a bare fence); None takes any tag, after optional blanks, and ignores the rest
    of the opening line (```svg title="logo"). ``inline``: the body may start on the
    fence's own line, for one-line JSON answers (```json {"a": 1}```); otherwise it
    starts on the next line. ``ignore_case``: tags match in any case.
    """
    tags = None if languages is None else tuple(languages)
    pattern = _pattern(tags, inline, ignore_case)
    return [Fence(m.group(1), m.group(2), m.start(), m.end()) for m in pattern.finditer(text)]


@functools.cache
def _pattern(languages: tuple[str, ...] | None, inline: bool, ignore_case: bool) -> re.Pattern:
    if languages is None:
        tag = r"[ \t]*([\w+-]*)" + ("" if inline else r"[^\n]*")
    else:  # longest first, so a bare fence ('') is the last alternative tried
        alternatives = sorted(languages, key=len, reverse=True)
        tag = "(" + "|".join(re.escape(name) for name in alternatives) + ")"
    rest = r"\s*" if inline else r"[ \t]*\n"
    return re.compile("```" + tag + rest + "(.*?)```", re.S | (re.I if ignore_case else 0))
