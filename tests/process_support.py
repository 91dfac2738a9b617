"""Helpers for tests that watch processes and the PNGs they serve: the process tree
from /proc (which browsers a worker started, whether they are gone) and a PNG's size."""

from __future__ import annotations

import struct
from pathlib import Path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    return struct.unpack(">II", data[16:24])


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command name), from /proc."""
    table: dict[int, tuple[int, str]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        name = text[text.index("(") + 1:text.rindex(")")]
        table[int(stat.parent.name)] = (int(text[text.rindex(")") + 2:].split()[1]), name)
    return table


def descendants(pid: int) -> dict[int, str]:
    """The processes under ``pid`` (pid -> command name)."""
    table = process_table()
    found, frontier = {}, {pid}
    while frontier:
        frontier = {p for p, (parent, _) in table.items() if parent in frontier}
        found |= {p: table[p][1] for p in frontier}
    return found
