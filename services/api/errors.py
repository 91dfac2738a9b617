"""422s in plain words: pydantic's messages for a bad request body rewritten to name the
field and say what to send, in the standard ``{"detail": [{"loc", "msg", "type"}]}`` shape
(one ``msg`` per error, so clients keep working) with a one-line ``message`` over them.

Rewritten: a missing or unknown discriminator (``kind``) lists the kinds; a body that is
not a JSON object (no or another ``Content-Type``, not JSON, a list) says to send one; an
empty list says what it needs at least one of. Every other message is pydantic's, led by
the field it is about."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError

SEND_JSON = "send a JSON object with Content-Type: application/json"
# What one entry of a list field is called ("'tasks' needs at least one task").
SINGULAR = {"tasks": "task", "policies": "policy", "seeds": "seed", "items": "item",
            "families": "family"}


def validation_reply(request: Request, exc: RequestValidationError) -> dict[str, Any]:
    """The 422 body for ``exc``: ``error``, ``message`` (every problem, in plain words,
    ``; ``-joined) and ``detail`` (one ``{loc, msg, type}`` per problem)."""
    detail, problems = [], []
    for error in exc.errors():
        loc = _loc(tuple(error.get("loc", ())), getattr(exc, "body", None))
        plain = _plain(request, error, loc)
        msg = plain or str(error.get("msg"))
        where = ".".join(str(p) for p in loc if p != "body")
        problems.append(msg if plain or not where else f"{where}: {msg}")
        detail.append({"loc": list(loc), "msg": msg, "type": error.get("type")})
    return {"error": "invalid_request", "message": "; ".join(problems), "detail": detail}


def _loc(loc: tuple, body: Any) -> tuple:
    """``loc`` without a discriminated union's tag: ``body.benchmark.tasks`` -> ``body.tasks``
    (the tag is a value the client sent, not a field)."""
    if (len(loc) > 2 and loc[0] == "body" and isinstance(body, dict)
            and loc[1] not in body and loc[1] in body.values()):
        return (loc[0], *loc[2:])
    return loc


def _plain(request: Request, error: dict[str, Any], loc: tuple) -> str | None:
    kind, ctx = error.get("type"), error.get("ctx") or {}
    field = ".".join(str(p) for p in loc if p != "body")
    if kind == "union_tag_invalid":
        return (f"field {ctx.get('discriminator')} must be one of: {ctx.get('expected_tags')}"
                f" (got {str(ctx.get('tag'))[:100]!r})")
    if kind == "union_tag_not_found":
        tags = _expected_tags(request, str(ctx.get("discriminator", "")).strip("'"))
        return (f"field {ctx.get('discriminator')} is required and must be one of: {tags}"
                if tags else f"field {ctx.get('discriminator')} is required")
    if loc == ("body",) and kind == "missing":
        return f"the request has no body: {SEND_JSON}"
    if loc == ("body",) and kind in ("model_attributes_type", "dict_type", "model_type"):
        given = error.get("input")
        if isinstance(given, str | bytes):  # not read as JSON: no or another Content-Type
            return f"the body was not read as JSON: {SEND_JSON}"
        return f"the body must be a JSON object, not {_json_type(given)}: {SEND_JSON}"
    if kind == "json_invalid":
        where = f" near character {loc[-1]}" if isinstance(loc[-1], int) else ""
        return f"the body is not valid JSON ({ctx.get('error', 'decode error')}{where}): " \
               f"{SEND_JSON}"
    if kind == "too_short" and ctx.get("field_type") == "List":
        name = str(loc[-1]) if loc else "the list"
        noun = SINGULAR.get(name, "entry")
        least = ctx.get("min_length", 1)
        return (f"'{field}' needs at least one {noun}" if least == 1
                else f"'{field}' needs at least {least} entries (got {ctx.get('actual_length')})")
    return None


def _expected_tags(request: Request, discriminator: str) -> str | None:
    """The tags the route's body accepts, found by validating a body with a tag no union
    has (pydantic then names them)."""
    field = getattr(request.scope.get("route"), "body_field", None)
    if field is None or not discriminator:
        return None
    try:
        _, errors = field.validate({discriminator: "\x00"}, {}, loc=("body",))
    except Exception:  # noqa: BLE001 - only a nicer message is lost
        return None
    for error in errors or ():
        if error.get("type") == "union_tag_invalid":
            return (error.get("ctx") or {}).get("expected_tags")
    return None


def _json_type(value: Any) -> str:
    return {list: "a list", int: "a number", float: "a number", bool: "true or false",
            type(None): "null"}.get(type(value), "a string")
