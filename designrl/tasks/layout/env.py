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

    def reset(self, task_id: str | None = None, seed: int | None = None,
              episode_id: str | None = None) -> LayoutObservation:
        task_id = task_id or self.default_task_id
        seed = 0 if seed is None else int(seed)
        self.task = load_task(task_id, seed)
        episode_cls = DesignGymEpisode if self.profile == "designgym" else DefaultEpisode
        self.episode = episode_cls(self.task)
        record = self.episode.reset(seed)
        self._state = LayoutState(
            episode_id=episode_id or uuid.uuid4().hex, task_id=task_id, seed=seed,
            profile=self.profile, start_score=record["current_score"],
        )
        obs = self._observe(record)
        obs.reward = None  # OpenEnv: no reward before the first step
        return obs

    def step(self, action: Any) -> LayoutObservation:
        if self.episode is None:
            self.reset()
        if isinstance(action, BaseModel):
            action = action.model_dump()
        record = self.episode.step(action)
        return self._observe(record)

    @property
    def state(self) -> LayoutState:
        return self._state

    def _observe(self, record: dict) -> LayoutObservation:
        task, episode, st = self.task, self.episode, self._state
        st.step_count = record["step_count"]
        st.done = record["done"]
        st.score = record["current_score"]
        st.best_score = record["best_score_so_far"]
        st.instruction_score = record["instruction_score"]
        st.total_reward = record["total_reward"]
        st.invalid_actions = record["invalid_actions"]
        specs = {s.id: s for s in task.elements}
        elements = [
            ElementView(id=e.id, role=specs[e.id].role, type=specs[e.id].type,
                        group=specs[e.id].group, importance=specs[e.id].importance,
                        bbox=list(e.bbox), z=e.z)
            for e in episode.layout.elements
        ]
        return LayoutObservation(
            done=record["done"], reward=record["reward"], task_id=st.task_id, seed=st.seed,
            profile=self.profile, canvas_aspect=task.canvas_aspect, elements=elements,
            brief=episode.brief.model_dump(include={"brief_id", "primary_goal", "required_regions"}),
            metrics=record["metrics"], score=record["current_score"],
            instruction_score=record["instruction_score"], potential=record.get("potential"),
            step_count=record["step_count"], max_steps=task.max_steps,
            invalid_actions=record["invalid_actions"],
            last_action_error=record["last_action_error"], message=record["message"],
            reward_components=record["reward_components"],
            metadata={"episode_id": st.episode_id, "utility": record["utility"]},
        )
