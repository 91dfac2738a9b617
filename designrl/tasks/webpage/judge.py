"""An optional judge with OpenDesign's static rubric, through any OpenAI-compatible endpoint.

The rubric (AesCoder / OpenDesign): instruction alignment /40, aesthetics and
readability /30, structural integrity /30; total /100. The judge gets the user's
prompt, the page's HTML (clipped to ``MAX_HTML_CHARS``) and, with
``multimodal=True``, the screenshot as a ``data:`` URL image.

Replies are read tolerantly (JSON in a fence or wrapped in prose, a few key
spellings), but strictly checked: every part must be a number within its range.
A judge never raises: a failed request or an unreadable reply is a
``JudgeVerdict`` with ``error`` set, which the reward records and leaves out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from designrl.judge import EndpointJudge, chat_messages, clip, json_object

MAX_HTML_CHARS = 40_000
RUBRIC = {"instruction_alignment": 40.0, "aesthetics_readability": 30.0,
          "structural_integrity": 30.0}
ALIASES = {
    "instruction_alignment": ("instruction_alignment", "instruction", "alignment"),
    "aesthetics_readability": ("aesthetics_readability", "aesthetics_and_readability",
                               "aesthetics", "readability"),
    "structural_integrity": ("structural_integrity", "structure", "integrity"),
}
SYSTEM_PROMPT = (
    "You are a strict reviewer of web pages written by a model for a user's request. Score "
    "the page with this rubric: instruction_alignment (0-40): does it do what was asked, with "
    "the requested content and features; aesthetics_readability (0-30): visual design, "
    "hierarchy, spacing, colour, legibility; structural_integrity (0-30): sound, complete, "
    "working HTML/CSS/JS with nothing broken or missing. Reply with JSON only: "
    '{"instruction_alignment": n, "aesthetics_readability": n, "structural_integrity": n}.'
)


@dataclass(frozen=True)
class JudgeVerdict:
    """The three rubric parts (points), or why the judge could not say."""

    parts: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    raw: str = field(default="", repr=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def total(self) -> float | None:
        """Points out of 100; None when the judge failed."""
        return sum(self.parts.values()) if self.ok else None

    @property
    def score(self) -> float | None:
        """total / 100, in [0, 1]; None when the judge failed."""
        total = self.total
        return None if total is None else total / 100.0


class Judge(Protocol):
    async def judge(self, prompt: str | None, html: str,
                    png: bytes | None = None) -> JudgeVerdict: ...


def build_messages(prompt: str | None, html: str, png: bytes | None = None) -> list[dict]:
    code = clip(html, MAX_HTML_CHARS)
    text = (f"User request:\n{prompt or '(no request given)'}\n\n"
            f"Page HTML:\n```html\n{code}\n```\n\n"
            + ("The screenshot of the rendered page is attached.\n\n" if png else "")
            + "Score the page. Answer with JSON only.")
    return chat_messages(SYSTEM_PROMPT, text, png)


def _key(name: str) -> str:
    return re.sub(r"[^a-z]+", "_", name.lower()).strip("_")


def parse_verdict(reply: str | None) -> JudgeVerdict:
    """Read the three rubric scores from a reply, fenced or wrapped in prose."""
    raw = reply or ""
    data, error = json_object(raw)
    if error is not None:
        return JudgeVerdict(error=error, raw=raw)
    if not isinstance(data, dict):
        return JudgeVerdict(error="judge_malformed: reply is not a JSON object", raw=raw)
    found = {_key(k): v for k, v in data.items()}
    parts: dict[str, float] = {}
    for name, top in RUBRIC.items():
        value = next((found[a] for a in ALIASES[name] if a in found), None)
        if isinstance(value, dict):  # {"score": n, "reason": ...}
            value = value.get("score")
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                return JudgeVerdict(error=f"judge_malformed: {name} is not a number", raw=raw)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return JudgeVerdict(error=f"judge_malformed: no number for {name}", raw=raw)
        if not 0.0 <= float(value) <= top:
            return JudgeVerdict(error=f"judge_malformed: {name}={value} not in 0..{top:g}",
                                raw=raw)
        parts[name] = float(value)
    return JudgeVerdict(parts, None, raw)


class OpenAIJudge(EndpointJudge):
    """The rubric judge behind an OpenAI-compatible chat-completions endpoint (vLLM, OpenAI, ...).

    ``multimodal=True`` sends the screenshot with the code (the model must take images).
    """

    async def judge(self, prompt: str | None, html: str, png: bytes | None = None
                    ) -> JudgeVerdict:
        messages = build_messages(prompt, html, self.shown(png))
        reply, error = await self.endpoint.reply(messages)
        if error is not None:
            return JudgeVerdict(error=error)
        return parse_verdict(reply)
