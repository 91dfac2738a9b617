"""Prompts for the layout family: DesignGym's direct-action prompt and a compact one of ours.

* ``direct``: the state as JSON plus the action union's JSON schema (DesignGym's
  direct-action prompt: everything the env says, nothing summarised).
* ``compact``: one line per element, the brief's required regions, the last error
  and a short action grammar with examples: a fraction of the tokens, for small
  models and long episodes.
* ``state``: the compact prompt without the grammar, for a model fine-tuned on our
  actions (``designrl sft``), which no longer needs it: about half the tokens, so a
  small model trains twice as many epochs in the same time.

All ask for exactly one JSON action object.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from designrl.config.common import PromptStyle
from designrl.tasks.layout.actions import action_json_schema
from designrl.tasks.layout.env import LayoutObservation

SYSTEM = ("You are a layout designer. You edit a design on a canvas whose width and height "
          "are both 1.0 (boxes are [x, y, w, h], origin top-left) one action at a time, to "
          "make it clear, balanced and faithful to the brief. Reply with exactly one JSON "
          "action object and nothing else.")

GRAMMAR = """Actions (JSON, one per reply):
{"action_type": "move", "element_id": ID, "dx": float, "dy": float}
{"action_type": "resize", "element_id": ID, "dw": float, "dh": float, "anchor": "center"|"top_left"|...}
{"action_type": "align", "element_ids": [ID, ...], "axis": "x"|"y", "mode": "left"|"center"|"right"|"top"|"middle"|"bottom"}
{"action_type": "distribute", "element_ids": [ID, ID, ID, ...], "axis": "x"|"y"}
{"action_type": "snap", "element_id": ID, "grid": int}
{"action_type": "promote", "element_id": ID, "strength": float}
{"action_type": "reflow_group", "group_id": GROUP, "pattern": "stack"|"row"|"grid"}
{"action_type": "anchor_to_region", "element_id": ID, "region_id": REGION, "mode": "start"|"center"|"end"|"fill"}
{"action_type": "apply_template", "template_id": TEMPLATE}
{"action_type": "swap_z", "element_ids": [ID, ID]}
{"action_type": "finalize"}"""


REPLY = "Reply with one JSON action."
PROMPT_FILE = "designrl_prompt.json"  # in a model directory: the style it was trained on


@cache
def _schema_text() -> str:
    return json.dumps(action_json_schema(), separators=(",", ":"))


def state_of(obs: LayoutObservation) -> dict[str, Any]:
    """The observation without its bookkeeping (reward, metadata, message)."""
    state = obs.model_dump(exclude={"reward", "metadata", "message", "reward_components",
                                    "done", "seed", "profile"})
    state["metrics"] = {k: round(v, 3) for k, v in state["metrics"].items()}
    for key in ("score", "instruction_score", "potential"):
        if state.get(key) is not None:
            state[key] = round(state[key], 4)
    return state


def direct_prompt(obs: LayoutObservation) -> str:
    return (f"State:\n{json.dumps(state_of(obs), separators=(',', ':'))}\n\n"
            f"Action schema:\n{_schema_text()}\n\n"
            "Reply with one JSON object that matches the schema.")


def _state_text(obs: LayoutObservation) -> str:
    """The state in a few lines: task and scores, one line per element, the brief."""
    lines = [f"Task {obs.task_id}, step {obs.step_count}/{obs.max_steps}, "
             f"score {obs.score:.3f}, brief fit {obs.instruction_score:.3f}, "
             f"canvas aspect {obs.canvas_aspect:.3f}.",
             "Elements (id role group importance x y w h z):"]
    for e in obs.elements:
        x, y, w, h = e.bbox
        lines.append(f"{e.id} {e.role} {e.group} {e.importance:.2f} "
                     f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} {e.z}")
    goal = obs.brief.get("primary_goal")
    if goal:
        lines.append(f"Brief: {goal}")
    regions = obs.brief.get("required_regions") or {}
    if regions:
        lines.append("Required regions: " + ", ".join(f"{k} in {v}" for k, v in regions.items()))
    if obs.last_action_error:
        lines.append(f"Your last action was rejected: {obs.last_action_error}")
    return "\n".join(lines)


def compact_prompt(obs: LayoutObservation) -> str:
    return f"{_state_text(obs)}\n\n{GRAMMAR}\n\n{REPLY}"


def state_prompt(obs: LayoutObservation) -> str:
    return f"{_state_text(obs)}\n\n{REPLY}"


def write_prompt_style(model_dir: str | Path, style: PromptStyle) -> None:
    """Record in a model directory the prompt style its weights were trained to answer."""
    (Path(model_dir) / PROMPT_FILE).write_text(json.dumps({"prompt_style": style}))


def prompt_style_of(model_dir: str | Path) -> PromptStyle:
    """The style a model directory was trained on; ``compact`` for any other model."""
    path = Path(model_dir) / PROMPT_FILE
    return json.loads(path.read_text())["prompt_style"] if path.is_file() else "compact"


def layout_messages(obs: LayoutObservation, style: PromptStyle = "compact"
                    ) -> list[dict[str, str]]:
    """Chat messages (system + user) asking for the next action."""
    user = {"direct": direct_prompt, "compact": compact_prompt, "state": state_prompt}[style](obs)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
