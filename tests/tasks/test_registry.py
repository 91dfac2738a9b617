"""The registry's conformance test: every registered task runs through its family's interface.

Layout tasks: an episode resets and steps in ``LayoutEnv``. Single-turn tasks: rows load
(prompt messages and the reward's column), and the family's batch reward function, called
the way TRL calls it, scores a good completion above a useless one, in [0, 1], and gives
None to a row it does not apply to.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from shared_data import require_shared

from designrl.policies.layout_random import random_action
from designrl.tasks import FAMILIES, TASKS, family_of, load_items, load_rows, reward_function
from designrl.tasks.layout.env import LayoutEnv

POOL_PAGES = 2
POOL_TIMEOUT_S = 15.0

SINGLE_TURN = [t for t, task in TASKS.items() if task.family != "layout"]
LAYOUT = [t for t, task in TASKS.items() if task.family == "layout"]
COLUMN = {"html": "reference_html", "svg": "requirements", "webpage": "request"}


def test_every_task_has_a_known_family_and_every_family_has_tasks():
    assert {task.family for task in TASKS.values()} == set(FAMILIES)
    assert all(task_id == task.id for task_id, task in TASKS.items())
    with pytest.raises(ValueError, match="unknown task"):
        family_of("no-such-task")
    with pytest.raises(ValueError, match="needs a path"):
        load_items("design2code")
    with pytest.raises(ValueError, match="seeds"):
        load_items("gen-poster")
    with pytest.raises(ValueError, match="layout is scored by"):
        reward_function("layout")


@pytest.mark.parametrize("task_id", LAYOUT)
def test_layout_task_runs_an_episode(task_id):
    env = LayoutEnv("designgym" if not task_id.startswith("gen-") else "default")
    obs = env.reset(task_id, seed=3)
    assert obs.task_id == task_id and obs.elements and obs.reward is None
    step = env.step(random_action(env.task, random.Random(0)))
    assert step.reward is not None and math.isfinite(step.reward)


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """A path for every task that needs one: the dev pages, and files in each format."""
    folder = require_shared("data/design2code")
    tmp = tmp_path_factory.mktemp("sources")
    pages = sorted(folder.glob("*.html"))[:2]
    websight = tmp / "websight.jsonl"
    websight.write_text("\n".join(json.dumps({"id": p.stem, "text": p.read_text()})
                                  for p in pages))
    questions = tmp / "questions.json"
    first = load_items("svg-prompts", limit=1)[0]
    questions.write_text(json.dumps([{"prompt": first.prompt,
                                      "requirements": list(first.requirements)}]))
    return {"design2code": folder, "websight": websight, "svgbench": questions}


def good_completion(task_id: str, path) -> str:
    """The family's teacher (its first model-free policy) answering the task's first item."""
    family = FAMILIES[family_of(task_id)]
    item = load_items(task_id, path, limit=1)[0]
    return next(iter(family.policies.values()))(item, 0)


@pytest.mark.integration
@pytest.mark.parametrize("task_id", SINGLE_TURN)
def test_single_turn_task_loads_rows_and_is_scored_like_trl_does(task_id, runner, sources):
    family = family_of(task_id)
    rows = load_rows(task_id, path=sources.get(task_id), limit=1, runner=runner)
    assert len(rows) == 1
    row = rows[0]
    assert row["task_id"] == task_id and row["item_id"]
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert row[COLUMN[family]]

    reward = reward_function(family, runner)
    assert reward.__name__ == f"{family}_reward"  # TRL names the logged reward after it
    good = good_completion(task_id, sources.get(task_id))
    # Conversational completions (lists of messages) are read like strings.
    completions = [good, [{"role": "assistant", "content": "I cannot help."}], good]
    scores = reward(prompts=[row["prompt"]] * 3, completions=completions,
                    **{COLUMN[family]: [row[COLUMN[family]]] * 2 + [None]},
                    task_id=[task_id] * 3)
    assert scores[2] is None
    assert all(0.0 <= s <= 1.0 for s in scores[:2])
    assert scores[0] > scores[1] and scores[0] >= 0.5, scores


def test_a_reward_without_its_column_says_which():
    reward = reward_function("svg", browser=False)
    with pytest.raises(ValueError, match="no 'requirements' column"):
        reward(prompts=["p"], completions=["c"])
    with pytest.raises(ValueError, match="1 values for 2 completions"):
        reward(prompts=["p", "q"], completions=["c", "d"], requirements=[["r"]])


@pytest.mark.integration
@pytest.mark.parametrize("family", [f for f in FAMILIES if not FAMILIES[f].multi_turn])
def test_every_component_is_a_trl_reward_function_reading_one_scoring(family, runner):
    from designrl.tasks import reward_functions

    record = FAMILIES[family]
    task_id = next(t.id for t in record.tasks if not t.needs_path)
    rows = load_rows(task_id, limit=1, runner=runner)
    funcs = reward_functions(family, runner)
    assert [f.__name__ for f in funcs] == [f"{family}_reward",
                                           *(f"{family}_{c}" for c in record.components)]
    good = good_completion(task_id, None)
    completions = [good, "I cannot help.", good]
    columns = {record.column: [rows[0][record.column]] * 2 + [None]}
    values = [f(prompts=[rows[0]["prompt"]] * 3, completions=completions, **columns)
              for f in funcs]
    total = values[0]
    assert total[2] is None and total[0] > total[1]
    # the same as the total function the family has had all along
    assert total[:2] == reward_function(family, runner)(
        prompts=[rows[0]["prompt"]] * 2, completions=completions[:2],
        **{record.column: columns[record.column][:2]})
    components = dict(zip(record.components, values[1:], strict=True))
    assert components["validity" if "validity" in components else "execution"][0] == 1.0
    assert all(v is None or 0.0 <= v <= 1.0 for vs in components.values() for v in vs[:2])
    assert all(vs[2] is None for vs in components.values())
    with pytest.raises(ValueError, match=f"{family} has no component 'nope'; its components"):
        reward_functions(family, runner, ["nope"])
