"""The look-ahead expert clears the issue's bars and is deterministic."""

import statistics

import pytest

from designrl.policies import make_layout_policy
from designrl.rollout.layout_episode import run_episode
from designrl.tasks.layout.env import GENERATED_TASK_IDS, LayoutEnv
from designrl.tasks.layout.generate import TEST_SEED_START
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS


@pytest.mark.slow
def test_expert_on_designgym_tasks():
    env = LayoutEnv("designgym")
    runs = [run_episode(env, make_layout_policy("expert"), task_id, seed)
            for task_id in DESIGNGYM_TASK_IDS for seed in range(3)]
    final = statistics.mean(r["final_score"] for r in runs)
    instruction = statistics.mean(r["instruction_score"] for r in runs)
    print(f"\nexpert, designgym profile: mean final {final:.4f}, mean instruction {instruction:.4f}")
    assert final >= 0.78 and instruction >= 0.90
    assert all(r["final_score"] >= r["start_score"] for r in runs)
    assert all(r["invalid_actions"] == 0 for r in runs)


@pytest.mark.slow
def test_expert_raises_potential_on_generated_test_seeds():
    env = LayoutEnv("default")
    runs = [run_episode(env, make_layout_policy("expert"), task_id, seed)
            for task_id in GENERATED_TASK_IDS for seed in range(TEST_SEED_START, TEST_SEED_START + 4)]
    raised = sum(r["final_potential"] > r["start_potential"] for r in runs)
    assert raised / len(runs) >= 0.95, raised
    assert all(r["total_reward"] > 0 for r in runs)


def test_expert_is_deterministic():
    env = LayoutEnv("default")
    first = run_episode(env, make_layout_policy("expert"), "gen-banner", 3)
    second = run_episode(env, make_layout_policy("expert"), "gen-banner", 3)
    assert [s["action"] for s in first["actions"]] == [s["action"] for s in second["actions"]]
    assert first["final_potential"] == second["final_potential"]
