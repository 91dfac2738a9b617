"""Services only wire: every query lives in ``designrl/store`` (issue 19). The issue's
acceptance check, ``grep -rn "select(\\|session\\.\\(execute\\|scalars\\)" services/``, finds
nothing, and this keeps it so."""

from __future__ import annotations

import re
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "services"
# The grep, and a query run on a bare connection or written as SQL text.
QUERY = re.compile(rb"select\(|(session|connection|conn)\.(execute|scalars)|\btext\(\"")


def test_no_query_is_written_under_services():
    found = [f"{path.relative_to(SERVICES.parent)}:{number}: {line.decode(errors='replace')}"
             for path in sorted(SERVICES.rglob("*"))
             if path.is_file() and "__pycache__" not in path.parts
             for number, line in enumerate(path.read_bytes().splitlines(), 1)
             if QUERY.search(line)]
    assert SERVICES.is_dir()
    assert not found, "queries belong in designrl/store:\n" + "\n".join(found)
