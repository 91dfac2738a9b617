"""svg task items: a prompt and the requirements a drawing for it must meet."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SvgItem:
    id: str
    prompt: str
    requirements: tuple[str, ...]
