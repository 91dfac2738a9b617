"""OpenEnv's routes for any served env: stateless HTTP ``/reset``, ``/step``, ``/state``,
``/health``, ``/schema``, ``/metadata``, the ``/mcp`` stub, and WebSocket sessions on
``/ws`` (one env per connection, ``max_sessions`` at once)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from services.layout_env.protocol import EnvProtocol
from services.layout_env.wire import (
    EnvironmentMetadata,
    HealthResponse,
    ProtocolError,
    ResetParams,
    SchemaResponse,
    StepRequest,
    StepResult,
    action_of,
    dumps,
    json_response,
    step_result,
)


def add_routes(app: FastAPI, protocol: EnvProtocol, state_model: type, max_sessions: int,
               idle_timeout_s: float | None) -> None:
    """All of OpenEnv's routes on ``app``; ``state_model`` is the env's state type (for
    ``/state``'s documented response)."""
    add_http_routes(app, protocol, state_model)
    add_mcp_route(app)
    add_session_route(app, protocol, max_sessions, idle_timeout_s)


def _task_error(protocol: EnvProtocol, task_id: str | None) -> None:
    if (error := protocol.served.check_task(task_id)) is not None:
        raise HTTPException(422, detail=[{"loc": ["body", "task_id"], "msg": error, "type": "value_error"}])


def add_http_routes(app: FastAPI, protocol: EnvProtocol, state_model: type) -> None:
    """The stateless HTTP routes: every call builds a fresh env; nothing is replayed."""
    served = protocol.served

    @app.post("/reset", response_model=StepResult, tags=["Environment Control"],
              summary="Start an episode in a fresh env and return its first observation")
    async def reset(params: ResetParams | None = None) -> Response:
        params = params or ResetParams()
        _task_error(protocol, params.task_id)
        obs = await protocol.run(served.make().reset, **params.model_dump(exclude_none=True))
        return json_response(step_result(obs))

    @app.post("/step", response_model=StepResult, tags=["Environment Control"],
              summary="Apply one action to a fresh env reset with the given task_id and seed",
              description="Stateless: nothing carries over between calls and nothing is replayed. "
                          "An invalid action is a recorded invalid step (200, observation."
                          "last_action_error set), not a 422. Use the /ws endpoint for episodes.")
    async def step(request: StepRequest) -> Response:
        _task_error(protocol, request.task_id)
        env = served.make()
        reset_args = request.model_dump(include={"task_id", "seed", "episode_id"}, exclude_none=True)

        def reset_and_step() -> Any:
            env.reset(**reset_args)
            return env.step(action_of(request.action))

        return json_response(step_result(await protocol.run(reset_and_step)))

    @app.get("/state", response_model=state_model, tags=["State Management"],
             summary="State of a fresh env (HTTP is stateless; ask the /ws session for yours)")
    async def state() -> Response:
        return json_response(served.make().state.model_dump(mode="json"))

    @app.get("/health", response_model=HealthResponse, tags=["Health"])
    async def health() -> dict:
        return {"status": "healthy"}

    @app.get("/schema", response_model=SchemaResponse, tags=["Schema"])
    async def schema() -> dict:
        return served.schemas

    @app.get("/metadata", response_model=EnvironmentMetadata, tags=["Environment Info"])
    async def get_metadata() -> EnvironmentMetadata:
        return served.metadata


def add_mcp_route(app: FastAPI) -> None:
    """``POST /mcp``: JSON-RPC with no tools, present so OpenEnv's runtime validator passes."""

    @app.post("/mcp", tags=["MCP"], summary="MCP JSON-RPC: this env exposes no tools")
    async def mcp(request: Request) -> dict:
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):
            return _rpc_error(None, -32700, "Parse error")
        if not isinstance(body, dict) or body.get("jsonrpc") != "2.0" or not isinstance(body.get("method"), str):
            return _rpc_error(body.get("id") if isinstance(body, dict) else None, -32600, "Invalid Request")
        if body["method"] == "tools/list":
            return {"jsonrpc": "2.0", "result": {"tools": []}, "id": body.get("id")}
        return _rpc_error(body.get("id"), -32601, f"Method not found: {body['method']}")


def add_session_route(app: FastAPI, protocol: EnvProtocol, max_sessions: int,
                      idle_timeout_s: float | None) -> None:
    """``WS /ws``: one env per connection; one over ``max_sessions`` gets ``CAPACITY_REACHED``."""
    sessions = app.state.sessions

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        if sessions["active"] >= max_sessions:
            await _send_error(websocket, "CAPACITY_REACHED",
                              f"Server at capacity: {sessions['active']}/{max_sessions} sessions in use",
                              active_sessions=sessions["active"], max_sessions=max_sessions)
            await _close(websocket, 1013)
            return
        sessions["active"] += 1
        try:
            await _serve_session(websocket, protocol, idle_timeout_s)
        except WebSocketDisconnect:
            pass
        finally:
            sessions["active"] -= 1
            await _close(websocket, 1000)


async def _serve_session(websocket: WebSocket, protocol: EnvProtocol,
                         idle_timeout_s: float | None) -> None:
    """Answer frames on a fresh env until ``close``, an idle time-out or a disconnect; a
    protocol error or an env failure is an ``error`` reply and the session goes on."""
    env = protocol.served.make()
    while True:
        try:
            text = await asyncio.wait_for(_receive_text(websocket), idle_timeout_s)
        except TimeoutError:
            await _send_error(websocket, "SESSION_ERROR", f"session idle for {idle_timeout_s} s; closing")
            return
        try:
            if text is None:
                raise ProtocolError("INVALID_JSON", "Invalid JSON: binary frame is not UTF-8")
            reply = await protocol.handle(env, text)
        except ProtocolError as exc:
            await _send_error(websocket, exc.code, exc.message, **exc.extra)
            continue
        except Exception as exc:  # env bug: report it, keep the session
            await _send_error(websocket, "EXECUTION_ERROR", f"{type(exc).__name__}: {exc}"[:1000])
            continue
        if reply is None:
            return
        await websocket.send_text(dumps(reply))


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next frame as text (binary frames are decoded as UTF-8)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return message["text"]
    try:
        return (message.get("bytes") or b"").decode("utf-8")
    except UnicodeDecodeError:
        return None


async def _send_error(websocket: WebSocket, code: str, message: str, **extra: Any) -> None:
    await websocket.send_text(dumps({"type": "error", "data": {"message": message, "code": code, **extra}}))


async def _close(websocket: WebSocket, code: int) -> None:
    try:
        await websocket.close(code)
    except (RuntimeError, WebSocketDisconnect):
        pass  # already closed by the client


def _rpc_error(rpc_id: Any, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": rpc_id}
