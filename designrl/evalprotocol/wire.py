"""Eval Protocol's remote-rollout wire types, as ``RemoteRolloutProcessor`` (eval-protocol
0.3.33) sends and reads them; eval-protocol itself is not a dependency.

``POST /init`` gets an ``InitRequest``; the client then polls ``GET /v1/status`` (or
``/status``) for ``{"status": {"code": ...}}`` until the code is not ``RUNNING``, reads the
terminal entry of ``GET /logs`` (its ``extras`` land in the row's
``execution_metadata.extra``) and the rollout's trace from ``GET /v1/traces/pointwise``.
Every request names the rollout by tags, ``"rollout_id:<id>"``.

Extra keys are accepted everywhere and null fields read as absent: a newer client's
additions do not fail its rows.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

PLAIN = r"^[^\x00-\x1f\x7f]+$"  # no control characters (Postgres text refuses NUL)
Id = Annotated[str, Field(min_length=1, max_length=200, pattern=PLAIN)]
Tag = Annotated[str, Field(max_length=300, pattern=PLAIN)]
TAG_KEYS = ("invocation_id", "experiment_id", "rollout_id", "run_id", "row_id")


class Code(IntEnum):
    """The status codes a rollout reports (google.rpc codes and Eval Protocol's own)."""

    CANCELLED = 1
    INTERNAL = 13
    FINISHED = 100
    RUNNING = 101


class RolloutMetadata(BaseModel):
    """The ids of one rollout: the five tags its logs and traces carry."""

    model_config = ConfigDict(extra="allow")

    invocation_id: Id
    experiment_id: Id
    rollout_id: Id
    run_id: Id
    row_id: Id


class InitRequest(BaseModel):
    """``POST /init``: start one rollout of a row. ``completion_params["model"]`` names the
    policy; ``messages`` are the row's; ``api_key`` is the caller's key (the client sends
    no header with it)."""

    model_config = ConfigDict(extra="allow")

    completion_params: dict[str, Any] = Field(default_factory=dict)
    messages: list[dict[str, Any]] = Field(default_factory=list, max_length=100)
    tools: list[dict[str, Any]] | None = None
    model_base_url: str | None = None
    metadata: RolloutMetadata
    api_key: str | None = None

    @field_validator("completion_params", "messages", mode="before")
    @classmethod
    def _null_is_empty(cls, value: Any, info) -> Any:
        if value is None:
            return {} if info.field_name == "completion_params" else []
        return value


def tags(ids: Any) -> list[str]:
    """The five ``key:value`` tags of a rollout (anything with the five id attributes)."""
    return [f"{key}:{getattr(ids, key)}" for key in TAG_KEYS]


def rollout_id_of(tags_given: list[str]) -> str | None:
    """The rollout id a ``tags`` query names (``rollout_id:<id>``), or None."""
    for tag in tags_given:
        key, _, value = tag.partition(":")
        if key == "rollout_id" and value:
            return value
    return None
