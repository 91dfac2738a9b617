"""A seeded random policy: valid actions of every type drawn at random (a floor to beat).

``random_action`` is also the action stream of the speed bench and of tests
that need layouts in many states.
"""

from __future__ import annotations

import random
from typing import Any

from designrl.tasks.layout.spec import REGION_IDS, TaskSpec

ANCHORS = ("center", "north", "south", "east", "west", "nw", "ne", "sw", "se")
ALIGN_MODES = {"x": ("left", "center", "right"), "y": ("top", "middle", "bottom")}
ACTION_WEIGHTS = {  # how often each type is drawn; finalize never (the episode runs out)
    "move": 3, "resize": 2, "align": 1, "distribute": 1, "snap": 1, "promote": 1,
    "reflow_group": 1, "anchor_to_region": 1, "apply_template": 0.5, "swap_z": 0.5,
}


def random_action(task: TaskSpec, rng: random.Random, decimals: int | None = 3) -> dict[str, Any]:
    """One action that both profiles' parsers accept, for the task's elements (the
    geometry may still be rejected, e.g. a template that breaks a hard constraint).
    ``decimals``: round offsets like a model would write them; None keeps full floats."""
    ids = [s.id for s in task.elements]

    def offset(limit: float) -> float:
        value = rng.uniform(-limit, limit)
        return value if decimals is None else round(value, decimals)

    kind = rng.choices(list(ACTION_WEIGHTS), weights=list(ACTION_WEIGHTS.values()))[0]
    if kind == "distribute" and len(ids) < 3:
        kind = "move"
    if kind == "move":
        return {"action_type": kind, "element_id": rng.choice(ids),
                "dx": offset(0.08), "dy": offset(0.08)}
    if kind == "resize":
        return {"action_type": kind, "element_id": rng.choice(ids), "anchor": rng.choice(ANCHORS),
                "dw": offset(0.06), "dh": offset(0.06)}
    if kind == "align":
        axis = rng.choice("xy")
        return {"action_type": kind, "element_ids": rng.sample(ids, min(len(ids), rng.choice((2, 3)))),
                "axis": axis, "mode": rng.choice(ALIGN_MODES[axis])}
    if kind == "distribute":
        return {"action_type": kind, "element_ids": rng.sample(ids, 3), "axis": rng.choice("xy")}
    if kind == "snap":
        return {"action_type": kind, "element_id": rng.choice(ids),
                "grid": rng.choice((8, 12, 16, 24))}
    if kind == "promote":
        return {"action_type": kind, "element_id": rng.choice(ids),
                "strength": rng.choice((0.0, 0.03, 0.06))}
    if kind == "reflow_group":
        return {"action_type": kind, "group_id": rng.choice([s.group for s in task.elements]),
                "pattern": rng.choice(("stack", "row", "grid2", "sidebar"))}
    if kind == "anchor_to_region":
        return {"action_type": kind, "element_id": rng.choice(ids),
                "region_id": rng.choice(REGION_IDS),
                "mode": rng.choice(("start", "center", "end", "fill"))}
    if kind == "apply_template":
        return {"action_type": kind, "template_id": rng.choice(list(task.templates))}
    return {"action_type": "swap_z", "element_ids": rng.sample(ids, min(len(ids), 2))}


class RandomLayoutPolicy:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"random-policy:{seed}")

    def act(self, env, obs) -> dict[str, Any]:
        return random_action(env.task, self.rng)
