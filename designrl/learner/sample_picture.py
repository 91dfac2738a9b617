"""The picture of a training sample whose episode is not stored (``designrl train`` stores
none): a layout sample's final layout, rebuilt by replaying its completions.

The layout env is deterministic for a task, seed and profile, and the sampler sent each
completion to it as the model wrote it: the action it parses to when valid, else the raw
text, which the env records as an invalid step (``designrl.rollout.layout_batch``). So
stepping a fresh env with the same completions ends on the same layout. The render
families' samples would need a browser to draw: the API has none, so they have no
picture unless their episode is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from designrl.tasks import FAMILIES, TASKS


def can_replay(sample: dict[str, Any]) -> bool:
    """Whether ``sample`` (a ``samples.jsonl`` row) carries what a replay needs: a layout
    task's seed and the completions of every turn."""
    task = TASKS.get(sample.get("task_id", ""))
    return (task is not None and FAMILIES[task.family].multi_turn
            and bool(sample.get("completions")) and str(sample.get("item_key", "")).isdigit())


def sample_svg(sample: dict[str, Any]) -> str:
    """The final layout of a replayable sample (``can_replay``), drawn as SVG with its
    brief's target regions; its ``profile`` (default: ``default``, what ``designrl
    train`` samples in)."""
    if not can_replay(sample):
        raise ValueError(f"sample of {sample.get('task_id')!r} item "
                         f"{sample.get('item_key')!r} has no completions to replay")
    return _replayed_svg(sample["task_id"], int(sample["item_key"]),
                         tuple(sample["completions"]), sample.get("profile") or "default")


@lru_cache(maxsize=128)
def _replayed_svg(task_id: str, seed: int, completions: Sequence[str], profile: str) -> str:
    from designrl.tasks.layout.env import LayoutEnv
    from designrl.tasks.layout.extract import parse_completion
    from designrl.tasks.layout.render import layout_to_svg

    env = LayoutEnv(profile=profile)
    obs = env.reset(task_id=task_id, seed=seed)
    for text in completions:
        if obs.done:
            break
        parsed = parse_completion(text)
        obs = env.step(parsed.action if parsed.valid else text)
    return layout_to_svg(env.task, env.episode.layout, brief=env.episode.brief)
