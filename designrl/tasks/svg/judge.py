"""An optional judge model that counts fulfilled requirements, through any OpenAI-compatible API.

SVGBench asks a judge how many requirements a rendered SVG fulfils and scores
count / N. ``OpenAIJudge`` asks for *which* ones (``{"fulfilled": [1, 3]}``),
so every requirement gets a verdict and the count is auditable. The judge sees
the SVG code, and with ``multimodal=True`` also the rendered PNG.

A judge never raises: a failed request or an unreadable reply comes back as a
``JudgeVerdict`` with ``error`` set, and the reward falls back to its computed
checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from designrl.judge import EndpointJudge, chat_messages, clip, json_object

MAX_SVG_CHARS = 30_000
SYSTEM_PROMPT = (
    "You are a strict judge of SVG images. You are given numbered requirements and an SVG "
    "(its code, and sometimes its rendering). Decide which requirements the image fulfils "
    "as drawn; a requirement that is only partly met is not fulfilled. Reply with JSON only: "
    '{"fulfilled": [numbers of the fulfilled requirements]}.'
)


@dataclass(frozen=True)
class JudgeVerdict:
    """Which requirements (0-based) the judge found fulfilled, or why it could not say."""

    fulfilled: frozenset[int] = frozenset()
    n: int = 0
    error: str | None = None
    raw: str = field(default="", repr=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def score(self) -> float | None:
        """Fulfilled / N, SVGBench's score; None when the judge failed."""
        if not self.ok:
            return None
        return len(self.fulfilled) / self.n if self.n else 0.0


class Judge(Protocol):
    async def judge(self, svg: str, requirements: Sequence[str],
                    png: bytes | None = None) -> JudgeVerdict: ...


def judge_messages(svg: str, requirements: Sequence[str], png: bytes | None = None) -> list[dict]:
    """The chat messages for one judgement: requirements numbered from 1, the SVG code,
    and the PNG as a ``data:`` URL image part when given."""
    numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(requirements, start=1))
    code = clip(svg, MAX_SVG_CHARS)
    text = (f"Requirements:\n{numbered}\n\nSVG code:\n```svg\n{code}\n```\n\n"
            f"Which of the {len(requirements)} requirements are fulfilled? "
            'Answer with JSON only, e.g. {"fulfilled": [1, 3]}.')
    return chat_messages(SYSTEM_PROMPT, text, png)


def parse_verdict(reply: str | None, n: int) -> JudgeVerdict:
    """Read ``{"fulfilled": [1-based numbers]}`` from a reply, fenced or wrapped in prose."""
    raw = reply or ""
    data, error = json_object(raw)
    if error is not None:
        return JudgeVerdict(n=n, error=error, raw=raw)
    items = data.get("fulfilled") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return JudgeVerdict(n=n, error="judge_malformed: no 'fulfilled' list", raw=raw)
    indices: set[int] = set()
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int | str):
            return JudgeVerdict(n=n, error=f"judge_malformed: {item!r} is not a number", raw=raw)
        try:
            number = int(item)
        except ValueError:
            return JudgeVerdict(n=n, error=f"judge_malformed: {item!r} is not a number", raw=raw)
        if not 1 <= number <= n:
            return JudgeVerdict(n=n, error=f"judge_malformed: {number} is not in 1..{n}", raw=raw)
        indices.add(number - 1)
    return JudgeVerdict(frozenset(indices), n, None, raw)


class OpenAIJudge(EndpointJudge):
    """A judge behind an OpenAI-compatible chat-completions endpoint (vLLM, OpenAI, ...).

    ``multimodal=True`` sends the rendered PNG with the code (the model must take images).
    """

    async def judge(self, svg: str, requirements: Sequence[str],
                    png: bytes | None = None) -> JudgeVerdict:
        n = len(requirements)
        if n == 0:
            return JudgeVerdict(n=0)
        messages = judge_messages(svg, requirements, self.shown(png))
        reply, error = await self.endpoint.reply(messages)
        if error is not None:
            return JudgeVerdict(n=n, error=error)
        return parse_verdict(reply, n)
