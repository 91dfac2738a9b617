"""Layout images of a stored episode: before, after, and after every step.

An episode stores its actions, not a layout per step; the env is deterministic for a
task, seed and profile, so replaying the actions rebuilds each step's layout exactly
(a test checks the replay ends on the stored ``after`` layout); a running episode's
steps replay from its live steps the same way. Replays of the same
actions are cached: a page showing every step asks for each one in turn. Every image
draws the episode's brief: its target regions as dashed, named boxes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from designrl.store.models import Episode
from designrl.tasks import FAMILIES


class NoImage(LookupError):
    pass


def episode_svg(episode: Episode, which: Literal["before", "after"] | int,
                live: Sequence[dict | None] = ()) -> str:
    """``before``/``after`` from the stored layouts; an int: the layout after that step,
    replaying the stored actions or, while none are stored, the ``live`` ones."""
    from designrl.tasks.layout.env import load_task
    from designrl.tasks.layout.render import layout_to_svg
    from designrl.tasks.layout.spec import Layout

    if isinstance(which, int):
        actions = [step.action for step in episode.steps] or list(live)
        if not 0 <= which < len(actions):
            raise NoImage(f"episode {episode.id} has no step {which} (it has {len(actions)})")
        return _replay_svgs(episode.task_id, episode.seed or 0, episode.profile or "default",
                            json.dumps(actions))[which]
    layout = (episode.summary or {}).get(which)
    if layout is None:
        raise NoImage(f"episode {episode.id} has no {which} layout (not a finished layout "
                      "episode)")
    return layout_to_svg(load_task(episode.task_id, episode.seed or 0), Layout.from_json(layout),
                         brief=episode_brief(episode))


def episode_brief(episode: Episode) -> dict | None:
    """The brief a layout episode worked to (its goal and the regions required elements
    should sit in); None for another family or a task that cannot be loaded."""
    family = FAMILIES.get(episode.family)
    if family is None or not family.multi_turn:
        return None
    try:
        return _brief(episode.task_id, episode.seed or 0, episode.profile or "default")
    except (KeyError, ValueError):
        return None


@lru_cache(maxsize=256)
def _brief(task_id: str, seed: int, profile: str) -> dict:
    from designrl.tasks.layout.env import LayoutEnv

    env = LayoutEnv(profile=profile)
    env.reset(task_id=task_id, seed=seed)
    return env.episode.brief.model_dump(include={"brief_id", "primary_goal", "required_regions"})


@lru_cache(maxsize=64)
def _replay_svgs(task_id: str, seed: int, profile: str, actions_json: str) -> tuple[str, ...]:
    from designrl.tasks.layout.env import LayoutEnv
    from designrl.tasks.layout.render import layout_to_svg

    env = LayoutEnv(profile=profile)
    env.reset(task_id=task_id, seed=seed)
    svgs = []
    for action in json.loads(actions_json):
        env.step(sent_action(action))
        svgs.append(layout_to_svg(env.task, env.episode.layout, brief=env.episode.brief))
    return tuple(svgs)


def sent_action(stored: dict | None):
    """What the policy sent: a model's text that was not a JSON object is stored as
    ``{"raw": text}``; the env gets the text back, as it did the first time."""
    if isinstance(stored, dict) and stored.keys() == {"raw"}:
        return stored["raw"]
    return stored
