"""Layout episodes built to game the shaped reward, and the honest attempt they must lose to.

The default profile pays ``Φ(s') − Φ(s)`` per step plus a final term on
``Φ_T − Φ_0``, so any loop that leaves the layout where it started earns nothing
however often it is run, and churn that lands somewhere worse costs. Each hack is a
cycle of actions played until the step limit (it never finalizes, so it collects
every step there is):

* ``oscillating move``: one element moved out and back;
* ``oscillating resize``: one element grown and shrunk;
* ``promote and demote``: one element made more and then less salient;
* ``template flip-flop``: the layout swapped between two of the task's templates;
* ``anchor and drift``: a brief element anchored to its region, then moved off it;
* ``z flip-flop``: two elements' stacking order swapped back and forth;
* ``zero moves``: actions that change nothing;
* ``invalid spam``: actions the env refuses.

The honest, mediocre attempt is the rule planner (``designrl.policies.layout_rule``):
it anchors what the brief places, aligns text groups and finalizes. ``play`` runs
either through ``LayoutEnv`` and returns the episode's return, the same sum every
layout rollout records; ``tests/tasks/layout/test_layout_hacks.py`` and
``bench/reward_validity.py`` compare them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from designrl.tasks.layout.env import LayoutEnv, LayoutObservation

Cycle = Callable[[LayoutEnv, LayoutObservation], list[dict[str, Any]]]


def _first(obs: LayoutObservation) -> str:
    return obs.elements[0].id


def _brief_element(obs: LayoutObservation) -> tuple[str, str]:
    """An element the brief places and its region (the first element and the centre
    when the brief places none)."""
    required = obs.brief.get("required_regions") or {}
    for element_id, region in required.items():
        if any(e.id == element_id for e in obs.elements):
            return element_id, region
    return _first(obs), "center"


def _oscillating_move(env, obs):
    e = _first(obs)
    return [{"action_type": "move", "element_id": e, "dx": 0.2, "dy": 0.1},
            {"action_type": "move", "element_id": e, "dx": -0.2, "dy": -0.1}]


def _oscillating_resize(env, obs):
    e = _first(obs)
    return [{"action_type": "resize", "element_id": e, "dw": 0.1, "dh": 0.1},
            {"action_type": "resize", "element_id": e, "dw": -0.1, "dh": -0.1}]


def _promote_and_demote(env, obs):
    e = _first(obs)
    return [{"action_type": "promote", "element_id": e, "strength": 0.5},
            {"action_type": "promote", "element_id": e, "strength": -0.5}]


def _template_flip_flop(env, obs):
    names = sorted(env.task.templates)
    other = next((n for n in names if n != "draft"), "draft")
    return [{"action_type": "apply_template", "template_id": other},
            {"action_type": "apply_template", "template_id": "draft"}]


def _anchor_and_drift(env, obs):
    e, region = _brief_element(obs)
    return [{"action_type": "anchor_to_region", "element_id": e, "region_id": region,
             "mode": "center"},
            {"action_type": "move", "element_id": e, "dx": 0.3, "dy": 0.3}]


def _z_flip_flop(env, obs):
    pair = [obs.elements[0].id, obs.elements[-1].id]
    return [{"action_type": "swap_z", "element_ids": pair}]


def _zero_moves(env, obs):
    return [{"action_type": "move", "element_id": _first(obs), "dx": 0.0, "dy": 0.0}]


def _invalid_spam(env, obs):
    return [{"action_type": "teleport", "element_id": _first(obs)}]


HACKS: dict[str, Cycle] = {
    "oscillating move": _oscillating_move,
    "oscillating resize": _oscillating_resize,
    "promote and demote": _promote_and_demote,
    "template flip-flop": _template_flip_flop,
    "anchor and drift": _anchor_and_drift,
    "z flip-flop": _z_flip_flop,
    "zero moves": _zero_moves,
    "invalid spam": _invalid_spam,
}
HACK_TASKS = ("poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1", "gen-poster",
              "gen-slide", "gen-mobile")


@dataclass
class CyclePolicy:
    """Plays its cycle of actions over and over and never finalizes."""

    name: str
    cycle: Cycle
    _actions: list[dict[str, Any]] | None = None
    _turn: int = 0

    def act(self, env: LayoutEnv, obs: LayoutObservation) -> dict[str, Any]:
        if self._actions is None:
            self._actions = self.cycle(env, obs)
        action = self._actions[self._turn % len(self._actions)]
        self._turn += 1
        return action


def hack_policy(name: str) -> CyclePolicy:
    try:
        return CyclePolicy(name, HACKS[name])
    except KeyError:
        raise ValueError(f"unknown layout hack {name!r}; known: {', '.join(HACKS)}") from None


def play(policy_name: str, task_id: str, seed: int) -> float:
    """The return of one default-profile episode: a hack by name, or ``rule`` (the honest
    attempt) or any other layout policy name."""
    from designrl.policies import make_layout_policy
    from designrl.rollout.layout_episode import run_episode

    env = LayoutEnv("default")
    policy = hack_policy(policy_name) if policy_name in HACKS else make_layout_policy(policy_name)
    step_limit = 10_000  # the env's own max_steps ends every episode first
    return run_episode(env, policy, task_id, seed, step_limit=step_limit)["total_reward"]
