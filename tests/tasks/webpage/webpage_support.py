"""Helpers for the webpage tests: fixture folders (the ladders are library code,
``designrl.tasks.webpage.ladders``; the pool runner is ``browser_support``'s)."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATA = Path(__file__).resolve().parent / "data"
