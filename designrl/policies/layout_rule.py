"""A rule planner: meet the brief, tidy the groups, then finalize.

It reads only the observation, so it works against a remote env too. The plan
is fixed per observation: anchor every element the brief places, left-align
each text group, then finalize.
"""

from __future__ import annotations

from typing import Any


class RuleLayoutPolicy:
    name = "rule"

    def __init__(self) -> None:
        self.plan: list[dict[str, Any]] = []
        self.episode_key: tuple | None = None

    def act(self, env, obs) -> dict[str, Any]:
        key = (obs.task_id, obs.seed, obs.metadata.get("episode_id"))
        if key != self.episode_key:
            self.episode_key = key
            self.plan = self._plan(obs)
        if obs.step_count >= obs.max_steps - 1 or not self.plan:
            return {"action_type": "finalize"}
        return self.plan.pop(0)

    @staticmethod
    def _plan(obs) -> list[dict[str, Any]]:
        plan: list[dict[str, Any]] = []
        for element_id, region in obs.brief.get("required_regions", {}).items():
            if any(e.id == element_id for e in obs.elements):
                plan.append({"action_type": "anchor_to_region", "element_id": element_id,
                             "region_id": region, "mode": "center"})
        groups: dict[str, list[str]] = {}
        for e in obs.elements:
            if e.type == "text":
                groups.setdefault(e.group, []).append(e.id)
        for ids in groups.values():
            if len(ids) >= 2:
                plan.append({"action_type": "align", "element_ids": ids, "axis": "x", "mode": "left"})
        return plan
