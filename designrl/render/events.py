"""What the sandbox saw during one job: errors, blocks, dialogs, popups, downloads.

Lists are capped (count and length of each entry) so a page that spams the
console or fires requests in a loop cannot grow a worker's memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_ENTRIES = 200
MAX_CHARS = 500


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1] + "…"


def error_text(exc: BaseException) -> str:
    """The first line of an exception's message (Playwright appends call logs), clipped."""
    lines = str(exc).strip().splitlines()
    return (lines[0] if lines else type(exc).__name__)[:300]


@dataclass
class PageEvents:
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    blocked_requests: list[str] = field(default_factory=list)
    served_requests: list[str] = field(default_factory=list)
    refused_navigations: list[str] = field(default_factory=list)
    dialogs: int = 0
    popups: int = 0
    downloads: int = 0
    crashed: bool = False
    exceeded: str | None = None  # the first cap the page reported going over
    _popup_keys: set[int] = field(default_factory=set, repr=False)

    def popup(self, key: int) -> None:
        """Count a popup window once, however many of its requests or events we see."""
        if key not in self._popup_keys:
            self._popup_keys.add(key)
            self.popups += 1

    def exceed(self, resource: str) -> None:
        self.exceeded = self.exceeded or _clip(resource)

    def console_error(self, text: str) -> None:
        self._add(self.console_errors, text)

    def page_error(self, text: str) -> None:
        self._add(self.page_errors, text)

    def blocked(self, url: str) -> None:
        self._add(self.blocked_requests, url)

    def navigation_refused(self, url: str) -> None:
        self._add(self.refused_navigations, url)

    def served(self, url: str) -> None:
        self._add(self.served_requests, url)

    @staticmethod
    def _add(entries: list[str], text: str) -> None:
        if len(entries) < MAX_ENTRIES:
            entries.append(_clip(text))
