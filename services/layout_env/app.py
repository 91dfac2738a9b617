"""OpenEnv-compatible server for the layout env (``LayoutEnv``) over HTTP and WebSocket.

It speaks OpenEnv 0.10's wire protocol with FastAPI and pydantic only (the
``openenv`` package is a heavy dev dependency and is never imported here), so
the real ``openenv`` ``EnvClient`` (see ``designrl.tasks.layout.client``) and
``openenv validate --url`` work against it.

Endpoints:

* ``WS /ws``: one session per connection, each with its own ``LayoutEnv``
  (``max_sessions`` at once). Client frames ``{"type": "reset", "data":
  {"task_id", "seed", "episode_id"}}``, ``{"type": "step", "data": <action>}``,
  ``{"type": "state"}``, ``{"type": "close"}``; replies ``{"type":
  "observation", "data": {"observation", "reward", "done", "metadata"?}}``,
  ``{"type": "state", "data": {...}}`` or ``{"type": "error", "data":
  {"message", "code"}}``. Use this for episodes.
* ``POST /reset``, ``POST /step``: stateless, as in OpenEnv: every call builds a
  fresh env. Nothing is replayed; ``/step`` resets the fresh env (to the
  ``task_id``/``seed`` given in its body, else the default task with seed 0)
  and applies one action, which is what a one-action evaluation needs.
* ``GET /state`` (a fresh env's state, as in OpenEnv), ``/health``, ``/schema``,
  ``/metadata``, and ``POST /mcp`` (JSON-RPC; no tools, present so OpenEnv's
  runtime validator passes).

Protocol choices:

* A bad action is the policy's doing, so it is a *recorded invalid step*: the
  env answers with an observation whose ``last_action_error`` says what was
  wrong, a penalty reward and a step counted, over WS and HTTP alike. OpenEnv
  itself answers 422 / ``VALIDATION_ERROR``, which makes its client raise and
  would kill a rollout over one malformed model output. The step ``data`` may
  be any JSON value, including the raw model text as a string; a top-level
  ``metadata`` object (OpenEnv's ``Action`` base field) is dropped first.
* Protocol errors are the client program's doing: a frame that is not JSON
  (``INVALID_JSON``), not an object or with a bad envelope or bad reset
  arguments (``VALIDATION_ERROR``; unknown reset keys and task ids are
  rejected, not silently ignored, so a typo cannot run the wrong task), an
  unknown ``type`` (``UNKNOWN_TYPE``), a frame over ``max_message_bytes``
  (``VALIDATION_ERROR``; HTTP bodies get 413), an env failure
  (``EXECUTION_ERROR``), no free session (``CAPACITY_REACHED``, then the
  socket closes). The session survives every error but the last.
* Responses never carry NaN or infinity: non-finite numbers become ``null``.

Run: ``python -m services.layout_env.app --port 8001 --profile default``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from designrl.tasks.layout import env as layout_env
from designrl.tasks.layout.actions import ACTION_TYPES, action_json_schema
from designrl.tasks.layout.env import LayoutEnv, LayoutObservation, LayoutState
from services.docs_pages import add_docs

MAX_MESSAGE_BYTES = 65_536
MAX_SEED = 2**63 - 1
API_VERSION = "1.0.0"  # the OpenEnv HTTP standard this server follows (openenv-http/1.x)
ENV_NAME = "layout_env"  # as in openenv.yaml
MESSAGE_TYPES = ("reset", "step", "state", "close")


# --- wire models ----------------------------------------------------------------------


class ResetParams(BaseModel):
    """Reset arguments: the ``/reset`` body and the WS ``reset`` message's ``data``."""

    model_config = ConfigDict(extra="forbid")

    task_id: str | None = Field(None, max_length=128, description="layout task id; default: the env's default task")
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="episode seed; default 0")
    episode_id: str | None = Field(None, max_length=255, description="your id for the episode; default: a fresh uuid")


class StepRequest(ResetParams):
    """The ``/step`` body: one action, applied to a fresh env reset with the given arguments."""

    action: Any = Field(..., description="a layout action (JSON object, or its JSON text)")
    timeout_s: float | None = Field(None, gt=0, description="accepted for OpenEnv compatibility; unused")
    request_id: str | None = Field(None, max_length=255, description="accepted for OpenEnv compatibility; unused")


class StepResult(BaseModel):
    """``/reset`` and ``/step`` answer, and the ``data`` of a WS ``observation`` reply."""

    observation: dict[str, Any] = Field(description="the observation, less reward and done")
    reward: float | None = None
    done: bool = False
    metadata: dict[str, Any] | None = None


class HealthResponse(BaseModel):
    status: str = "healthy"


class SchemaResponse(BaseModel):
    action: dict[str, Any]
    observation: dict[str, Any]
    reset_observation: dict[str, Any]
    state: dict[str, Any]


class EnvironmentMetadata(BaseModel):
    name: str
    description: str
    readme_content: str | None = None
    version: str | None = None
    author: str | None = None
    documentation_url: str | None = None


class ProtocolError(Exception):
    """A client-side mistake in a WS frame; becomes an ``error`` reply."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


# --- serialisation -----------------------------------------------------------------------


def _finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinity replaced by ``None`` (JSON has neither)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def dumps(obj: Any) -> str:
    """Strict JSON text; non-finite numbers become ``null`` rather than invalid JSON."""
    try:
        return json.dumps(obj, allow_nan=False, separators=(",", ":"))
    except ValueError:
        return json.dumps(_finite(obj), allow_nan=False, separators=(",", ":"))


def step_result(obs: LayoutObservation) -> dict[str, Any]:
    """OpenEnv's serialised observation: reward and done beside the observation, metadata in both."""
    result: dict[str, Any] = {
        "observation": obs.model_dump(mode="json", exclude={"reward", "done"}),
        "reward": obs.reward,
        "done": obs.done,
    }
    if obs.metadata:
        result["metadata"] = result["observation"]["metadata"]
    return result


def json_response(obj: Any, status_code: int = 200) -> Response:
    return Response(dumps(obj), status_code=status_code, media_type="application/json")


def _errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]}
        for e in exc.errors(include_url=False, include_context=False)
    ]


def _describe(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'data'}: "
        f"{'unknown field' if e['type'] == 'extra_forbidden' else e['msg']}"
        for e in exc.errors(include_url=False)[:5]
    )


def _action_of(data: Any) -> Any:
    """The action inside a step payload, without OpenEnv's ``Action.metadata`` field."""
    if isinstance(data, dict) and isinstance(data.get("metadata"), dict):
        data = {k: v for k, v in data.items() if k != "metadata"}
    return data


def _check_task(task_id: str | None) -> str | None:
    """An error message when ``task_id`` is not a known task (``None`` means default)."""
    known = getattr(layout_env, "LAYOUT_TASK_IDS", None)
    if task_id is None or not known or task_id in known:
        return None
    return f"unknown task_id {task_id!r}; known: {', '.join(known)}"


# --- body size limit -----------------------------------------------------------------------


class BodyLimit:
    """ASGI middleware: refuse HTTP request bodies over ``max_bytes`` with 413 and a reason."""

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send, f"{int(declared)} bytes")
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send, f"more than {self.max_bytes} bytes")
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

    async def _refuse(self, send: Callable, size: str) -> None:
        detail = f"request body is {size}; the limit is {self.max_bytes} bytes"
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": dumps({"detail": detail}).encode()})


# --- the app ---------------------------------------------------------------------------------


def create_app(profile: str = "default", max_sessions: int = 128,
               max_message_bytes: int = MAX_MESSAGE_BYTES,
               idle_timeout_s: float | None = None) -> FastAPI:
    """The layout env served OpenEnv-style.

    Args:
        profile: ``LayoutEnv`` profile every session uses (``default`` or ``designgym``).
        max_sessions: WebSocket sessions open at once; one more gets ``CAPACITY_REACHED``.
        max_message_bytes: largest WS frame or HTTP body accepted.
        idle_timeout_s: close a WS session that sends nothing for this long (``None``: never).
    """
    LayoutEnv(profile=profile)  # fail now, not at the first request, on a bad profile
    if max_sessions < 1:
        raise ValueError("max_sessions must be at least 1")
    executor = ThreadPoolExecutor(max_workers=min(32, max_sessions), thread_name_prefix="layout-env")
    sessions = {"active": 0}

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="designrl layout env (OpenEnv-compatible)", version=API_VERSION, lifespan=lifespan,
        description="The layout env over OpenEnv's protocol: stateless HTTP /reset and /step, "
                    "sessions on WS /ws. An invalid action is a recorded invalid step.",
        docs_url=None, redoc_url=None,  # add_docs serves them offline
    )
    add_docs(app)
    app.add_middleware(BodyLimit, max_bytes=max_message_bytes)
    app.state.profile = profile
    app.state.max_sessions = max_sessions
    app.state.sessions = sessions

    async def run(fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Run env code off the event loop so sockets and health checks stay responsive."""
        return await asyncio.get_running_loop().run_in_executor(executor, lambda: fn(*args, **kwargs))

    def fresh_env() -> LayoutEnv:
        return LayoutEnv(profile=profile)

    # --- HTTP (stateless) ---

    @app.post("/reset", response_model=StepResult, tags=["Environment Control"],
              summary="Start an episode in a fresh env and return its first observation")
    async def reset(params: ResetParams | None = None) -> Response:
        params = params or ResetParams()
        if (error := _check_task(params.task_id)) is not None:
            raise HTTPException(422, detail=[{"loc": ["body", "task_id"], "msg": error, "type": "value_error"}])
        obs = await run(fresh_env().reset, **params.model_dump(exclude_none=True))
        return json_response(step_result(obs))

    @app.post("/step", response_model=StepResult, tags=["Environment Control"],
              summary="Apply one action to a fresh env reset with the given task_id and seed",
              description="Stateless: nothing carries over between calls and nothing is replayed. "
                          "An invalid action is a recorded invalid step (200, observation."
                          "last_action_error set), not a 422. Use the /ws endpoint for episodes.")
    async def step(request: StepRequest) -> Response:
        if (error := _check_task(request.task_id)) is not None:
            raise HTTPException(422, detail=[{"loc": ["body", "task_id"], "msg": error, "type": "value_error"}])
        env = fresh_env()
        reset_args = request.model_dump(include={"task_id", "seed", "episode_id"}, exclude_none=True)

        def reset_and_step() -> LayoutObservation:
            env.reset(**reset_args)
            return env.step(_action_of(request.action))

        return json_response(step_result(await run(reset_and_step)))

    @app.get("/state", response_model=LayoutState, tags=["State Management"],
             summary="State of a fresh env (HTTP is stateless; ask the /ws session for yours)")
    async def state() -> Response:
        return json_response(fresh_env().state.model_dump(mode="json"))

    @app.get("/health", response_model=HealthResponse, tags=["Health"])
    async def health() -> dict:
        return {"status": "healthy"}

    schemas = {
        "action": action_json_schema(),
        "observation": LayoutObservation.model_json_schema(),
        "reset_observation": LayoutObservation.model_json_schema(),
        "state": LayoutState.model_json_schema(),
    }

    @app.get("/schema", response_model=SchemaResponse, tags=["Schema"])
    async def schema() -> dict:
        return schemas

    task_ids = getattr(layout_env, "LAYOUT_TASK_IDS", ())
    readme = (
        f"# {ENV_NAME}\n\nProfile `{profile}`; up to {max_sessions} WebSocket sessions.\n\n"
        f"Reset arguments: `task_id` (one of {', '.join(task_ids) or 'the env tasks'}), "
        "`seed` (int >= 0), `episode_id`.\n\n"
        f"Action types: {', '.join(ACTION_TYPES)}; see `/schema`.\n\n"
        "An invalid action is a recorded invalid step (observation.last_action_error), "
        "not a protocol error. HTTP /reset and /step are stateless; use /ws for episodes.\n"
    )
    metadata = EnvironmentMetadata(
        name=ENV_NAME,
        description="Layout editing for RL: move, resize, align and more on a poster, slide or "
                    "page until it scores well; shaped reward.",
        readme_content=readme, version=_package_version(), author="designrl",
    )

    @app.get("/metadata", response_model=EnvironmentMetadata, tags=["Environment Info"])
    async def get_metadata() -> EnvironmentMetadata:
        return metadata

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

    # --- WebSocket sessions ---

    async def handle(env: LayoutEnv, text: str) -> dict | None:
        """One client frame to its reply (``None`` for ``close``)."""
        if len(text) > max_message_bytes or len(text.encode("utf-8")) > max_message_bytes:
            raise ProtocolError("VALIDATION_ERROR", f"message is {len(text.encode('utf-8'))} bytes; "
                                f"the limit is {max_message_bytes}")
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
        if kind == "close":
            return None
        if kind == "state":
            return {"type": "state", "data": env.state.model_dump(mode="json")}
        if kind == "reset":
            data = message.get("data") or {}
            try:
                params = ResetParams.model_validate(data)
            except ValidationError as exc:
                raise ProtocolError("VALIDATION_ERROR", f"bad reset data: {_describe(exc)}",
                                    errors=_errors(exc)) from None
            if (error := _check_task(params.task_id)) is not None:
                raise ProtocolError("VALIDATION_ERROR", error)
            obs = await run(env.reset, **params.model_dump(exclude_none=True))
        else:
            if "data" not in message:
                raise ProtocolError("VALIDATION_ERROR", "a step message needs data: the action")
            obs = await run(env.step, _action_of(message["data"]))
        return {"type": "observation", "data": step_result(obs)}

    async def receive_text(websocket: WebSocket) -> str | None:
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

    async def send_error(websocket: WebSocket, code: str, message: str, **extra: Any) -> None:
        await websocket.send_text(dumps({"type": "error", "data": {"message": message, "code": code, **extra}}))

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        if sessions["active"] >= max_sessions:
            await send_error(websocket, "CAPACITY_REACHED",
                             f"Server at capacity: {sessions['active']}/{max_sessions} sessions in use",
                             active_sessions=sessions["active"], max_sessions=max_sessions)
            await _close(websocket, 1013)
            return
        sessions["active"] += 1
        env = fresh_env()
        try:
            while True:
                try:
                    text = await asyncio.wait_for(receive_text(websocket), idle_timeout_s)
                except TimeoutError:
                    await send_error(websocket, "SESSION_ERROR",
                                     f"session idle for {idle_timeout_s} s; closing")
                    break
                try:
                    if text is None:
                        raise ProtocolError("INVALID_JSON", "Invalid JSON: binary frame is not UTF-8")
                    reply = await handle(env, text)
                except ProtocolError as exc:
                    await send_error(websocket, exc.code, exc.message, **exc.extra)
                    continue
                except Exception as exc:  # env bug: report it, keep the session
                    await send_error(websocket, "EXECUTION_ERROR", f"{type(exc).__name__}: {exc}"[:1000])
                    continue
                if reply is None:
                    break
                await websocket.send_text(dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            sessions["active"] -= 1
            await _close(websocket, 1000)

    return app


async def _close(websocket: WebSocket, code: int) -> None:
    try:
        await websocket.close(code)
    except (RuntimeError, WebSocketDisconnect):
        pass  # already closed by the client


def _rpc_error(rpc_id: Any, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": rpc_id}


def _package_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("designrl")
    except PackageNotFoundError:
        return None


def __getattr__(name: str) -> Any:
    """``app``, built on first use, so ``uvicorn services.layout_env.app:app`` (and the
    manifest's ``app:``) work without building an app at import time."""
    if name == "app":
        globals()["app"] = create_app()
        return globals()["app"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """``python -m services.layout_env.app --port 8001 --profile default``."""
    import uvicorn

    parser = argparse.ArgumentParser(description="Serve the layout env over OpenEnv's protocol.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--profile", default="default", choices=layout_env.PROFILES
                        if hasattr(layout_env, "PROFILES") else None)
    parser.add_argument("--max-sessions", type=int, default=128)
    parser.add_argument("--max-message-bytes", type=int, default=MAX_MESSAGE_BYTES)
    parser.add_argument("--idle-timeout", type=float, default=None,
                        help="close WS sessions idle this many seconds (default: never)")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    app = create_app(args.profile, args.max_sessions, args.max_message_bytes, args.idle_timeout)
    # Frames past the app's own limit get a readable error; uvicorn drops absurd ones (1009).
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=max(1 << 20, 4 * args.max_message_bytes))


if __name__ == "__main__":
    main()
