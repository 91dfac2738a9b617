"""DesignGym 2.0's step reward: phases by progress, phase scores per action type, the
efficiency and penalty constants, and ``compose_reward``."""

from __future__ import annotations

from itertools import pairwise

from designrl.tasks.layout.spec import designgym_data

_DATA = designgym_data()
PHASE_SCORE_BY_ACTION: dict[str, dict[str, float]] = _DATA["phase_score_by_action"]
_PHASE_THRESHOLDS = tuple(  # (progress bound, phase below it)
    (float(_DATA["phase_thresholds"][f"{a}->{b}"]), a)
    for a, b in pairwise(_DATA["phases"])
)

EFFICIENCY_FLOOR = 0.70
EFFICIENCY_PER_INVALID = 0.05
EFFICIENCY_PER_NO_PROGRESS = 0.02
NO_OP_PENALTY = 0.03
OSCILLATION_PENALTY = {"move": 0.01, "apply_template": 0.02}
EARLY_FINALIZE_PENALTY = 0.20
SUCCESS_SCORE = 0.75
SUCCESS_INSTRUCTION = 0.65
PROGRESS_EPS = 1e-6


def get_phase(step_count: int, max_steps: int, done: bool = False) -> str:
    """The phase for a step count: by progress = step_count / max_steps; finalize once done."""
    if done:
        return "finalize"
    progress = step_count / max(1, max_steps)
    for bound, phase in _PHASE_THRESHOLDS:
        if progress < bound:
            return phase
    return "finalize"


def phase_score(action_type: str, phase: str) -> float:
    """DesignGym's phase score of an action type in a phase (unknown types score as 'rotate')."""
    table = PHASE_SCORE_BY_ACTION.get(phase)
    if table is None:
        return 0.15
    value = table.get(action_type)
    return table["rotate"] if value is None else value


def _clamp01(v: float) -> float:
    return max(0.0, min(1.0, v))


def compose_reward(layout_delta: float, best_score_delta: float, instruction_progress: float,
                   phase_correctness: float, validity_score: float, final_success_bonus: float,
                   no_op_penalty: float, oscillation_penalty: float,
                   early_finalize_penalty: float) -> dict[str, float]:
    """DesignGym's reward: 0.25 layout + 0.15 best + 0.20 instruction + 0.15 phase
    + 0.10 validity + 0.10 success - penalties, clamped; every part rounded to 6 places."""
    positive = (
        0.25 * max(0.0, layout_delta)
        + 0.15 * max(0.0, best_score_delta)
        + 0.20 * max(0.0, instruction_progress)
        + 0.15 * _clamp01(phase_correctness)
        + 0.10 * _clamp01(validity_score)
        + 0.10 * _clamp01(final_success_bonus)
    )
    penalties = max(0.0, no_op_penalty) + max(0.0, oscillation_penalty) + max(
        0.0, early_finalize_penalty)
    total = _clamp01(positive - penalties)
    return {
        "layout_delta": round(float(layout_delta), 6),
        "best_score_delta": round(float(best_score_delta), 6),
        "instruction_progress": round(float(instruction_progress), 6),
        "phase_correctness": round(float(phase_correctness), 6),
        "validity_score": round(float(validity_score), 6),
        "final_success_bonus": round(float(final_success_bonus), 6),
        "no_op_penalty": round(float(no_op_penalty), 6),
        "oscillation_penalty": round(float(oscillation_penalty), 6),
        "early_finalize_penalty": round(float(early_finalize_penalty), 6),
        "total": round(float(total), 6),
    }
