"""webpage task items: a user's request for an interactive page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebpageItem:
    id: str
    prompt: str
    category: str = "website"
