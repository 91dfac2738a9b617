"""html task items: a reference page to reproduce from its screenshot.

Two formats:

* a Design2Code-style folder of ``N.html`` pages (and their assets, e.g.
  ``rick.jpg``), items in numeric order;
* a WebSight-style JSONL file, one object per line with the page under
  ``html`` or ``text`` (WebSight's name) and an optional ``id``; any stored
  image is ignored, because reference screenshots are always rendered by our
  renderer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from designrl.tasks.html.spec import HtmlItem

MAX_PAGE_BYTES = 2_000_000


def _numeric_key(path: Path) -> tuple[int, str]:
    digits = re.sub(r"\D", "", path.stem)
    return (int(digits) if digits else -1, path.stem)


def load_design2code(folder: str | Path, limit: int | None = None) -> list[HtmlItem]:
    """The ``*.html`` pages of a folder, numerically ordered."""
    paths = sorted(Path(folder).glob("*.html"), key=_numeric_key)
    return [HtmlItem(p.stem, p.read_text(encoding="utf-8", errors="replace"))
            for p in paths[:limit]]


def iter_websight(path: str | Path) -> Iterator[HtmlItem]:
    """Items of a WebSight-style JSONL file; lines that are not usable raise ``ValueError``
    naming the line."""
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from None
            html = row.get("html") or row.get("text") if isinstance(row, dict) else None
            if not isinstance(html, str) or not html.strip():
                raise ValueError(f"{path}:{number}: no 'html' or 'text' string")
            if len(html.encode()) > MAX_PAGE_BYTES:
                raise ValueError(f"{path}:{number}: page over {MAX_PAGE_BYTES} bytes")
            yield HtmlItem(str(row.get("id", number)), html)
