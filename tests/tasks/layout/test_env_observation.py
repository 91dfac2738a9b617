"""``LayoutEnv``'s observation and state, built for speed, equal the plain construction.

``LayoutEnv._observe`` validates the observation in one call from plain dicts and
updates the state's ``__dict__`` at once; here every observation of a mixed stream
(valid random actions, junk payloads, finalize, both profiles, DesignGym's and
generated tasks) is compared with one built keyword by keyword from the episode's
state record, as ``LayoutEnv`` did before: same values, same types, same fields set,
and no list or dict shared with the episode or with an earlier observation.
"""

from __future__ import annotations

import random

import pytest

from designrl.policies.layout_random import random_action
from designrl.tasks.layout.env import ElementView, LayoutEnv, LayoutObservation, load_task

JUNK = [None, 3, "x", [1], {"action_type": 5}, {"rotation": 2}, {"action_type": "finalize"},
        {"action_type": "move", "element_id": "title", "dx": 1, "dy": 0},
        {"action_type": "move", "element_id": "title", "dx": "a"},
        {"action_type": "snap", "element_id": "title", "grid": 10**300}]
TASKS = ("poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1", "gen-poster", "gen-slide")


def reference(env: LayoutEnv, record: dict) -> LayoutObservation:
    """The observation built keyword by keyword from the state record."""
    specs = {s.id: s for s in env.task.elements}
    elements = [ElementView(id=e.id, role=specs[e.id].role, type=specs[e.id].type,
                            group=specs[e.id].group, importance=specs[e.id].importance,
                            bbox=list(e.bbox), z=e.z) for e in env.episode.layout.elements]
    st = env.state
    return LayoutObservation(
        done=record["done"], reward=record["reward"], task_id=st.task_id, seed=st.seed,
        profile=env.profile, canvas_aspect=env.task.canvas_aspect, elements=elements,
        brief=env.episode.brief.model_dump(include={"brief_id", "primary_goal",
                                                    "required_regions"}),
        metrics=record["metrics"], score=record["current_score"],
        instruction_score=record["instruction_score"], potential=record.get("potential"),
        step_count=record["step_count"], max_steps=env.task.max_steps,
        invalid_actions=record["invalid_actions"],
        last_action_error=record["last_action_error"], message=record["message"],
        reward_components=record["reward_components"],
        metadata={"episode_id": st.episode_id, "utility": record["utility"]},
    )


def shape(model) -> tuple:
    """Values, their types and the fields set, of a model and its nested elements."""
    types = {k: type(v).__name__ for k, v in model.__dict__.items()}
    nested = [(e.model_dump(), sorted(e.model_fields_set), [type(v) for v in e.bbox])
              for e in getattr(model, "elements", [])]
    return model.model_dump(), types, sorted(model.model_fields_set), nested


def check(env: LayoutEnv, obs: LayoutObservation, previous: LayoutObservation | None) -> None:
    record = env.episode.record()
    want = reference(env, record)
    if obs.reward is None:  # reset
        want.reward = None
    assert shape(obs) == shape(want)
    st = env.state
    assert (st.step_count, st.done, st.score, st.best_score, st.instruction_score,
            st.total_reward, st.invalid_actions) == (
        record["step_count"], record["done"], record["current_score"],
        record["best_score_so_far"], record["instruction_score"], record["total_reward"],
        record["invalid_actions"])
    assert {"step_count", "done", "score", "invalid_actions"} <= st.model_fields_set
    episode = env.episode
    assert obs.metrics is not episode.metrics
    assert obs.reward_components is not episode.reward_components
    for view, element in zip(obs.elements, episode.layout.elements, strict=True):
        assert view.bbox is not element.bbox
    if previous is not None:
        assert obs.brief["required_regions"] is not previous.brief["required_regions"]


@pytest.mark.parametrize("profile", ["designgym", "default"])
def test_observation_equals_plain_construction(profile):
    env = LayoutEnv(profile=profile)
    for n in range(15):
        rng = random.Random(f"observation:{n}")
        task_id = TASKS[n % len(TASKS)]
        obs = env.reset(task_id=task_id, seed=n)
        check(env, obs, None)
        task = load_task(task_id, n)
        for _ in range(12):
            action = rng.choice(JUNK) if rng.random() < 0.2 else random_action(task, rng)
            previous, obs = obs, env.step(action)
            check(env, obs, previous)
