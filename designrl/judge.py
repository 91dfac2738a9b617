"""A judge model's endpoint: any OpenAI-compatible chat-completions server (vLLM, OpenAI, ...).

The families' judges (svg requirements, webpage rubric) build their own prompts
and read their own verdicts; this holds what they share: the client, one
request that never raises, the judge's setup (``EndpointJudge``), the shape of
the messages (code clipped, a screenshot as an image part), and JSON found in a
reply that may wrap it in a fence or prose. ``JudgeConfig`` says where a judge is; each
family that has a judge builds its own kind from it (``EndpointJudge.from_config``).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from designrl.fences import fenced_blocks


class JudgeConfig(BaseModel):
    """Where a judge model is and how it is asked: any OpenAI-compatible chat endpoint.
    The key is a secret: ``public()`` (what a job or a report records) leaves it out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(description="the endpoint's base URL, e.g. http://localhost:8001/v1")
    model: str = Field(min_length=1, description="the model the endpoint serves")
    api_key: SecretStr | None = Field(None, description="the endpoint's key, if it needs one")
    multimodal: bool = Field(False, description="show the judge the render (the model must "
                                                "take images)")
    timeout_s: float = Field(60.0, gt=0, description="seconds one judgement may take")

    @field_validator("base_url")
    @classmethod
    def _http(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"a judge's endpoint is an http(s) URL, not {url!r}")
        return url

    def public(self) -> dict[str, Any]:
        """What may be written down about this judge: everything but the key."""
        return {"base_url": self.base_url, "model": self.model, "multimodal": self.multimodal}


class ChatEndpoint:
    """One model behind an OpenAI-compatible endpoint; ``reply`` returns (text, error).

    It pickles (a judge travels inside picklable reward functions): the client is made
    on first use and left out of the pickle."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 timeout: float = 60.0, *, max_tokens: int = 512, temperature: float = 0.0):
        from openai import AsyncOpenAI

        self.base_url, self.api_key, self.timeout = base_url, api_key, timeout
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self._client: AsyncOpenAI | None = None

    @property
    def client(self):
        if self._client is None:
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(base_url=self.base_url, api_key=self.api_key or "EMPTY",
                                       timeout=self.timeout, max_retries=0)
        return self._client

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_client": None}

    async def reply(self, messages: list[dict]) -> tuple[str | None, str | None]:
        """The model's reply text, or (None, error): a failed request is a recorded error."""
        try:
            response = await self.client.chat.completions.create(
                model=self.model, messages=messages, max_tokens=self.max_tokens,
                temperature=self.temperature)
        except Exception as exc:  # any failure of the endpoint is the judge's error, not ours
            return None, f"judge_request_failed: {type(exc).__name__}: {str(exc)[:200]}"
        return (response.choices[0].message.content if response.choices else None), None

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


class EndpointJudge:
    """What every family's ``OpenAIJudge`` holds: the endpoint, and whether the model is
    shown the render (``multimodal=True``; the model must take images)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 timeout: float = 60.0, *, multimodal: bool = False, max_tokens: int = 512,
                 temperature: float = 0.0) -> None:
        self.endpoint = ChatEndpoint(base_url, model, api_key, timeout,
                                     max_tokens=max_tokens, temperature=temperature)
        self.multimodal = multimodal

    @classmethod
    def from_config(cls, config: JudgeConfig):
        """This kind of judge at the endpoint ``config`` names."""
        key = config.api_key.get_secret_value() if config.api_key is not None else None
        return cls(config.base_url, config.model, key, config.timeout_s,
                   multimodal=config.multimodal)

    def shown(self, png: bytes | None) -> bytes | None:
        """The render to send: only a multimodal judge is shown one."""
        return png if self.multimodal else None

    async def close(self) -> None:
        await self.endpoint.close()


def clip(code: str, limit: int) -> str:
    """Code cut to ``limit`` characters, marked, so a huge completion cannot flood the judge."""
    return code if len(code) <= limit else code[:limit] + "\n<!-- truncated -->"


def chat_messages(system: str, text: str, png: bytes | None = None) -> list[dict]:
    """A system prompt and one user turn: the text, with the PNG as an image part when given."""
    content: str | list[dict] = text
    if png is not None:
        content = [{"type": "text", "text": text}, image_part(png)]
    return [{"role": "system", "content": system}, {"role": "user", "content": content}]


def image_part(png: bytes) -> dict[str, Any]:
    """A PNG as a chat message image part (a ``data:`` URL)."""
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def json_object(reply: str | None) -> tuple[Any, str | None]:
    """The JSON value in a reply: inside a fence if there is one, from the first ``{`` to the
    last ``}``. Returns (value, None) or (None, ``judge_malformed: ...``)."""
    raw = reply or ""
    if not raw.strip():
        return None, "judge_malformed: empty reply"
    fenced = fenced_blocks(raw, ("json", "JSON", ""), inline=True)
    text = fenced[0].body if fenced else raw
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None, "judge_malformed: no JSON object in reply"
    try:
        return json.loads(text[start:end + 1]), None
    except json.JSONDecodeError as exc:
        return None, f"judge_malformed: {exc.msg}"
