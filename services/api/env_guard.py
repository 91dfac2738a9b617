"""The key check in front of the layout env mounted at ``/env``: every request and
WebSocket under it needs an API key, as every ``/v1`` route does (``X-API-Key`` or
``Authorization: Bearer``). A missing or unknown key gets 401 over HTTP; a WebSocket
is closed before it is accepted (policy violation, 1008), which the client sees as a
refused handshake. The standalone env server (``python -m services.layout_env.app``)
has no keys: it is for one user's machine.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from designrl.store.keys import find_api_key

Asgi = Callable  # (scope, receive, send) -> awaitable


def presented_key(headers: list[tuple[bytes, bytes]]) -> str | None:
    found = dict(headers)
    key = found.get(b"x-api-key", b"").decode("latin-1").strip()
    if key:
        return key
    scheme, _, token = found.get(b"authorization", b"").decode("latin-1").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class RequireKey:
    """ASGI middleware: the wrapped app answers only callers with a live API key."""

    def __init__(self, app: Asgi, sessions: Callable[[], sessionmaker[Session]]) -> None:
        self.app, self.sessions = app, sessions

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        presented = presented_key(scope.get("headers", []))
        problem = ("an API key is required (X-API-Key header or Authorization: Bearer)"
                   if presented is None else
                   None if await asyncio.to_thread(self._known, presented)
                   else "unknown or revoked API key")
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": problem})
        else:
            body = json.dumps({"error": "unauthorized", "message": problem,
                               "detail": problem}).encode()
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": body})

    def _known(self, presented: str) -> bool:
        with self.sessions()() as session:
            return find_api_key(session, presented) is not None
