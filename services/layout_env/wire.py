"""OpenEnv 0.10's wire format, for any env: the request and reply models, the protocol
error a bad WebSocket frame raises, and strict JSON serialisation (non-finite numbers
become ``null``; JSON has neither NaN nor infinity).

The models are OpenEnv's own field for field, so its ``EnvClient`` and ``openenv
validate`` accept a server built on them (``protocol`` and ``routes``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_SEED = 2**63 - 1


class ResetParams(BaseModel):
    """Reset arguments: the ``/reset`` body and the WS ``reset`` message's ``data``."""

    model_config = ConfigDict(extra="forbid")

    task_id: str | None = Field(None, max_length=128, description="the env's task id; default: its default task")
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


def step_result(obs: BaseModel) -> dict[str, Any]:
    """OpenEnv's serialised observation (any observation model with ``reward``, ``done`` and
    ``metadata``): reward and done beside the observation, metadata in both."""
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


def validation_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]}
        for e in exc.errors(include_url=False, include_context=False)
    ]


def describe_errors(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'data'}: "
        f"{'unknown field' if e['type'] == 'extra_forbidden' else e['msg']}"
        for e in exc.errors(include_url=False)[:5]
    )


def action_of(data: Any) -> Any:
    """The action inside a step payload, without OpenEnv's ``Action.metadata`` field."""
    if isinstance(data, dict) and isinstance(data.get("metadata"), dict):
        data = {k: v for k, v in data.items() if k != "metadata"}
    return data
