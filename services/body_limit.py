"""One request-body limit for every app: ``BodyLimit``, an ASGI middleware.

A body over the limit is refused with 413 before any route sees it: at once when its
``Content-Length`` says so, else while it is read (a streamed body is counted as it
arrives and handed on once complete). The API also wants a declared length for every
body (``require_length``: 411 otherwise) and a larger limit for one route, read from its
settings per request (``limit_for``). The 413 reply carries ``error``, ``message`` (what is limited to how
many bytes) and ``detail`` (this body's size against the limit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_NO_BODY_METHODS = ("GET", "HEAD", "OPTIONS")


class BodyLimit:
    """ASGI middleware: refuse HTTP request bodies over ``max_bytes`` with 413 and a reason.

    Args:
        max_bytes: the largest body accepted.
        limit_for: ``(method, path) -> (max_bytes, what)``, asked per request, for apps
            whose limits differ by route or change at run time; ``what`` names the bodies
            in the message ("prediction sets"). Overrides ``max_bytes``.
        require_length: answer 411 to a chunked body with no ``Content-Length``.
    """

    def __init__(self, app: Any, max_bytes: int = 1_000_000, *,
                 limit_for: Callable[[str, str], tuple[int, str]] | None = None,
                 require_length: bool = False):
        self.app, self.max_bytes = app, max_bytes
        self.limit_for = limit_for or (lambda _method, _path: (self.max_bytes, "request bodies"))
        self.require_length = require_length

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, what = self.limit_for(scope["method"], scope["path"])
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is None and self.require_length and b"chunked" in headers.get(
                b"transfer-encoding", b""):
            await _reply(send, 411, {"error": "length_required",
                                     "message": "send a Content-Length"})
            return
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send, limit, what, f"{declared.decode('latin-1')} bytes")
            return
        if scope["method"] in _NO_BODY_METHODS:
            await self.app(scope, receive, send)
            return
        await self._read_then_forward(scope, receive, send, limit, what)

    async def _read_then_forward(self, scope: dict, receive: Callable, send: Callable,
                                 limit: int, what: str) -> None:
        """Read the body, counting, and hand it to the app in one message once complete."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(send, limit, what, f"more than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body, replayed = b"".join(chunks), False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _refuse(send: Callable, limit: int, what: str, size: str) -> None:
    await _reply(send, 413, {
        "error": "payload_too_large",
        "message": f"{what} are limited to {limit} bytes",
        "detail": f"request body is {size}; the limit is {limit} bytes",
    })


async def _reply(send: Callable, status: int, content: dict) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": json.dumps(content).encode()})
