"""The ``default`` profile: strict actions and a reward that measures improvement.

Reset is DesignGym's (``designgym.initial_state``): for DesignGym's tasks the
same jittered, defect-seeded layout and brief; for generated tasks the seed's
draft layout and brief.

Potential ``Φ(s) = 0.6 · utility(s) + 0.4 · brief_fit(s)``:

* ``utility`` is the weighted design score of the 12 metrics (``metrics``);
* ``brief_fit`` is the mean, over the brief's required (element, region) pairs,
  of the fraction of the element's area that lies inside the region's box: the
  same boxes ``anchor_to_region`` places into, so a fit of 1 is reachable
  (generated briefs are checked to be jointly satisfiable). A brief with no
  required regions fits perfectly.

Reward of a step, ``reward_components`` names each part:

* ``potential_delta`` = Φ(s') − Φ(s) for a valid action (shaping);
* ``invalid_penalty`` = −0.05 for an action that fails validation or cannot be
  applied; the layout is unchanged and the error names what is allowed;
* ``final_term`` = 0.5 · (Φ(s_T) − Φ(s_0)) when the episode ends (``finalize``
  or the step limit), so the return is 1.5 · (Φ_T − Φ_0) − 0.05 · invalid: how
  much better the layout got, whatever order the agent worked in.

Every applied action is followed by a repair (templates and z swaps too), so a
layout never breaks a hard constraint; ``finalize`` counts as a step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from designrl.tasks.layout import operations as ops
from designrl.tasks.layout.actions import parse_action
from designrl.tasks.layout.designgym import initial_state
from designrl.tasks.layout.layout_view import LayoutView, task_info
from designrl.tasks.layout.metrics import evaluate, hard_violation_of_view
from designrl.tasks.layout.spec import Brief, Layout, TaskSpec

UTILITY_WEIGHT = 0.6
BRIEF_WEIGHT = 0.4
INVALID_PENALTY = -0.05
FINAL_TERM_WEIGHT = 0.5

# Every field an operation reads, with the value it takes when an action leaves it out.
_OPERATION_DEFAULTS: dict[str, Any] = {
    "element_id": None, "element_ids": [], "group_id": None, "region_id": None,
    "template_id": None, "pattern": "stack", "axis": None, "mode": "center",
    "anchor": "center", "grid": 12, "dx": 0.0, "dy": 0.0, "dw": 0.0, "dh": 0.0,
    "strength": 0.0,
}
_OPERATION_ERRORS = {
    "negative_distribution_gap": "the elements do not fit between the outer two on that axis",
    "group_not_found_or_too_small": "reflow_group needs a group with two or more elements",
}


def brief_fit(task: TaskSpec, brief: Brief, layout: Layout) -> float:
    """Mean share of each required element's area inside its required region's box."""
    required = brief.required_regions
    if not required:
        return 1.0
    boxes = {e.id: e.bbox for e in layout.elements}
    total = 0.0
    for element_id, region_id in required.items():
        box, region = boxes.get(element_id), task.region_boxes.get(region_id)
        if box is None or region is None:
            continue
        x, y, w, h = box
        rx, ry, rw, rh = region
        ix = min(x + w, rx + rw) - max(x, rx)
        iy = min(y + h, ry + rh) - max(y, ry)
        area = w * h
        if ix > 0 and iy > 0 and area > 0:
            total += min(1.0, ix * iy / area)
    return total / len(required)


def brief_fit_batch(task: TaskSpec, brief: Brief, boxes: np.ndarray) -> np.ndarray:
    """``brief_fit`` of B layouts at once; ``boxes`` is (B, n, 4) in task element order."""
    required = brief.required_regions
    if not required:
        return np.ones(len(boxes))
    index = {s.id: i for i, s in enumerate(task.elements)}
    total = np.zeros(len(boxes))
    for element_id, region_id in required.items():
        region = task.region_boxes.get(region_id)
        if element_id not in index or region is None:
            continue
        x, y, w, h = np.moveaxis(boxes[:, index[element_id], :], -1, 0)
        rx, ry, rw, rh = region
        ix = np.minimum(x + w, rx + rw) - np.maximum(x, rx)
        iy = np.minimum(y + h, ry + rh) - np.maximum(y, ry)
        area = w * h
        ok = (ix > 0) & (iy > 0) & (area > 0)
        share = np.where(ok, ix * iy / np.where(area > 0, area, 1.0), 0.0)
        total += np.minimum(1.0, share)
    return total / len(required)


def potential(util: float, fit: float) -> float:
    return UTILITY_WEIGHT * util + BRIEF_WEIGHT * fit


class DefaultEpisode:
    """One default-profile episode on a task. ``layout`` is replaced, never mutated in
    place, by ``step``; treat it (and ``metrics``) as read-only."""

    __slots__ = (
        "task", "layout", "brief", "seed", "done", "step_count", "invalid_actions",
        "total_reward", "last_reward", "utility", "best_utility", "brief_fit", "potential",
        "start_potential", "metrics", "reward_components", "last_action_error", "message",
    )

    def __init__(self, task: TaskSpec):
        self.task = task
        self.layout = Layout([])
        self.brief = Brief(brief_id="")
        self.seed = 0
        self._clear()

    def _clear(self) -> None:
        self.done = False
        self.step_count = 0
        self.invalid_actions = 0
        self.total_reward = 0.0
        self.last_reward = 0.0
        self.reward_components: dict[str, float] = {}
        self.last_action_error: str | None = None
        self.message = ""

    def reset(self, seed: int | None = None) -> dict:
        self.seed = 0 if seed is None else int(seed)
        self.layout, self.brief = initial_state(self.task, self.seed)
        self._clear()
        self._score(self.layout)
        self.start_potential = self.potential
        self.best_utility = self.utility
        self.message = f"Ready: {self.task.task_id}"
        record = self.record()
        record["brief_id"] = self.brief.brief_id
        return record

    def _score(self, layout: Layout) -> None:
        task = self.task
        self.metrics, self.utility, _, _ = evaluate(task, layout)
        self.brief_fit = brief_fit(task, self.brief, layout)
        self.potential = potential(self.utility, self.brief_fit)

    def step(self, action: Any) -> dict:
        """Apply one action (any JSON value; never raises) and return the new state record."""
        self.advance(action)
        return self.record()

    def advance(self, action: Any) -> float:
        """``step`` without building the record: returns the step reward. For planners."""
        if not self.layout.elements and self.task.elements:
            self.reset(self.seed)
        if self.done:
            self.last_reward = 0.0
            self.reward_components = {}
            self.last_action_error = "the episode is over; call reset to start another"
            self.message = "Episode already finished."
            return 0.0
        self.step_count += 1
        parsed, error = parse_action(action)
        if error is None and parsed.action_type == "finalize":
            self.last_action_error = None
            return self._end({"potential_delta": 0.0}, "Layout finalized.")
        proposed = None
        if error is None:
            fields = {**_OPERATION_DEFAULTS, **parsed.model_dump()}
            error = self._check_references(fields)
        if error is None:
            proposed = self.layout.copy()
            try:
                code = ops.apply_action(self.task, proposed, fields["action_type"], fields)
            except (ArithmeticError, ValueError, TypeError) as exc:
                code = f"the action's numbers break the geometry ({type(exc).__name__})"
            if code is None:
                if fields["action_type"] in ("apply_template", "swap_z"):
                    ops.repair(self.task, proposed)
                code = hard_violation_of_view(LayoutView(task_info(self.task), proposed))
            error = None if code is None else _OPERATION_ERRORS.get(code, code)
        if error is not None:
            self.invalid_actions += 1
            self.last_action_error = error
            return self._finish_step({"invalid_penalty": INVALID_PENALTY}, "Action rejected.")
        before = self.potential
        self.layout = proposed
        self._score(proposed)
        self.best_utility = max(self.best_utility, self.utility)
        self.last_action_error = None
        return self._finish_step({"potential_delta": self.potential - before}, "Action applied.")

    def _check_references(self, a: dict) -> str | None:
        """Readable errors for ids the action names that this task does not have."""
        task = self.task
        ids = task_info(task).ids
        named = [a["element_id"]] if a["element_id"] is not None else []
        for element_id in named + list(a["element_ids"]):
            if element_id not in ids:
                return f"unknown element_id {element_id!r}; this layout has: {', '.join(ids)}"
        kind = a["action_type"]
        if kind in ("align", "distribute", "swap_z"):
            wanted = {"align": 2, "distribute": 3, "swap_z": 2}[kind]
            if len(set(a["element_ids"])) < wanted:
                return f"{kind} needs {wanted} different element_ids"
        spec = task.element(a["element_id"]) if a["element_id"] else None
        if spec is not None and kind in ("move", "anchor_to_region", "snap") and not spec.movable:
            return f"element {spec.id!r} cannot move"
        if spec is not None and kind in ("resize", "promote") and not spec.resizable:
            return f"element {spec.id!r} cannot be resized"
        if kind == "reflow_group":
            groups: dict[str, int] = {}
            for s in task.elements:
                groups[s.group] = groups.get(s.group, 0) + 1
            if groups.get(a["group_id"], 0) < 2:
                allowed = ", ".join(g for g, n in groups.items() if n >= 2) or "none"
                return (f"group_id {a['group_id']!r} is not a group of two or more elements;"
                        f" groups: {allowed}")
        if kind == "apply_template" and a["template_id"] not in task.templates:
            return (f"unknown template_id {a['template_id']!r};"
                    f" templates: {', '.join(task.templates)}")
        return None

    def _finish_step(self, components: dict[str, float], message: str) -> float:
        if self.step_count >= self.task.max_steps:
            return self._end(components, message + " Step limit reached.")
        return self._credit(components, message)

    def _end(self, components: dict[str, float], message: str) -> float:
        self.done = True
        components["final_term"] = FINAL_TERM_WEIGHT * (self.potential - self.start_potential)
        return self._credit(components, message)

    def _credit(self, components: dict[str, float], message: str) -> float:
        reward = sum(components.values())
        components["total"] = reward
        self.reward_components = components
        self.last_reward = reward
        self.total_reward += reward
        self.message = message
        return reward

    def record(self) -> dict:
        """The state after the last step, with the keys the designgym profile uses."""
        return {
            "elements": self.layout.to_json(),
            "metrics": dict(self.metrics),
            "utility": self.utility,
            "current_score": self.utility,
            "best_score_so_far": self.best_utility,
            "instruction_score": self.brief_fit,
            "potential": self.potential,
            "last_action_error": self.last_action_error,
            "reward": self.last_reward,
            "done": self.done,
            "invalid_actions": self.invalid_actions,
            "step_count": self.step_count,
            "total_reward": self.total_reward,
            "reward_components": dict(self.reward_components),
            "message": self.message,
        }

    def scores(self) -> tuple[float, float, float, float, float]:
        """(score, best, instruction, utility, potential) as ``LayoutEnv`` reports them:
        ``utility``, ``best_utility``, ``brief_fit``, ``utility``, ``potential``."""
        return self.utility, self.best_utility, self.brief_fit, self.utility, self.potential

    def copy(self) -> DefaultEpisode:
        """A cheap independent copy for look-ahead (layout and dicts are replaced, not
        mutated, by ``step``, so they are shared)."""
        new = DefaultEpisode.__new__(DefaultEpisode)
        for name in DefaultEpisode.__slots__:
            setattr(new, name, getattr(self, name))
        return new


__all__ = ["DefaultEpisode", "brief_fit", "brief_fit_batch", "potential", "INVALID_PENALTY", "FINAL_TERM_WEIGHT"]
