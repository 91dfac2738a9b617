"""Default profile: shaped reward telescopes, errors are readable, briefs are reachable."""

import pytest

from designrl.policies.layout_random import RandomLayoutPolicy
from designrl.tasks.layout.default_profile import FINAL_TERM_WEIGHT, INVALID_PENALTY
from designrl.tasks.layout.env import LAYOUT_TASK_IDS, LayoutEnv
from designrl.tasks.layout.generate import FAMILIES, TEST_SEED_START
from designrl.tasks.layout.metrics import hard_violation


@pytest.mark.parametrize("task_id", LAYOUT_TASK_IDS)
def test_return_measures_improvement_and_layouts_stay_valid(task_id):
    env = LayoutEnv("default")
    for seed in range(4):
        policy = RandomLayoutPolicy(seed)
        obs = env.reset(task_id=task_id, seed=seed)
        start = obs.potential
        total = 0.0
        templates = list(env.task.templates)
        while not obs.done:
            action = policy.act(env, obs)
            if obs.step_count % 3 == 2:  # templates and bad ids too
                action = {"action_type": "apply_template", "template_id": templates[seed % 2]}
            if obs.step_count == 1:
                action = {"action_type": "move", "element_id": "ghost", "dx": 0.1}
            obs = env.step(action)
            total += obs.reward
            assert hard_violation(env.task, env.episode.layout) is None
            if obs.last_action_error:
                assert obs.reward_components["invalid_penalty"] == INVALID_PENALTY
        expected = (1 + FINAL_TERM_WEIGHT) * (obs.potential - start) + INVALID_PENALTY * obs.invalid_actions
        assert total == pytest.approx(expected, abs=1e-9)
        assert env.state.total_reward == pytest.approx(total, abs=1e-9)
        assert obs.step_count == env.task.max_steps and obs.invalid_actions >= 1


def test_errors_name_what_is_allowed():
    env = LayoutEnv("default")
    env.reset(task_id="gen-poster", seed=5)
    cases = {
        '{"action_type": "move", "element_id": "ghost"}': "this layout has: ",
        '{"action_type": "teleport"}': "allowed: move, resize",
        '{"action_type": "move", "element_id": "title", "speed": 2}': "move.speed: unknown field",
        '{"action_type": "apply_template", "template_id": "zen"}': "templates: draft, stack",
        '{"action_type": "anchor_to_region", "element_id": "title", "region_id": "moon"}': "'top_band'",
        '{"action_type": "align", "element_ids": ["title", "title"], "axis": "x", "mode": "left"}':
            "2 different element_ids",
        '{"action_type": "align", "element_ids": ["title", "cta"], "axis": "x", "mode": "top"}':
            "allowed: left, center, right",
        '{"action_type": "reflow_group", "group_id": "nowhere"}': "groups: ",
        '{"action_type": "move",': "not valid JSON",
        '[1, 2]': "must be a JSON object",
        "x" * 20_000: "the limit is",
    }
    for raw, expected in cases.items():
        before = env.episode.layout.to_json()
        obs = env.step(raw)
        assert obs.last_action_error and expected in obs.last_action_error, (raw[:60], obs.last_action_error)
        assert obs.reward == INVALID_PENALTY and env.episode.layout.to_json() == before
        if obs.done:
            env.reset(task_id="gen-poster", seed=5)


def test_step_after_done_changes_nothing():
    env = LayoutEnv("default")
    env.reset(task_id="gen-slide", seed=2)
    obs = env.step({"action_type": "finalize"})
    assert obs.done and obs.reward_components["final_term"] == 0.0
    again = env.step({"action_type": "move", "element_id": "title", "dx": 0.1})
    assert again.done and again.reward == 0.0 and "call reset" in again.last_action_error
    assert env.state.step_count == 1


@pytest.mark.parametrize("family", FAMILIES)
def test_perfect_brief_fit_is_reachable(family):
    env = LayoutEnv("default")
    for seed in [*range(15), *range(TEST_SEED_START, TEST_SEED_START + 15)]:
        obs = env.reset(task_id=f"gen-{family}", seed=seed)
        for element_id, region in obs.brief["required_regions"].items():
            env.step({"action_type": "resize", "element_id": element_id, "dw": -1, "dh": -1})
            obs = env.step({"action_type": "anchor_to_region", "element_id": element_id,
                            "region_id": region})
        assert obs.instruction_score == pytest.approx(1.0, abs=1e-9), (family, seed)
