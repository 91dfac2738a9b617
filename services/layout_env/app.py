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

The protocol is env-agnostic: ``wire`` (models, strict JSON), ``protocol`` (what a
served env provides; one WS frame to its reply) and ``routes`` (the HTTP and WS routes);
this module serves ``LayoutEnv`` with them, and request bodies are capped by the
``BodyLimit`` the API uses too (``services.body_limit``).

Run: ``python -m services.layout_env.app --port 8001 --profile default``.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from designrl.tasks.layout import env as layout_env
from designrl.tasks.layout.actions import ACTION_TYPES, action_json_schema
from designrl.tasks.layout.env import LayoutEnv, LayoutObservation, LayoutState
from designrl.tasks.layout.metrics import use_native
from services.body_limit import BodyLimit
from services.docs_pages import add_docs
from services.layout_env.protocol import EnvProtocol, ServedEnv
from services.layout_env.routes import add_routes
from services.layout_env.settings import LayoutEnvSettings
from services.layout_env.wire import EnvironmentMetadata, dumps

__all__ = ["MAX_MESSAGE_BYTES", "create_app", "dumps", "layout_served_env", "main"]

MAX_MESSAGE_BYTES = 65_536
API_VERSION = "1.0.0"  # the OpenEnv HTTP standard this server follows (openenv-http/1.x)
ENV_NAME = "layout_env"  # as in openenv.yaml


def layout_served_env(profile: str, max_sessions: int) -> ServedEnv:
    """``LayoutEnv`` with ``profile`` as the protocol serves it: its maker, task ids,
    schemas and metadata (whose readme says how to use it)."""
    readme = (
        f"# {ENV_NAME}\n\nProfile `{profile}`; up to {max_sessions} WebSocket sessions.\n\n"
        f"Reset arguments: `task_id` (one of {', '.join(layout_env.LAYOUT_TASK_IDS)}), "
        "`seed` (int >= 0), `episode_id`.\n\n"
        f"Action types: {', '.join(ACTION_TYPES)}; see `/schema`.\n\n"
        "An invalid action is a recorded invalid step (observation.last_action_error), "
        "not a protocol error. HTTP /reset and /step are stateless; use /ws for episodes.\n"
    )
    return ServedEnv(
        make=lambda: LayoutEnv(profile=profile),
        task_ids=layout_env.LAYOUT_TASK_IDS,
        schemas={
            "action": action_json_schema(),
            "observation": LayoutObservation.model_json_schema(),
            "reset_observation": LayoutObservation.model_json_schema(),
            "state": LayoutState.model_json_schema(),
        },
        metadata=EnvironmentMetadata(
            name=ENV_NAME,
            description="Layout editing for RL: move, resize, align and more on a poster, slide or "
                        "page until it scores well; shaped reward.",
            readme_content=readme, version=_package_version(), author="designrl",
        ),
    )


def create_app(profile: str = "default", max_sessions: int = 128,
               max_message_bytes: int = MAX_MESSAGE_BYTES,
               idle_timeout_s: float | None = None, pure_python: bool = False) -> FastAPI:
    """The layout env served OpenEnv-style.

    Args:
        profile: ``LayoutEnv`` profile every session uses (``default`` or ``designgym``).
        max_sessions: WebSocket sessions open at once; one more gets ``CAPACITY_REACHED``.
        max_message_bytes: largest WS frame or HTTP body accepted.
        idle_timeout_s: close a WS session that sends nothing for this long (``None``: never).
        pure_python: score layouts without the C extension (this process: the setting
            ``pure_python`` the API and the workers follow too).
    """
    if pure_python:
        use_native(False)
    LayoutEnv(profile=profile)  # fail now, not at the first request, on a bad profile
    if max_sessions < 1:
        raise ValueError("max_sessions must be at least 1")
    executor = ThreadPoolExecutor(max_workers=min(32, max_sessions), thread_name_prefix="layout-env")

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
    app.state.sessions = {"active": 0}
    protocol = EnvProtocol(layout_served_env(profile, max_sessions), executor, max_message_bytes)
    add_routes(app, protocol, LayoutState, max_sessions, idle_timeout_s)
    return app


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
        globals()["app"] = create_app(pure_python=LayoutEnvSettings().pure_python)
        return globals()["app"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """``python -m services.layout_env.app --port 8001 --profile default``."""
    import uvicorn

    parser = argparse.ArgumentParser(description="Serve the layout env over OpenEnv's protocol.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--profile", default="default", choices=layout_env.PROFILES)
    parser.add_argument("--max-sessions", type=int, default=128)
    parser.add_argument("--max-message-bytes", type=int, default=MAX_MESSAGE_BYTES)
    parser.add_argument("--idle-timeout", type=float, default=None,
                        help="close WS sessions idle this many seconds (default: never)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--pure-python", action=argparse.BooleanOptionalAction,
                        default=LayoutEnvSettings().pure_python,
                        help="score layouts without the C extension (default: "
                             "$DESIGNRL_PURE_PYTHON, else no)")
    args = parser.parse_args(argv)
    app = create_app(args.profile, args.max_sessions, args.max_message_bytes, args.idle_timeout,
                     pure_python=args.pure_python)
    # Frames past the app's own limit get a readable error; uvicorn drops absurd ones (1009).
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=max(1 << 20, 4 * args.max_message_bytes))


if __name__ == "__main__":
    main()
