"""A seeded random policy: valid-looking actions drawn uniformly (a floor to beat)."""

from __future__ import annotations

import random
from typing import Any

from designrl.tasks.layout.spec import REGION_IDS


class RandomLayoutPolicy:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"random-policy:{seed}")

    def act(self, env, obs) -> dict[str, Any]:
        rng = self.rng
        ids = [e.id for e in obs.elements]
        kind = rng.choice(["move", "resize", "align", "anchor_to_region", "promote", "snap"])
        if kind == "move":
            return {"action_type": "move", "element_id": rng.choice(ids),
                    "dx": round(rng.uniform(-0.05, 0.05), 3), "dy": round(rng.uniform(-0.05, 0.05), 3)}
        if kind == "resize":
            return {"action_type": "resize", "element_id": rng.choice(ids),
                    "dw": round(rng.uniform(-0.04, 0.04), 3), "dh": round(rng.uniform(-0.04, 0.04), 3),
                    "anchor": "center"}
        if kind == "align":
            axis = rng.choice(["x", "y"])
            mode = rng.choice(["left", "center", "right"] if axis == "x" else ["top", "middle", "bottom"])
            return {"action_type": "align", "element_ids": rng.sample(ids, 2), "axis": axis, "mode": mode}
        if kind == "anchor_to_region":
            return {"action_type": "anchor_to_region", "element_id": rng.choice(ids),
                    "region_id": rng.choice(REGION_IDS), "mode": "center"}
        if kind == "promote":
            return {"action_type": "promote", "element_id": rng.choice(ids), "strength": 0.0}
        return {"action_type": "snap", "element_id": rng.choice(ids), "grid": 12}
