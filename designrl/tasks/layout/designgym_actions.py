"""The ``designgym`` profile's action parsing: DesignGym's lenient action model.

Lenient on purpose (see ``parse_action_lenient``), unlike the strict
``actions.parse_action`` the default profile and completion extraction use.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError


class DesignGymActionModel(BaseModel):
    """DesignGym's action model: every field optional, unknown fields ignored."""

    action_type: str = "noop"
    element_id: str | None = None
    element_ids: list[str] = []
    group_id: str | None = None
    region_id: str | None = None
    template_id: str | None = None
    pattern: str | None = None
    axis: str | None = None
    mode: str | None = None
    anchor: str = "center"
    grid: int = 0
    dx: float = 0.0
    dy: float = 0.0
    dw: float = 0.0
    dh: float = 0.0
    strength: float = 0.0


_DEFAULTS: dict[str, Any] = DesignGymActionModel().model_dump()
_OPT_STR = ("element_id", "group_id", "region_id", "template_id", "pattern", "axis", "mode")
_FLOATS = ("dx", "dy", "dw", "dh", "strength")
_FLOAT_INT_LIMIT = 2**53


_UNTYPED = object()  # a value the fast path leaves to pydantic


def _typed_value(key: str, v: Any) -> Any:
    """A plain dict's field value as DesignGym's model would hold it, or ``_UNTYPED`` when
    its type needs pydantic's validation (and perhaps an error message)."""
    t = type(v)
    if key in _FLOATS:
        if t is float:
            return v
        if t is int and -_FLOAT_INT_LIMIT <= v <= _FLOAT_INT_LIMIT:
            return float(v)
        return _UNTYPED
    if key in _OPT_STR:
        return v if v is None or t is str else _UNTYPED
    if key == "action_type" or key == "anchor":
        return v if t is str else _UNTYPED
    if key == "element_ids":
        return list(v) if t is list and all(type(i) is str for i in v) else _UNTYPED
    return v if t is int else _UNTYPED  # grid


def _typed_fields(raw: dict) -> dict | None:
    """The fast path for a plain, well-typed dict: its fields over the defaults, unknown
    fields ignored; None as soon as one field needs pydantic."""
    out = dict(_DEFAULTS)
    for key, v in raw.items():
        if key not in out:
            continue  # unknown field: ignored
        value = _typed_value(key, v)
        if value is _UNTYPED:
            return None
        out[key] = value
    return out


def _payload_error(exc: ValidationError) -> str:
    """``invalid_action_payload: <field>: <problem>; ...`` for the first five problems."""
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "action"
        parts.append(f"{where}: {err['msg']}")
    return "invalid_action_payload: " + "; ".join(parts)


def parse_action_lenient(raw: Any) -> tuple[dict | None, str | None]:
    """DesignGym's lenient parse: (fields with defaults filled in, None) or (None, error).

    Lenient on purpose, unlike the strict ``actions.parse_action`` the default profile
    and completion extraction use: the ``designgym`` profile must reproduce DesignGym's
    recorded transitions, so it accepts what DesignGym accepts. Unknown fields are
    ignored, a missing ``action_type`` becomes ``noop`` and any string passes as a type,
    anchor, axis or mode; ``operations.apply_action`` then rejects what it cannot apply
    (``unknown_action_type``, ...) as DesignGym does. Only a non-mapping or a mistyped
    field is an error here (``invalid_action_payload: ...``).

    Plain well-typed dicts take a fast path; anything else is validated with pydantic
    (lax mode, as DesignGym does) to get the same coercions and readable errors."""
    if type(raw) is dict:
        out = _typed_fields(raw)
        if out is not None:
            return out, None
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if not isinstance(raw, dict):
        return None, f"invalid_action_payload: an action must be a JSON object, got {type(raw).__name__}"
    try:
        model = DesignGymActionModel.model_validate(raw)
    except ValidationError as exc:
        return None, _payload_error(exc)
    except Exception as exc:  # noqa: BLE001 - never raise on untrusted input
        return None, f"invalid_action_payload: {type(exc).__name__}"
    return model.model_dump(), None
