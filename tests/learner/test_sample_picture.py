"""A training sample's picture where its episode is not stored: the final layout of a layout
sample, replayed from the completions ``samples.jsonl`` keeps."""

from __future__ import annotations

import json

import pytest

from designrl.learner.runs import sample_rows
from designrl.learner.sample_picture import can_replay, sample_svg
from designrl.policies import make_layout_policy
from designrl.rollout.groups import Sample, ScoredGroup
from designrl.rollout.layout_episode import run_episode
from designrl.tasks.layout.env import LayoutEnv, load_task
from designrl.tasks.layout.render import layout_to_svg
from designrl.tasks.layout.spec import Layout

TRUNCATED = '{"action_type": "move", "element_id": "title", "dx":'  # a model cut short


def group(task_id: str, seed: int, turns: list[dict]) -> ScoredGroup:
    return ScoredGroup(group_id="g", job_id="embedded", task_id=task_id, item_key=str(seed),
                       policy="policy-v1", policy_version=1, samples=[
                           Sample(episode_id="e", outcome="ok", reward=0.3, turns=turns)])


def test_a_layout_sample_replays_to_the_final_layout_of_its_episode():
    env = LayoutEnv(profile="default")
    record = run_episode(env, make_layout_policy("rule", seed=0), "gen-flyer", 1_000_004)
    actions = [step["action"] for step in record["actions"]]
    assert len(actions) >= 3 and any(a["action_type"] != "finalize" for a in actions)
    # the completions a model that learned the planner writes (SFT's answers: compact JSON),
    # one of them cut short: an invalid step that changes nothing, as in the episode
    texts = [json.dumps(a, separators=(",", ":")) for a in actions]
    texts.insert(1, TRUNCATED)
    (row,) = sample_rows(1, [group("gen-flyer", 1_000_004,
                                   [{"completion": t, "ran": "model"} for t in texts])])
    row = json.loads(json.dumps(row))  # as samples.jsonl holds it
    assert row["completions"] == texts and can_replay(row)
    task = load_task("gen-flyer", 1_000_004)
    expected = layout_to_svg(task, Layout.from_json(record["after"]), brief=env.episode.brief)
    assert sample_svg(row) == expected
    before = layout_to_svg(task, Layout.from_json(record["before"]), brief=env.episode.brief)
    assert sample_svg(row | {"completions": [TRUNCATED]}) == before != expected


def test_samples_without_what_a_replay_needs_have_no_picture():
    turns = [{"completion": '{"action_type":"finalize"}', "ran": "model"},
             {"completion": "oops", "ran": "fallback"}]  # the fallback's action is not kept
    (fallback,) = sample_rows(1, [group("gen-poster", 3, turns)])
    assert "completions" not in fallback and not can_replay(fallback)
    single = {"task_id": "gen-svg", "item_key": "3", "completions": ["<svg/>"]}
    assert not can_replay(single)  # a render family: the API has no browser to draw it
    with pytest.raises(ValueError, match="no completions to replay"):
        sample_svg(fallback)
