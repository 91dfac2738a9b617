"""SFT data: the teachers' answers as chat examples a language model can imitate.

Single-turn families (``teacher_examples``): one example per train item, the family's
prompt and a model-free policy's completion (svg ``expert``, webpage ``template``);
html prompts show the reference's screenshot, so they need a ``PoolRunner``.

Layout (``expert_examples``):

Each expert step becomes one example, ``{"messages": [system, user, assistant]}``:
the prompt the LLM policy would see at that step (``layout_messages``, same
style) and the expert's action as compact JSON. The file is JSONL, which
``datasets.load_dataset("json", data_files=...)`` reads and TRL's ``SFTTrainer``
trains on directly (with ``assistant_only_loss``, thanks to the chat template's
generation marks). Seeds are the train split (below the test seeds), so held-out
evaluation never sees them.

Recovery examples (``recovery`` > 0): after that share of steps' examples the
episode takes a mistaken action, the expert's own made invalid the way an
undertrained model errs (an element of another layout, one element named twice,
a field the action lacks, a missing field); the env rejects it, and one more
example follows: the next prompt, which carries the env's error, with the
expert's answer. An expert never errs, so without these a model that errs once
sees a prompt unlike any it trained on and, greedy, tends to repeat the mistake
for the rest of the episode.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from designrl.tasks.layout.env import GENERATED_TASK_IDS, LayoutEnv
from designrl.tasks.layout.generate import TEST_SEED_START
from designrl.tasks.layout.prompt import PromptStyle, layout_messages


def expert_examples(task_ids: Sequence[str] = GENERATED_TASK_IDS, seeds: Sequence[int] = (),
                    style: PromptStyle = "compact", step_limit: int = 64,
                    recovery: float = 0.0) -> Iterator[dict]:
    """Chat examples from expert episodes on every task × seed (default profile); with
    ``recovery``, that share of steps follows a rejected mistake (see the module)."""
    from designrl.policies import make_layout_policy

    check_train_seeds(seeds)
    if not 0.0 <= recovery < 1.0:
        raise ValueError("recovery is a share of steps in [0, 1)")
    for task_id in task_ids:
        for seed in seeds:
            env = LayoutEnv(profile="default")
            expert = make_layout_policy("expert", seed=seed)
            rng = random.Random(f"recovery {task_id} {seed}")
            obs = env.reset(task_id, seed=seed)
            for _ in range(step_limit):
                if obs.done:
                    break
                action = expert.act(env, obs)
                yield example(obs, action, style, task_id, seed)
                if recovery and rng.random() < recovery:
                    obs = env.step(mistake(action, [e.id for e in obs.elements], rng))
                    if obs.done:
                        break
                    if obs.last_action_error is None:  # accepted after all: a new state
                        action = expert.act(env, obs)
                    yield example(obs, action, style, task_id, seed)
                obs = env.step(action)


def teacher_examples(task_id: str, policy: str, keys: Sequence[int | str],
                     runner=None) -> Iterator[dict]:
    """Chat examples of a single-turn task: for each train item (a seed, or a dataset
    item's id) the family's prompt and ``policy``'s completion."""
    from designrl.tasks import FAMILIES, TASKS, find_item, is_test_item, reference_screenshot

    family = FAMILIES[TASKS[task_id].family]
    if policy not in family.policies:
        raise ValueError(f"{policy!r} is not a model-free {family.name} policy; known: "
                         f"{', '.join(family.policies)}")
    held_out = [k for k in keys if is_test_item(task_id, k)]
    if held_out:
        raise ValueError(f"SFT items must be in the train split; {held_out[0]!r} is a test item")
    for key in keys:
        item = find_item(task_id, key)
        screenshot = (reference_screenshot(family, item, runner, task_id)
                      if family.reference is not None else None)
        answer = family.policies[policy](item, 0)
        yield {"messages": [*family.messages(item, screenshot),
                            {"role": "assistant", "content": answer}],
               "task_id": task_id, "item_id": item.id, "policy": policy}


def check_train_seeds(seeds: Sequence[int]) -> None:
    """Refuse test seeds: held-out evaluation must never see what a model trained on."""
    if any(seed >= TEST_SEED_START for seed in seeds):
        raise ValueError(f"SFT seeds must be below the test seeds ({TEST_SEED_START})")


def example(obs, action: dict[str, Any], style: PromptStyle, task_id: str, seed: int) -> dict:
    """One chat example: the prompt of ``obs`` in ``style`` and ``action`` as compact JSON."""
    answer = json.dumps(action, separators=(",", ":"))
    return {"messages": [*layout_messages(obs, style), {"role": "assistant", "content": answer}],
            "task_id": task_id, "seed": seed, "step": obs.step_count, "style": style}


@cache
def _all_element_ids() -> tuple[str, ...]:
    """Element ids across the generated families (a few seeds each: optional elements)."""
    env = LayoutEnv(profile="default")
    return tuple(sorted({e.id for task_id in GENERATED_TASK_IDS for seed in range(4)
                         for e in env.reset(task_id, seed=seed).elements}))


def mistake(action: dict[str, Any], ids: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """``action`` made invalid: an id not in the layout, one id twice, a stray field or a
    missing one."""
    wrong = dict(action)
    foreign = [i for i in _all_element_ids() if i not in ids]
    kinds = ["stray_field"]
    if "element_id" in wrong or "element_ids" in wrong:
        kinds += ["foreign_id", "foreign_id"]  # the commonest error of a small model
    if "element_ids" in wrong:
        kinds += ["repeated_id", "repeated_id"]  # as common, in actions on several
    required = [k for k in ("element_id", "element_ids", "group_id", "template_id") if k in wrong]
    if required:
        kinds.append("missing_field")
    kind = rng.choice(kinds)
    if kind == "foreign_id":
        if "element_id" in wrong:
            wrong["element_id"] = rng.choice(foreign)
        else:
            members = list(wrong["element_ids"])
            members[rng.randrange(len(members))] = rng.choice(foreign)
            wrong["element_ids"] = members
    elif kind == "repeated_id":
        members = list(wrong["element_ids"])
        wrong["element_ids"] = [members[0], *members[:-1]]
    elif kind == "missing_field":
        del wrong[rng.choice(required)]
    else:
        stray = [k for k in ("dx", "dw", "element_id", "axis", "grid", "anchor") if k not in wrong]
        wrong[rng.choice(stray)] = 0.05
    return wrong


def write_jsonl(examples, path: str | Path) -> int:
    """Write examples one JSON object per line; returns how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for example in examples:
            out.write(json.dumps(example) + "\n")
            count += 1
    return count
