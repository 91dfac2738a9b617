"""html task items: a reference page to reproduce from its screenshot."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HtmlItem:
    id: str
    html: str
