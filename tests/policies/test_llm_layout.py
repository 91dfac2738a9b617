"""Language-model layout policies: prompts, honest parsing, and episode accounting on the tiny
model (random weights: its output is rarely an action, which is what the counts must show)."""

from __future__ import annotations

import json
import time

import pytest

from designrl.policies.layout_rule import RuleLayoutPolicy
from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.rollout.layout_episode import run_episode
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.extract import parse_completion
from designrl.tasks.layout.prompt import layout_messages

MOVE = '{"action_type": "move", "element_id": "title", "dx": 0.01, "dy": -0.02}'


@pytest.mark.parametrize(("text", "json_ok", "valid"), [
    (MOVE, True, True),
    (f"Sure! Here is my action:\n```json\n{MOVE}\n```\nIt moves the title.", True, True),
    (f"I think {MOVE} then {{\"action_type\": \"finalize\"}}", True, True),  # the first one
    ('{"action_type": "move", "element_id": "title", "dx": "far"}', True, False),
    ('{"action_type": "rotate", "element_id": "title"}', True, False),
    ('{"action_type": "finalize", "extra": 1}', True, False),
    ("[1, 2, 3]", False, False),
    ("move the title left a bit", False, False),
    ("", False, False),
    ('{"action_type": "move"' * 5000, False, False),
    ("{" * 100_000, False, False),
])
def test_parsing_finds_json_and_validates_strictly(text, json_ok, valid):
    started = time.perf_counter()
    parsed = parse_completion(text)
    assert time.perf_counter() - started < 0.5  # hostile text is cheap to refuse
    assert (parsed.json_ok, parsed.valid) == (json_ok, valid), parsed
    assert (parsed.error is None) == valid
    if valid:
        assert parsed.action["action_type"] in ("move", "finalize")


def test_prompts_carry_the_state_and_the_action_language():
    env = LayoutEnv()
    obs = env.reset("gen-poster", seed=1_000_000)
    obs = env.step({"action_type": "move", "element_id": "nope", "dx": 0, "dy": 0})
    direct = layout_messages(obs, "direct")[1]["content"]
    state = json.loads(direct.split("State:\n", 1)[1].split("\n\nAction schema:")[0])
    assert [e["id"] for e in state["elements"]] == [e.id for e in obs.elements]
    schema = json.loads(direct.split("Action schema:\n", 1)[1].split("\n\nReply")[0])
    assert "oneOf" in schema or "anyOf" in schema
    compact = layout_messages(obs, "compact")[1]["content"]
    assert all(e.id in compact for e in obs.elements)
    assert "rejected" in compact and len(compact) < len(direct) / 3


def test_the_compact_grammar_names_each_action_s_fields():
    """The grammar a model reads spells every action with the fields the env accepts."""
    import re

    from designrl.tasks.layout.actions import ACTION_TYPES, LayoutAction
    from designrl.tasks.layout.prompt import GRAMMAR

    models = {m.model_fields["action_type"].default: m
              for m in LayoutAction.__origin__.__args__}
    lines = [line for line in GRAMMAR.splitlines() if line.startswith("{")]
    assert [re.search(r'"action_type": "(\w+)"', line)[1] for line in lines] == list(ACTION_TYPES)
    for line in lines:
        kind = re.search(r'"action_type": "(\w+)"', line)[1]
        assert set(re.findall(r'"(\w+)": ', line)) == set(models[kind].model_fields), line


def test_an_untrained_model_takes_invalid_steps_and_they_are_counted(tiny_model):
    record = run_episode_spec(EpisodeSpec(family="layout", task_id="gen-slide", seed=1_000_001,
                                          policy=f"llm:{tiny_model}", profile="default",
                                          step_limit=4))
    stats = record.summary["policy_stats"]
    assert len(record.steps) == 4 and len(stats["turns"]) == 4
    assert stats["steer_rate"] == 1.0 and stats["fallback_steps"] == 0  # its own output ran
    invalid = [s for s in record.steps if not s.valid]
    assert len(invalid) == round(4 * (1 - stats["model_valid_action_rate"]))
    assert all(s.error for s in invalid)  # the env says why each was refused
    assert stats["prompt_tokens"] > 4 * 100 and stats["completion_tokens"] > 0
    for turn in stats["turns"]:
        assert len(turn["token_ids"]) == len(turn["logprobs"]) > 0
        assert turn["messages"][0]["role"] == "system"


def test_a_fallback_policy_runs_and_is_counted_apart(tiny_model):
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.policies.llm.layout_policy import LLMLayoutPolicy

    policy = LLMLayoutPolicy(TransformersBackend(tiny_model), fallback=RuleLayoutPolicy())
    raw = run_episode(LayoutEnv(), policy, "gen-poster", 1_000_000, step_limit=5)
    stats = raw["policy_stats"]
    model_steps = round(stats["model_valid_action_rate"] * raw["steps"])
    assert stats["fallback_steps"] == raw["steps"] - model_steps
    assert stats["steer_rate"] == pytest.approx(model_steps / raw["steps"])
    assert [t["ran"] for t in stats["turns"]].count("fallback") == stats["fallback_steps"]


def test_bench_shows_the_model_columns(tiny_model, tmp_path, capsys):
    from designrl.cli import main

    assert main(["bench", "--policies", f"llm:{tiny_model},rule", "--profiles", "default",
                 "--tasks", "gen-banner", "--gen-seeds", "1000000", "--out", str(tmp_path),
                 "--no-report"]) == 0
    table = capsys.readouterr().out
    for column in ("JSON ok", "valid act.", "steer", "tok in", "tok out", "model s"):
        assert column in table, column
    results = json.loads((tmp_path / "results.json").read_text())
    (llm,) = [r for r in results["summary"] if r["policy"].startswith("llm:")]
    assert 0 <= llm["valid_json_rate"] <= 1 and llm["prompt_tokens"] > 0 and llm["steer_rate"] == 1
