"""The layout action language: DesignGym's 11 action types with its JSON fields.

``parse_action`` validates untrusted JSON strictly (unknown fields and values
are errors that name what is allowed) and never raises: it returns either an
action or a readable error message, which the env records as an invalid step.
The ``designgym`` profile parses with ``designgym_actions.parse_action_lenient`` instead,
which accepts what DesignGym accepts so that its recorded transitions replay.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from designrl.tasks.layout.spec import REGION_IDS

Axis = Literal["x", "y"]
AlignMode = Literal["left", "center", "right", "top", "middle", "bottom"]
ResizeAnchor = Literal["center", "north", "south", "east", "west", "nw", "ne", "sw", "se"]
ReflowPattern = Literal["stack", "row", "grid2", "sidebar"]
AnchorMode = Literal["start", "center", "end", "fill"]
RegionId = Literal[REGION_IDS]  # type: ignore[valid-type]

ALIGN_MODES_BY_AXIS = {"x": ("left", "center", "right"), "y": ("top", "middle", "bottom", "center")}


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Move(_Action):
    """Shift one element by (dx, dy) in canvas units."""

    action_type: Literal["move"] = "move"
    element_id: str
    dx: float = Field(0.0, ge=-1, le=1)
    dy: float = Field(0.0, ge=-1, le=1)


class Resize(_Action):
    """Grow or shrink one element by (dw, dh), keeping the anchor point fixed."""

    action_type: Literal["resize"] = "resize"
    element_id: str
    dw: float = Field(0.0, ge=-1, le=1)
    dh: float = Field(0.0, ge=-1, le=1)
    anchor: ResizeAnchor = "center"


class Align(_Action):
    """Align several elements' edges or centres on one axis."""

    action_type: Literal["align"] = "align"
    element_ids: list[str] = Field(min_length=2, max_length=32)
    axis: Axis
    mode: AlignMode


class Distribute(_Action):
    """Space several elements evenly along one axis."""

    action_type: Literal["distribute"] = "distribute"
    element_ids: list[str] = Field(min_length=3, max_length=32)
    axis: Axis


class Snap(_Action):
    """Round one element's box to a 1/grid lattice."""

    action_type: Literal["snap"] = "snap"
    element_id: str
    grid: int = Field(12, ge=1, le=256)


class Promote(_Action):
    """Make one element more salient: bigger and on top."""

    action_type: Literal["promote"] = "promote"
    element_id: str
    strength: float = Field(0.0, ge=-0.5, le=0.5)


class ReflowGroup(_Action):
    """Lay out the elements of one group in a pattern."""

    action_type: Literal["reflow_group"] = "reflow_group"
    group_id: str
    pattern: ReflowPattern = "stack"


class AnchorToRegion(_Action):
    """Place one element inside a named region of the canvas."""

    action_type: Literal["anchor_to_region"] = "anchor_to_region"
    element_id: str
    region_id: RegionId
    mode: AnchorMode = "center"


class ApplyTemplate(_Action):
    """Replace every box with a named template's boxes."""

    action_type: Literal["apply_template"] = "apply_template"
    template_id: str


class SwapZ(_Action):
    """Exchange the stacking order of two elements."""

    action_type: Literal["swap_z"] = "swap_z"
    element_ids: list[str] = Field(min_length=2, max_length=2)


class Finalize(_Action):
    """Declare the layout finished; ends the episode."""

    action_type: Literal["finalize"] = "finalize"


LayoutAction = Annotated[
    Union[  # noqa: UP007 - a discriminated union reads best spelled out
        Move, Resize, Align, Distribute, Snap, Promote, ReflowGroup, AnchorToRegion,
        ApplyTemplate, SwapZ, Finalize,
    ],
    Field(discriminator="action_type"),
]
ACTION_TYPES: tuple[str, ...] = (
    "move", "resize", "align", "distribute", "snap", "promote", "reflow_group",
    "anchor_to_region", "apply_template", "swap_z", "finalize",
)
_ADAPTER: TypeAdapter = TypeAdapter(LayoutAction)
MAX_ACTION_BYTES = 16_384


def action_json_schema() -> dict:
    """JSON schema of the action union (for prompts and the OpenEnv /schema)."""
    return _ADAPTER.json_schema()


def parse_action(raw: Any) -> tuple[BaseModel | None, str | None]:
    """Validate untrusted input strictly as a layout action: (action, None) or (None, error).

    Strict on purpose: a model being trained should learn the action language
    exactly, so an unknown field, type or value is an error that says what is
    allowed. Used by completion extraction and the default profile; the
    ``designgym`` profile's lenient counterpart is ``designgym_actions.parse_action_lenient``."""
    try:
        if isinstance(raw, BaseModel):
            raw = raw.model_dump()
        if isinstance(raw, (str, bytes)):
            if len(raw) > MAX_ACTION_BYTES:
                return None, f"action is {len(raw)} bytes; the limit is {MAX_ACTION_BYTES}"
            raw = json.loads(raw)
        if not isinstance(raw, dict):
            return None, f"an action must be a JSON object, got {type(raw).__name__}"
        kind = raw.get("action_type")
        if kind not in ACTION_TYPES:
            return None, f"unknown action_type {kind!r}; allowed: {', '.join(ACTION_TYPES)}"
        action = _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        return None, _describe(exc)
    except (ValueError, TypeError, RecursionError) as exc:
        return None, f"action is not valid JSON: {exc}"[:500]
    if isinstance(action, Align) and action.mode not in ALIGN_MODES_BY_AXIS[action.axis]:
        allowed = ", ".join(ALIGN_MODES_BY_AXIS[action.axis])
        return None, f"align mode {action.mode!r} does not fit axis {action.axis!r}; allowed: {allowed}"
    return action, None


def _describe(exc: ValidationError) -> str:
    """One readable line per problem, e.g. ``move.dx: Input should be a valid number``."""
    lines = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "action"
        if err["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown field")
        else:
            lines.append(f"{where}: {err['msg']}")
    return "; ".join(lines)
