"""``run_episode_spec``: the one episode call of the embedded bench and the workers."""

from __future__ import annotations

import pytest

from designrl.bench import BenchCase, run_case
from designrl.policies import make_layout_policy
from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.rollout.layout_episode import run_episode
from designrl.rollout.record import EpisodeRecord
from designrl.tasks.layout.env import LayoutEnv


@pytest.mark.parametrize("case", [
    BenchCase("layout", "poster_basic_v1", "rule", 1, "1", "designgym"),
    BenchCase("layout", "gen-slide", "random", 1_000_001, "1000001", "default")])
def test_the_bench_row_is_the_direct_episode_record(case):
    direct = run_episode(LayoutEnv(profile=case.profile),
                         make_layout_policy(case.policy, seed=case.seed), case.task_id, case.seed)
    row = run_case(case)
    assert {k: v for k, v in row.items() if k not in ("seconds", "episode_id")} == {
        k: v for k, v in direct.items() if k != "seconds"}


def test_record_round_trips_through_json_exactly():
    record = run_episode_spec(EpisodeSpec(family="layout", task_id="gen-poster", seed=7,
                                          policy="random", profile="default"))
    assert record.outcome == "ok" and record.steps
    valid = sum(s.valid for s in record.steps)
    assert record.valid_action_rate == valid / len(record.steps)
    again = EpisodeRecord.model_validate_json(record.model_dump_json())
    assert again == record  # floats survive JSON bit for bit


def test_bad_specs_are_refused_before_running():
    with pytest.raises(ValueError, match="unknown svg policy 'rule'; known: expert"):
        run_episode_spec(EpisodeSpec(family="svg", task_id="svg-prompts", policy="rule",
                                     item_key="traffic-light"))
    with pytest.raises(ValueError, match="svg-prompts has no item 'nope'"):
        run_episode_spec(EpisodeSpec(family="svg", task_id="svg-prompts", policy="expert",
                                     item_key="nope"))
    with pytest.raises(ValueError, match="unknown layout policy"):
        run_episode_spec(EpisodeSpec(family="layout", task_id="gen-poster", policy="nope"))
    with pytest.raises(ValueError):
        EpisodeSpec(family="layout", task_id="gen-poster", policy="rule", extra=1)
    with pytest.raises(ValueError, match="no inference server"):  # a worker without one
        run_episode_spec(EpisodeSpec(family="layout", task_id="gen-poster", policy="vllm:latest"))


def test_sampled_group_members_differ_by_their_sampling_seed():
    spec = EpisodeSpec(family="layout", task_id="gen-flyer", seed=4, policy="random",
                       step_limit=4)
    runs = [run_episode_spec(spec.model_copy(update={"sampling_seed": n})) for n in (1, 2, 1)]
    actions = [[s.action for s in r.steps] for r in runs]
    assert actions[0] == actions[2] != actions[1]


def test_on_step_sees_every_step_in_order_as_the_record_has_it():
    entries = []
    raw = run_episode(LayoutEnv(), make_layout_policy("random", seed=3), "gen-poster", 3,
                      on_step=entries.append)
    assert entries == raw["actions"] and len(entries) > 1
    steps = []
    record = run_episode_spec(EpisodeSpec(family="layout", task_id="gen-poster", seed=3,
                                          policy="random"), on_step=steps.append)
    assert steps == record.steps and not all(s.valid for s in steps)  # rejected ones too
