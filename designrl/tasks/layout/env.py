"""``LayoutEnv``: the layout-editing environment behind one API for every profile.

A profile decides the rules of an episode:

* ``default``: strict actions, potential-based shaped reward
  ``r = Φ(s') − Φ(s)``, penalties for invalid actions, a finalize term tied to
  final quality (see ``default_profile``). Runs DesignGym's tasks and the
  generated families (``gen-poster``, ``gen-slide``, ...).
* ``designgym``: DesignGym 2.0 reproduced, quirks included (see ``designgym``).

``step`` never raises on bad input: a malformed or invalid action becomes a
recorded invalid step whose ``last_action_error`` says what was wrong.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from designrl.tasks.layout.default_profile import DefaultEpisode
from designrl.tasks.layout.designgym import DesignGymEpisode
from designrl.tasks.layout.generate import FAMILIES, generate_task
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS, TaskSpec, designgym_task

Profile = Literal["default", "designgym"]
PROFILES: tuple[str, ...] = ("default", "designgym")
GENERATED_TASK_IDS = tuple(f"gen-{family}" for family in FAMILIES)
LAYOUT_TASK_IDS = DESIGNGYM_TASK_IDS + GENERATED_TASK_IDS


class ElementView(BaseModel):
    """An element as the agent sees it: what it is and where it sits."""

    id: str
    role: str
    type: str
    group: str
    importance: float
    bbox: list[float]
    z: int


class LayoutObservation(BaseModel):
    """What the agent sees after reset or step (OpenEnv Observation shape)."""

    model_config = ConfigDict(extra="forbid")

    done: bool = False
    reward: float | None = None
    metadata: dict[str, Any] = {}
    task_id: str = ""
    seed: int = 0
    profile: str = "default"
    canvas_aspect: float = 1.0
    elements: list[ElementView] = []
    brief: dict[str, Any] = {}
    metrics: dict[str, float] = {}
    score: float = 0.0
    instruction_score: float = 0.0
    potential: float | None = None
    step_count: int = 0
    max_steps: int = 0
    invalid_actions: int = 0
    last_action_error: str | None = None
    message: str = ""
    reward_components: dict[str, float] = {}


class LayoutState(BaseModel):
    """Episode bookkeeping (OpenEnv State shape: extra fields allowed)."""

    model_config = ConfigDict(extra="allow")

    episode_id: str | None = None
    step_count: int = 0
    task_id: str = ""
    seed: int = 0
    profile: str = "default"
    done: bool = False
    start_score: float = 0.0
    score: float = 0.0
    best_score: float = 0.0
    instruction_score: float = 0.0
    total_reward: float = 0.0
    invalid_actions: int = 0


def load_task(task_id: str, seed: int) -> TaskSpec:
    """A task by id: DesignGym's fixed tasks, or a generated one for the seed."""
    if task_id in DESIGNGYM_TASK_IDS:
        return designgym_task(task_id)
    if task_id in GENERATED_TASK_IDS:
        return generate_task(task_id.removeprefix("gen-"), seed)
    raise ValueError(f"unknown layout task {task_id!r}; known: {', '.join(LAYOUT_TASK_IDS)}")


class LayoutEnv:
    """One layout episode at a time; ``reset`` starts a new one."""

    def __init__(self, profile: Profile = "default", default_task_id: str = "poster_basic_v1"):
        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
        self.profile = profile
        self.default_task_id = default_task_id
        self.episode: DesignGymEpisode | DefaultEpisode | None = None
        self.task: TaskSpec | None = None
        self._state = LayoutState(profile=profile)
        self._element_views: dict[str, dict[str, Any]] = {}
        self._brief_view: tuple[str, str, dict[str, str]] = ("", "", {})

    def reset(self, task_id: str | None = None, seed: int | None = None,
              episode_id: str | None = None) -> LayoutObservation:
        task_id = task_id or self.default_task_id
        seed = 0 if seed is None else int(seed)
        self.task = load_task(task_id, seed)
        episode_cls = DesignGymEpisode if self.profile == "designgym" else DefaultEpisode
        self.episode = episode_cls(self.task)
        self.episode.reset(seed)
        brief = self.episode.brief
        self._element_views = element_views(self.task)
        self._brief_view = (brief.brief_id, brief.primary_goal, brief.required_regions)
        self._state = LayoutState(
            episode_id=episode_id or uuid.uuid4().hex, task_id=task_id, seed=seed,
            profile=self.profile, start_score=self.episode.scores()[0],
        )
        obs = self._observe()
        obs.reward = None  # OpenEnv: no reward before the first step
        return obs

    def step(self, action: Any) -> LayoutObservation:
        if self.episode is None:
            self.reset()
        if isinstance(action, BaseModel):
            action = action.model_dump()
        self.episode.advance(action)  # the episode's state record is not needed here
        return self._observe()

    @property
    def state(self) -> LayoutState:
        return self._state

    def _observe(self) -> LayoutObservation:
        """The observation of the episode's state, and ``state`` brought up to date.

        Built for speed, with the same result as setting each state field and
        constructing ``ElementView``s and the ``LayoutObservation`` one keyword at a time:
        the state's fields go in with one ``__dict__`` update (what pydantic's
        ``__setattr__`` does for a model without assignment validation, field by field),
        and the observation is validated in one call from plain dicts (elements
        included), with every field given so that none is a copied default. Validation
        copies the episode's lists and dicts (metrics, boxes), as it did before."""
        task, episode, st = self.task, self.episode, self._state
        score, best, instruction, utility, potential = episode.scores()
        step_count, done, invalid = episode.step_count, episode.done, episode.invalid_actions
        st.__dict__.update(
            step_count=step_count, done=done, score=score, best_score=best,
            instruction_score=instruction, total_reward=episode.total_reward,
            invalid_actions=invalid)
        st.__pydantic_fields_set__.update(_STEP_STATE_FIELDS)
        views = self._element_views
        brief_id, goal, regions = self._brief_view
        return _validate_observation({
            "done": done, "reward": episode.last_reward, "metadata": {
                "episode_id": st.episode_id, "utility": utility},
            "task_id": st.task_id, "seed": st.seed, "profile": self.profile,
            "canvas_aspect": task.canvas_aspect,
            "elements": [{**views[e.id], "bbox": e.bbox, "z": e.z}
                         for e in episode.layout.elements],
            "brief": {"brief_id": brief_id, "primary_goal": goal,
                      "required_regions": dict(regions)},
            "metrics": episode.metrics, "score": score, "instruction_score": instruction,
            "potential": potential, "step_count": step_count, "max_steps": task.max_steps,
            "invalid_actions": invalid, "last_action_error": episode.last_action_error,
            "message": episode.message, "reward_components": episode.reward_components,
        })


# LayoutState fields ``_observe`` sets on every step
_STEP_STATE_FIELDS = frozenset(("step_count", "done", "score", "best_score",
                                "instruction_score", "total_reward", "invalid_actions"))
# LayoutObservation.model_validate without the Python-level wrapper
_validate_observation = LayoutObservation.__pydantic_validator__.validate_python


def element_views(task: TaskSpec) -> dict[str, dict[str, Any]]:
    """Each element's fixed ``ElementView`` fields (all but ``bbox`` and ``z``), by id."""
    return {s.id: {"id": s.id, "role": s.role, "type": s.type, "group": s.group,
                   "importance": s.importance} for s in task.elements}
