"""Liveness (the process answers) and readiness (the database and the broker answer).

Readiness also says how browsers on this host are held (``render_sandbox``: network
namespace, memory cap, Chromium's own sandbox); it informs, it does not gate.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from designrl.render.modes import isolation_modes
from designrl.store import ping

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
def readyz(request: Request) -> JSONResponse:
    checks = {}
    try:
        with request.app.state.sessions() as session:
            ping(session)
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means not ready; say which
        checks["database"] = f"unavailable: {type(exc).__name__}"
    try:
        request.app.state.redis.ping()
        checks["broker"] = "ok"
    except Exception as exc:  # noqa: BLE001
        checks["broker"] = f"unavailable: {type(exc).__name__}"
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse({"status": "ready" if ready else "not ready", **checks,
                         "render_sandbox": _render_sandbox()},
                        status_code=200 if ready else 503)


@cache
def _render_sandbox() -> dict[str, str]:
    return isolation_modes()
