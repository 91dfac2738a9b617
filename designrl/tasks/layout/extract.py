"""From a model's completion to a layout action, honestly.

``parse_completion`` finds the JSON object in a completion that may wrap it in a
fence or chatter (the first fenced block, else the first ``{...}`` that parses),
then validates it strictly as a layout action. It reports whether the JSON was
valid and whether the action was; it never repairs or substitutes an action.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from designrl.fences import fenced_blocks
from designrl.tasks.layout.actions import parse_action

MAX_SCAN_CHARS = 65_536  # a completion longer than this is only searched this far
MAX_STARTS = 64  # "{" positions tried: bounds the work on hostile text
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class ParsedCompletion:
    value: Any  # the JSON value found (None if none)
    action: dict[str, Any] | None  # the validated action, as a dict
    json_ok: bool
    error: str | None  # why there is no action

    @property
    def valid(self) -> bool:
        return self.action is not None


def find_json(text: str) -> tuple[Any, bool]:
    """The JSON value in ``text``: a fenced block's, else the first object that parses."""
    text = text[:MAX_SCAN_CHARS]
    for fence in fenced_blocks(text, ("json", ""), inline=True, ignore_case=True):
        try:
            return json.loads(fence.body), True
        except (ValueError, RecursionError):
            continue
    for n, match in enumerate(re.finditer(r"\{", text)):
        if n == MAX_STARTS:
            break
        try:
            value, _ = _DECODER.raw_decode(text, match.start())
            return value, True
        except (ValueError, RecursionError):
            continue
    return None, False


def parse_completion(text: str) -> ParsedCompletion:
    value, json_ok = find_json(text)
    if not json_ok:
        return ParsedCompletion(None, None, False, "no JSON object in the completion")
    action, error = parse_action(value)
    if action is None:
        return ParsedCompletion(value, None, True, error)
    return ParsedCompletion(value, action.model_dump(exclude_none=True), True, None)
