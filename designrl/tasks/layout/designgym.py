"""The ``designgym`` profile: DesignGym 2.0's layout episode, reproduced exactly.

``DesignGymEpisode(task).reset(seed)`` and ``.step(action)`` return the state
fields that DesignGym's reference vectors record (``shared/data/designgym``),
and reproduce every recorded transition bit for bit (see
``tests/tasks/layout/test_designgym_vectors.py``). Metrics live in
``metrics``, action geometry in ``operations``, lenient action parsing in
``designgym_actions``, the step reward's parts in ``designgym_reward``.

Reset: start from the task's reset template; for each element in spec order add
``uniform(-init_noise, init_noise)`` to x then y (``random.Random(seed)``); add
the task's seeded defects; repair; pick the brief with
``random.Random(f"{task_id}:{seed}").choice(briefs)``.

DesignGym's quirks, kept on purpose (the vectors depend on them):

* Oscillation penalty: 0.01 for every ``move`` and 0.02 for every
  ``apply_template`` once the action history (which already holds the current
  action, rejected actions and ``finalize`` included) has two or more entries;
  the previous action's type is never compared.
* ``step_gain`` is the new *utility* minus the previous ``current_score``
  (utility × efficiency), so once efficiency has dropped any valid action shows
  a gain; ``best_score_so_far`` is the maximum utility, not score.
* Rejected actions (unknown element, bad axis, unknown type, hard-constraint
  violation, ...) count a step, an invalid action and a no-progress step and
  earn 0, but do not refresh ``phase``, ``instruction_score``, ``phase_score``
  or ``reward_components``; a rejection on the last step ends the episode.
* ``finalize`` does not count a step, scores its phase with the stored phase
  (so it never earns phase credit in practice) and ends the episode: reward
  0.10 validity, minus 0.20 if early (``step_count < max(3, int(0.7 max_steps))``
  and score < 0.75 or instruction < 0.65), plus 0.10 when score >= 0.75 and
  instruction >= 0.65.
* ``apply_template`` and ``swap_z`` are not followed by a repair, so templates
  can be rejected for breaking a hard constraint.
* Lenient parsing (``parse_action_lenient``, not the strict
  ``actions.parse_action``): unknown fields are ignored, an unlisted resize anchor
  keeps the top-left corner, and the default ``action_type`` ``noop`` is rejected
  as ``unknown_action_type``.
* ``promote`` sets z to the current maximum z, so z values can repeat.
* ``instruction_score`` measures distances to a hard-coded centre table
  (``REGION_CENTERS``) that differs from the region boxes used by
  ``anchor_to_region`` and ``intent_fit``.
* Efficiency = max(0.70, 1 - 0.05 invalid - 0.02 no_progress); the no-op
  penalty (0.03) needs step, best and frontier (two worst previous metrics)
  gains all <= 1e-6; ``total_reward`` is clamped to [0, 1]; a step after done
  returns reward 0 and ``episode_already_done`` and changes nothing else.

Additions of ours (DesignGym raises instead): a payload that is not a mapping
or does not validate as DesignGym's action model is a rejected step with
``invalid_action_payload: <field>: <problem>``, and an action whose numbers
make the geometry fail (e.g. an astronomically large snap grid) is a rejected
step with ``invalid_action_value: ...``. ``step`` never raises.
"""

from __future__ import annotations

import random
from typing import Any

from designrl.tasks.layout import operations as ops
from designrl.tasks.layout.designgym_actions import DesignGymActionModel, parse_action_lenient
from designrl.tasks.layout.designgym_reward import (
    EARLY_FINALIZE_PENALTY,
    EFFICIENCY_FLOOR,
    EFFICIENCY_PER_INVALID,
    EFFICIENCY_PER_NO_PROGRESS,
    NO_OP_PENALTY,
    OSCILLATION_PENALTY,
    PROGRESS_EPS,
    SUCCESS_INSTRUCTION,
    SUCCESS_SCORE,
    _clamp01,
    compose_reward,
    get_phase,
    phase_score,
)
from designrl.tasks.layout.metrics import METRIC_NAMES, evaluate, instruction_targets
from designrl.tasks.layout.spec import Brief, Element, Layout, TaskSpec, designgym_data

_DATA = designgym_data()
REGION_CENTERS: dict[str, tuple[float, float]] = {
    k: (float(v[0]), float(v[1])) for k, v in _DATA["REGION_CENTERS"].items()
}
def initial_state(task: TaskSpec, seed: int) -> tuple[Layout, Brief]:
    """DesignGym's reset: the reset template; for each movable element in spec order
    ``uniform(-init_noise, init_noise)`` added to x then y (``random.Random(seed)``); the
    seeded defects; repair; the brief ``random.Random(f"{task_id}:{seed}").choice(briefs)``."""
    rng = random.Random(seed)
    template = task.templates[task.reset_template]
    elements = [Element(s.id, [float(v) for v in template[s.id]], z)
                for z, s in enumerate(task.elements, start=1)]
    noise = float(task.init_noise)
    for spec, e in zip(task.elements, elements, strict=True):
        if spec.movable:
            e.bbox[0] += rng.uniform(-noise, noise)
            e.bbox[1] += rng.uniform(-noise, noise)
    by_id = {e.id: e for e in elements}
    fields = {"x": 0, "y": 1, "w": 2, "h": 3}
    for d in task.seeded_defects:
        by_id[d.element_id].bbox[fields[d.field]] += d.delta
    layout = Layout(elements)
    ops.repair(task, layout)
    briefs = task.briefs
    brief = (random.Random(f"{task.task_id}:{seed}").choice(briefs) if briefs
             else Brief(brief_id=""))
    return layout, brief


# --------------------------------------------------------------------------- episode


class DesignGymEpisode:
    """One DesignGym 2.0 episode on a task. ``layout`` is replaced, never mutated in place,
    by ``step``; treat it (and ``metrics``, ``reward_components``) as read-only."""

    __slots__ = (
        "task", "layout", "brief", "seed", "done", "step_count", "invalid_actions",
        "no_progress_steps", "total_reward", "last_reward", "current_score",
        "current_utility", "best_score_so_far", "metrics", "instruction_score", "phase",
        "phase_score", "reward_components", "last_action_error", "message", "action_history",
        "centres", "_targets",
    )

    def __init__(self, task: TaskSpec, centres: dict[str, tuple[float, float]] | None = None):
        self.task = task
        self.centres = REGION_CENTERS if centres is None else centres
        self.layout = Layout([])
        self.brief = Brief(brief_id="")
        self.seed = 0
        self._targets: list[tuple] = []
        self._clear()
        self.current_score = 0.0
        self.current_utility = 0.0
        self.best_score_so_far = 0.0
        self.metrics: dict[str, float] = {}
        self.instruction_score = 0.0
        self.phase = "structure"
        self.phase_score = 1.0

    def _clear(self) -> None:
        """The counters and per-step fields every episode starts from."""
        self.done = False
        self.step_count = 0
        self.invalid_actions = 0
        self.no_progress_steps = 0
        self.total_reward = 0.0
        self.last_reward = 0.0
        self.reward_components: dict[str, float] = {}
        self.last_action_error: str | None = None
        self.message = ""
        self.action_history: list[str] = []

    # ---- reset

    def reset(self, seed: int | None = None) -> dict:
        """Start an episode: jittered, defect-seeded, repaired reset template; brief by seed."""
        task = self.task
        seed = 0 if seed is None else int(seed)
        self.seed = seed
        layout, self.brief = initial_state(task, seed)
        self.layout = layout
        self._clear()
        self._targets = instruction_targets(self.brief, self.centres)
        self.metrics, util, violation, self.instruction_score = evaluate(
            task, layout, self._targets)
        self.current_utility = util
        self.current_score = util if violation is None else 0.0
        self.best_score_so_far = util
        self.phase = get_phase(0, task.max_steps)
        self.phase_score = 1.0
        self.message = f"Ready: {task.task_id}"
        record = self.record()
        record["brief_id"] = self.brief.brief_id
        return record

    # ---- step

    def step(self, action: Any) -> dict:
        """Apply one action (any JSON value; never raises) and return the new state record."""
        self.advance(action)
        return self.record()

    def advance(self, action: Any) -> float:
        """``step`` without building the record: returns the step reward. For planners."""
        if not self.layout.elements and self.task.elements:
            self.reset(self.seed)  # stepped before reset: start the episode first
        if self.done:
            self.last_reward = 0.0
            self.last_action_error = "episode_already_done"
            self.message = "Episode already finished."
            return 0.0
        fields, error = parse_action_lenient(action)
        if error is not None:
            self.step_count += 1
            self.action_history.append("invalid_action_payload")
            return self._reject(error, "Action rejected.")
        action_type = fields["action_type"]
        if action_type == "finalize":
            return self._finalize()

        proposed, error = self._propose(action_type, fields)
        if error is not None:
            return self._reject(error, "Action rejected.")
        # one call: hard constraints, then (if they hold) metrics, utility, instruction
        curr_metrics, curr_utility, error, new_instruction = evaluate(
            self.task, proposed, self._targets, score_invalid=False)
        if error is not None:
            return self._reject(error, "Constraint violation; reverted.")
        return self._accept(action_type, proposed, curr_metrics, curr_utility, new_instruction)

    def _propose(self, action_type: str, fields: dict) -> tuple[Layout, str | None]:
        """The layout after the action (a copy) and the error that rejects it, if any;
        counts the step and records the action either way."""
        proposed = self.layout.copy()
        try:
            error = ops.apply_action(self.task, proposed, action_type, fields)
        except (ArithmeticError, ValueError, TypeError) as exc:
            error = f"invalid_action_value: {type(exc).__name__}: {exc}"[:300]
        self.step_count += 1
        self.action_history.append(action_type)
        return proposed, error

    def _accept(self, action_type: str, proposed: Layout, curr_metrics: dict[str, float],
                curr_utility: float, new_instruction: float) -> float:
        """Take a valid proposed layout: reward it, update the counters and scores."""
        task = self.task
        prev_score = self.current_score
        prev_best = self.best_score_so_far
        prev_metrics = self.metrics
        curr_score = curr_utility  # hard constraints hold here

        step_gain = max(0.0, curr_score - prev_score)
        best_gain = max(0.0, curr_utility - prev_best)
        worst = sorted(prev_metrics.items(), key=_by_value)[:2]
        acc = 0
        for k, prev in worst:
            acc += max(0.0, curr_metrics.get(k, 0.0) - prev)
        frontier_gain = acc / len(worst) if worst else 0.0

        oscillation = 0.0
        if len(self.action_history) >= 2:
            oscillation = OSCILLATION_PENALTY.get(action_type, 0.0)
        no_op = (NO_OP_PENALTY if step_gain <= PROGRESS_EPS and best_gain <= PROGRESS_EPS
                 and frontier_gain <= PROGRESS_EPS else 0.0)
        instruction_progress = max(0.0, new_instruction - self.instruction_score)
        phase = get_phase(self.step_count, task.max_steps)
        phase_value = phase_score(action_type, phase)
        components = compose_reward(
            layout_delta=step_gain, best_score_delta=best_gain,
            instruction_progress=instruction_progress, phase_correctness=phase_value,
            validity_score=1.0, final_success_bonus=0.0, no_op_penalty=no_op,
            oscillation_penalty=oscillation, early_finalize_penalty=0.0,
        )
        reward = components["total"]

        if step_gain <= PROGRESS_EPS and best_gain <= PROGRESS_EPS:
            self.no_progress_steps += 1
        else:
            self.no_progress_steps = 0
        self.best_score_so_far = max(prev_best, curr_utility)
        self.layout = proposed
        self.metrics = curr_metrics
        self.current_utility = curr_utility
        efficiency = max(EFFICIENCY_FLOOR, 1.0 - EFFICIENCY_PER_INVALID * self.invalid_actions
                         - EFFICIENCY_PER_NO_PROGRESS * self.no_progress_steps)
        self.current_score = _clamp01(curr_utility * efficiency)
        self.reward_components = components
        self.total_reward = _clamp01(self.total_reward + reward)
        self.last_reward = reward
        self.last_action_error = None
        self.phase = phase
        self.instruction_score = new_instruction
        self.phase_score = phase_value
        if self.step_count >= task.max_steps:
            self.done = True
            self.message = "Max steps reached."
        else:
            self.message = "Action applied."
        return reward

    def _reject(self, error: str, message: str) -> float:
        self.invalid_actions += 1
        self.no_progress_steps += 1
        self.last_reward = 0.0
        self.last_action_error = error
        if self.step_count >= self.task.max_steps:
            self.done = True
        self.message = message
        return 0.0

    def _finalize(self) -> float:
        task = self.task
        phase_value = phase_score("finalize", self.phase)
        too_early = self.step_count < max(3, int(0.70 * task.max_steps))
        not_ready = (self.current_score < SUCCESS_SCORE
                     or self.instruction_score < SUCCESS_INSTRUCTION)
        early = EARLY_FINALIZE_PENALTY if too_early and not_ready else 0.0
        bonus = 1.0 if (self.current_score >= SUCCESS_SCORE
                        and self.instruction_score >= SUCCESS_INSTRUCTION) else 0.0
        components = compose_reward(
            layout_delta=0.0, best_score_delta=0.0, instruction_progress=0.0,
            phase_correctness=phase_value, validity_score=1.0, final_success_bonus=bonus,
            no_op_penalty=0.0, oscillation_penalty=0.0, early_finalize_penalty=early,
        )
        self.done = True
        reward = components["total"]
        self.last_reward = reward
        self.total_reward = _clamp01(self.total_reward + reward)
        self.last_action_error = None
        self.action_history.append("finalize")
        self.reward_components = components
        self.phase = get_phase(self.step_count, task.max_steps, done=True)
        self.instruction_score = evaluate(task, self.layout, self._targets)[3]
        self.phase_score = phase_value
        self.message = "Layout finalized."
        return reward

    # ---- views

    def record(self) -> dict:
        """The state as DesignGym's reference vectors record it (``after``)."""
        return {
            "elements": self.layout.to_json(),
            "metrics": dict(self.metrics),
            "utility": self.current_utility,
            "current_score": self.current_score,
            "best_score_so_far": self.best_score_so_far,
            "instruction_score": self.instruction_score,
            "phase": self.phase,
            "last_action_error": self.last_action_error,
            "reward": self.last_reward,
            "done": self.done,
            "invalid_actions": self.invalid_actions,
            "no_progress_steps": self.no_progress_steps,
            "step_count": self.step_count,
            "total_reward": self.total_reward,
            "phase_score": self.phase_score,
            "reward_components": dict(self.reward_components),
            "message": self.message,
        }

    def scores(self) -> tuple[float, float, float, float, None]:
        """(score, best, instruction, utility, potential) as ``LayoutEnv`` reports them:
        ``current_score``, ``best_score_so_far``, ``instruction_score``,
        ``current_utility``; no potential."""
        return (self.current_score, self.best_score_so_far, self.instruction_score,
                self.current_utility, None)

    def copy(self) -> DesignGymEpisode:
        """A cheap independent copy for look-ahead (task, layout and dicts are shared:
        ``step`` replaces them rather than mutating them)."""
        new = DesignGymEpisode.__new__(DesignGymEpisode)
        for name in DesignGymEpisode.__slots__:
            setattr(new, name, getattr(self, name))
        new.action_history = list(self.action_history)
        return new


def _by_value(item: tuple[str, float]) -> float:
    return item[1]


__all__ = [
    "DesignGymEpisode", "DesignGymActionModel", "REGION_CENTERS", "METRIC_NAMES",
    "compose_reward", "get_phase", "initial_state", "parse_action_lenient", "phase_score",
]
