"""The OpenEnv protocol for any env: what a served env provides (``ServedEnv``) and the
handler that turns one WebSocket frame into its reply (``EnvProtocol``).

An env here is any object with ``reset(task_id=, seed=, episode_id=)`` and
``step(action)`` returning an observation model (``reward``, ``done``, ``metadata``)
and a ``state`` model. Env code runs in a thread pool so sockets and health checks
stay responsive. See ``app`` for the protocol's choices (an invalid action is a
recorded step; protocol errors are the client's and the session survives them).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from services.layout_env.wire import (
    EnvironmentMetadata,
    ProtocolError,
    ResetParams,
    action_of,
    describe_errors,
    step_result,
    validation_errors,
)

MESSAGE_TYPES = ("reset", "step", "state", "close")


@dataclass(frozen=True)
class ServedEnv:
    """An env as the protocol serves it.

    Attributes:
        make: builds a fresh env (one per WS session, one per stateless HTTP call).
        task_ids: the task ids ``reset`` accepts; empty: any.
        schemas: ``/schema``'s ``action``, ``observation``, ``reset_observation`` and
            ``state`` JSON schemas.
        metadata: ``/metadata``'s answer.
    """

    make: Callable[[], Any]
    task_ids: Sequence[str]
    schemas: dict[str, Any]
    metadata: EnvironmentMetadata

    def check_task(self, task_id: str | None) -> str | None:
        """An error message when ``task_id`` is not a known task (``None`` means default)."""
        if task_id is None or not self.task_ids or task_id in self.task_ids:
            return None
        return f"unknown task_id {task_id!r}; known: {', '.join(self.task_ids)}"


class EnvProtocol:
    """Runs env calls off the event loop and answers WS frames for a served env."""

    def __init__(self, served: ServedEnv, executor: Executor, max_message_bytes: int):
        self.served, self.executor = served, executor
        self.max_message_bytes = max_message_bytes

    async def run(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Run env code in the executor so sockets and health checks stay responsive."""
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, lambda: fn(*args, **kwargs))

    async def handle(self, env: Any, text: str) -> dict | None:
        """One client frame to its reply (``None`` for ``close``); a bad frame raises
        ``ProtocolError``."""
        message = self.parse(text)
        kind = message["type"]
        if kind == "close":
            return None
        if kind == "state":
            return {"type": "state", "data": env.state.model_dump(mode="json")}
        if kind == "reset":
            params = self.reset_params(message.get("data") or {})
            obs = await self.run(env.reset, **params.model_dump(exclude_none=True))
        else:
            if "data" not in message:
                raise ProtocolError("VALIDATION_ERROR", "a step message needs data: the action")
            obs = await self.run(env.step, action_of(message["data"]))
        return {"type": "observation", "data": step_result(obs)}

    def parse(self, text: str) -> dict:
        """A frame's envelope, checked: size, JSON, an object, a known type, no other keys."""
        limit = self.max_message_bytes
        if len(text) > limit or len(text.encode("utf-8")) > limit:
            raise ProtocolError("VALIDATION_ERROR", f"message is {len(text.encode('utf-8'))} bytes; "
                                f"the limit is {limit}")
        try:
            message = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ProtocolError("INVALID_JSON", f"Invalid JSON: {exc}"[:300]) from None
        if not isinstance(message, dict):
            raise ProtocolError("VALIDATION_ERROR", "a message must be a JSON object such as "
                                '{"type": "step", "data": {...}}, got ' + type(message).__name__)
        kind = message.get("type")
        if kind not in MESSAGE_TYPES:
            raise ProtocolError("UNKNOWN_TYPE", f"Unknown message type: {kind!r}; "
                                f"expected one of {', '.join(MESSAGE_TYPES)}")
        if extra := sorted(set(message) - {"type", "data"}):
            raise ProtocolError("VALIDATION_ERROR", f"unknown message field(s) {', '.join(extra)}; "
                                "a message has only type and data")
        return message

    def reset_params(self, data: Any) -> ResetParams:
        """A reset frame's ``data`` as reset arguments, or a ``VALIDATION_ERROR``."""
        try:
            params = ResetParams.model_validate(data)
        except ValidationError as exc:
            raise ProtocolError("VALIDATION_ERROR", f"bad reset data: {describe_errors(exc)}",
                                errors=validation_errors(exc)) from None
        if (error := self.served.check_task(params.task_id)) is not None:
            raise ProtocolError("VALIDATION_ERROR", error)
        return params
