"""One expansion of a job into episodes (``designrl.job_plan``), shared by ``designrl bench``
and the API: the same job gives the same episodes, in the same order, either way."""

from __future__ import annotations

from designrl.bench import BenchPlan
from designrl.job_plan import JobItem, TaskRun, expand_job, seeded_items
from designrl.tasks.family import TEST_SEED_START
from services.api.job_requests import BenchmarkJobRequest
from services.api.plans import job_plans

SEEDS = [TEST_SEED_START, TEST_SEED_START + 1]


def test_bench_and_the_api_expand_the_same_job_alike():
    tasks, policies = ["gen-poster", "gen-svg", "gen-html"], ["random", "rule", "expert", "blank"]
    bench = BenchPlan(tasks=tasks, policies=policies, generated_seeds=SEEDS,
                      profiles=["default"], families=["layout", "svg", "html"]).cases()
    api = job_plans(BenchmarkJobRequest(kind="benchmark", tasks=tasks, seeds=SEEDS,
                                        policies=policies), datasets={})
    assert [(c.family, c.task_id, c.item_key, c.seed, c.policy, c.profile) for c in bench] == \
        [(p.family, p.task_id, p.item_key, p.seed, p.policy, p.profile) for p in api]
    assert len(api) == len({(p.task_id, p.item_key, p.policy) for p in api}) > 6


def test_a_benchmark_runs_task_profile_item_then_policy():
    runs = [TaskRun("poster_basic_v1", seeded_items([0, 1]), ["rule", "random"]),
            TaskRun("gen-poster", seeded_items([5]), ["rule"])]
    plans = expand_job(runs, profiles=["designgym", "default"])
    assert [(p.task_id, p.profile, p.seed, p.policy) for p in plans] == [
        ("poster_basic_v1", "designgym", 0, "rule"), ("poster_basic_v1", "designgym", 0, "random"),
        ("poster_basic_v1", "designgym", 1, "rule"), ("poster_basic_v1", "designgym", 1, "random"),
        ("poster_basic_v1", "default", 0, "rule"), ("poster_basic_v1", "default", 0, "random"),
        ("poster_basic_v1", "default", 1, "rule"), ("poster_basic_v1", "default", 1, "random"),
        ("gen-poster", "default", 5, "rule")]  # designgym runs DesignGym's tasks only
    assert {p.family for p in plans} == {"layout"} and plans[0].item_key == "0"


def test_a_rollout_is_one_numbered_group_per_task_and_item():
    runs = [TaskRun("gen-svg", seeded_items([1, 2]), ["random"]),
            TaskRun("gen-poster", seeded_items([3]), ["random"])]
    plans = expand_job(runs, group_size=3, policy_version=4)
    assert [p.group for p in plans] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert {p.policy_version for p in plans} == {4}
    assert [p.profile for p in plans] == [None] * 6 + ["default"] * 3  # single-turn: none


def test_a_policy_runs_only_on_the_items_it_answers():
    runs = [TaskRun("svg-prompts", [JobItem("a"), JobItem("b"), JobItem("c")],
                    ["random", "predictions:mine"], source="/data/prompts.json")]
    plans = expand_job(runs, answers=lambda policy, item: policy == "random" or item == "b")
    assert [(p.item_key, p.policy) for p in plans] == [
        ("a", "random"), ("b", "random"), ("b", "predictions:mine"), ("c", "random")]
    assert {p.source for p in plans} == {"/data/prompts.json"}
