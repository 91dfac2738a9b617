"""Prediction files: completions a user already has, one JSON object per line.

Each line is ``{"id": ITEM_ID, "completion": TEXT}`` (``item_id`` for ``id``, and
``prediction`` or ``text`` for ``completion``, are read too). The benchmark runs
them as the policy ``predictions:NAME``, NAME being the file's stem.
"""

from __future__ import annotations

import json
from pathlib import Path

MAX_FILE_BYTES = 64 * 1024 * 1024


def load_predictions(path: str | Path) -> dict[str, str]:
    """item id -> completion; ``ValueError`` names the line that is not usable."""
    path = Path(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"{path}: over {MAX_FILE_BYTES} bytes")
    out: dict[str, str] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from None
            item_id = _first(row, "id", "item_id")
            text = _first(row, "completion", "prediction", "text")
            if item_id is None or not isinstance(text, str):
                raise ValueError(f"{path}:{number}: expected {{\"id\": ..., \"completion\": "
                                 "\"...\"}")
            out[str(item_id)] = text
    if not out:
        raise ValueError(f"{path}: no predictions")
    return out


def predictions_name(path: str | Path) -> str:
    """The policy name a prediction file runs as."""
    return f"predictions:{Path(path).stem}"


def _first(row, *keys):
    if isinstance(row, dict):
        for key in keys:
            if row.get(key) is not None:
                return row[key]
    return None
