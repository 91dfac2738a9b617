"""The look-ahead expert: tries candidate actions on copies and takes the best.

At every step it lists candidate actions (moves, including a move straight to
each brief target; resizes; aligns; distributes; snaps; promotes; group
reflows; anchors to each element's brief and intent regions; templates),
applies each to a copy of the layout and scores all of them at once with the
batched scorer. The best few are stepped exactly on copies of the episode
(``episode.copy().advance``), and from each of those the search looks one more
step ahead the same way. It plays the first action of the best two-step line,
and finalizes as soon as no line beats the current layout, so an episode never
ends below its start.

What "best" means follows the profile's own score of the final layout:

* ``default``: the potential Φ = 0.6 · utility + 0.4 · brief fit, which the
  shaped return measures;
* ``designgym``: DesignGym's final ``current_score`` (utility × efficiency)
  plus its ``instruction_score``, and never a state scoring below the start.

It is white-box (reads ``env.episode``) and deterministic: ties go to the
earlier candidate, and candidates come in a fixed order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from designrl.tasks.layout import operations as ops
from designrl.tasks.layout.default_profile import (
    BRIEF_WEIGHT,
    UTILITY_WEIGHT,
    DefaultEpisode,
    brief_fit_batch,
)
from designrl.tasks.layout.designgym_actions import parse_action_lenient
from designrl.tasks.layout.layout_view import LayoutView, task_info
from designrl.tasks.layout.metrics import hard_violation_of_view
from designrl.tasks.layout.scorer import BatchScorer
from designrl.tasks.layout.spec import Layout, TaskSpec

MOVE_STEPS = (0.01, 0.03, 0.08)
RESIZE_DELTAS = ((0.04, 0.0), (-0.04, 0.0), (0.0, 0.04), (0.0, -0.04), (0.04, 0.04),
                 (-0.04, -0.04), (0.1, 0.1), (-0.1, -0.1), (0.2, 0.0), (0.0, 0.2), (0.2, 0.2),
                 (1.0, 1.0), (-1.0, -1.0))
INSTRUCTION_WEIGHT = 0.5  # designgym profile: value = score + 0.5 * instruction
ALIGN_MODES = (("x", "left"), ("x", "center"), ("x", "right"),
               ("y", "top"), ("y", "middle"), ("y", "bottom"))
IMPROVEMENT_EPS = 1e-6


class ExpertLayoutPolicy:
    name = "expert"

    def __init__(self, beam: int = 6, depth: int = 2):
        self.beam = beam
        self.depth = depth
        self._planner: _Planner | None = None  # built once per episode
        self._episode = None

    def act(self, env, obs) -> dict[str, Any]:
        episode = env.episode
        if obs.step_count == 0 or episode is not self._episode:
            start = episode.current_score if _is_designgym(episode) else 0.0
            self._planner, self._episode = _Planner(episode, self.beam, start), episode
        planner = self._planner
        remaining = episode.task.max_steps - episode.step_count
        action, value = planner.best_line(episode, min(self.depth, remaining))
        if action is None or value <= planner.value(episode) + IMPROVEMENT_EPS:
            return {"action_type": "finalize"}
        return action


def _is_designgym(episode) -> bool:
    return not isinstance(episode, DefaultEpisode)


class _Planner:
    """Search state for one episode: the task, its scorer, the brief targets, the start."""

    def __init__(self, episode, beam: int, start_score: float):
        self.task: TaskSpec = episode.task
        self.designgym = _is_designgym(episode)
        self.beam = beam
        self.start_score = start_score
        self.scorer = BatchScorer(self.task)
        self.targets = _brief_targets(episode, self.task, self.designgym)

    # ---- values

    def value(self, episode) -> float:
        """What the expert maximises, read exactly from an episode."""
        if self.designgym:
            return episode.current_score + INSTRUCTION_WEIGHT * episode.instruction_score
        return episode.potential

    def admissible(self, episode) -> bool:
        if episode.last_action_error is not None:
            return False
        return not self.designgym or episode.current_score >= self.start_score - 1e-12

    def estimates(self, layouts: list[Layout], brief) -> np.ndarray:
        """Batched estimate of ``value`` for candidate layouts (DesignGym's efficiency
        factor is left out; exact values come from stepping the episode)."""
        boxes, z = self.scorer.boxes_of(layouts)
        util = self.scorer.utility(boxes, z)
        if self.designgym:
            return util + INSTRUCTION_WEIGHT * self.scorer.instruction(boxes, self.targets)
        return UTILITY_WEIGHT * util + BRIEF_WEIGHT * brief_fit_batch(self.task, brief, boxes)

    # ---- search

    def ranked(self, episode) -> list[dict[str, Any]]:
        """Candidate actions from this state, best estimate first (at most ``beam``)."""
        layouts, actions, seen = [], [], set()
        for action in candidate_actions(self.task, episode, self.targets):
            layout = apply_candidate(self.task, episode.layout, action, self.designgym)
            if layout is None:
                continue
            key = tuple(round(v, 9) for e in layout.elements for v in (*e.bbox, e.z))
            if key in seen:
                continue
            seen.add(key)
            layouts.append(layout)
            actions.append(action)
        if not actions:
            return []
        est = self.estimates(layouts, episode.brief)
        order = np.argsort(-est, kind="stable")[: self.beam]
        return [actions[i] for i in order]

    def best_line(self, episode, depth: int) -> tuple[dict[str, Any] | None, float]:
        """(first action, value) of the best line of up to ``depth`` steps from here."""
        best_action, best_value = None, -np.inf
        if depth <= 0:
            return None, best_value
        for action in self.ranked(episode):
            child = episode.copy()
            child.advance(action)
            if not self.admissible(child):
                continue
            value = self.value(child)
            if depth > 1 and not child.done:
                _, deeper = self.best_line(child, depth - 1)
                value = max(value, deeper)
            if value > best_value + 1e-12:
                best_action, best_value = action, value
        return best_action, best_value


def _brief_targets(episode, task: TaskSpec, designgym: bool) -> list[tuple]:
    """(element id, target centre) per required element: DesignGym's instruction centres in
    the designgym profile, else the centre of the region box."""
    if designgym:
        return list(episode._targets)
    out = []
    for element_id, region in episode.brief.required_regions.items():
        x, y, w, h = task.region_boxes[region]
        out.append((element_id, (x + w / 2, y + h / 2)))
    return out


def candidate_actions(task: TaskSpec, episode, targets: list[tuple]) -> list[dict[str, Any]]:
    """Every action the expert considers from the current layout, in a fixed order."""
    return [*_moves_to_targets(episode, targets), *_nudges(task), *_resizes_and_promotions(task),
            *_alignments(task), *_group_actions(task), *_region_and_snap_actions(task, episode),
            *({"action_type": "apply_template", "template_id": t} for t in task.templates)]


def _moves_to_targets(episode, targets: list[tuple]) -> list[dict[str, Any]]:
    """One move per required element straight to its target centre (clamped to a canvas)."""
    out = []
    boxes = {e.id: e.bbox for e in episode.layout.elements}
    for element_id, target in targets:
        if target is not None and element_id in boxes:
            x, y, w, h = boxes[element_id]
            dx = max(-1.0, min(1.0, target[0] - (x + w / 2)))
            dy = max(-1.0, min(1.0, target[1] - (y + h / 2)))
            out.append({"action_type": "move", "element_id": element_id, "dx": dx, "dy": dy})
    return out


def _nudges(task: TaskSpec) -> list[dict[str, Any]]:
    """Moves of every movable element by each of ``MOVE_STEPS`` in the four directions."""
    return [{"action_type": "move", "element_id": s.id, "dx": dx, "dy": dy}
            for s in task.elements if s.movable
            for d in MOVE_STEPS
            for dx, dy in ((d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d))]


def _resizes_and_promotions(task: TaskSpec) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for spec in task.elements:
        if not spec.resizable:
            continue
        for dw, dh in RESIZE_DELTAS:
            out.append({"action_type": "resize", "element_id": spec.id, "dw": dw, "dh": dh,
                        "anchor": "center"})
        for strength in (0.03, 0.06):
            out.append({"action_type": "promote", "element_id": spec.id, "strength": strength})
    return out


def _groups(task: TaskSpec) -> dict[str, list[str]]:
    """Element ids by group, groups in order of first appearance."""
    groups: dict[str, list[str]] = {}
    for spec in task.elements:
        groups.setdefault(spec.group, []).append(spec.id)
    return groups


def _alignments(task: TaskSpec) -> list[dict[str, Any]]:
    """Every ``ALIGN_MODES`` alignment of each group of two or more, then of each pair."""
    sets = [ids for ids in _groups(task).values() if len(ids) >= 2]
    ids = [s.id for s in task.elements]
    sets += [[a, b] for i, a in enumerate(ids) for b in ids[i + 1:]]
    return [{"action_type": "align", "element_ids": members, "axis": axis, "mode": mode}
            for members in sets for axis, mode in ALIGN_MODES]


def _group_actions(task: TaskSpec) -> list[dict[str, Any]]:
    """Distributions of groups of three or more, reflows of groups of two or more."""
    out: list[dict[str, Any]] = []
    for group, members in _groups(task).items():
        if len(members) >= 3:
            for axis in ("x", "y"):
                out.append({"action_type": "distribute", "element_ids": members, "axis": axis})
        if len(members) >= 2:
            for pattern in ("stack", "row", "grid2", "sidebar"):
                out.append({"action_type": "reflow_group", "group_id": group,
                            "pattern": pattern})
    return out


def _region_and_snap_actions(task: TaskSpec, episode) -> list[dict[str, Any]]:
    """Per element: anchoring to its required and intended regions, then snapping."""
    out: list[dict[str, Any]] = []
    required = episode.brief.required_regions
    for spec in task.elements:
        regions = {required.get(spec.id), task.intent_regions.get(spec.id)} - {None}
        for region in sorted(regions):
            for mode in ("center", "start", "end", "fill"):
                out.append({"action_type": "anchor_to_region", "element_id": spec.id,
                            "region_id": region, "mode": mode})
        for grid in (12, 24):
            out.append({"action_type": "snap", "element_id": spec.id, "grid": grid})
    return out


def apply_candidate(task: TaskSpec, layout: Layout, action: dict[str, Any],
                    designgym: bool) -> Layout | None:
    """The layout after a (well-formed) action, or None if the profile would reject it."""
    fields, _ = parse_action_lenient(action)
    new = layout.copy()
    try:
        error = ops.apply_action(task, new, fields["action_type"], fields)
    except (ArithmeticError, ValueError, TypeError):
        return None
    if error is not None:
        return None
    if not designgym and fields["action_type"] in ("apply_template", "swap_z"):
        ops.repair(task, new)
    if hard_violation_of_view(LayoutView(task_info(task), new)) is not None:
        return None
    return new
