"""The conformance test over every registered family: one shape, every path.

For each family: its tasks give items, its prompt builds, every model-free policy
runs an episode through the embedded call (``run_episode_spec``) and through the
workers' call (``run_stored_episode`` on a store) with the same record, the total
and every component lie in [0, 1], and malformed output is a readable outcome.
"""

from __future__ import annotations

import json
import math

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.policies import accepts_policy, policy_names
from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.rollout.single_turn import EpisodeContext
from designrl.rollout.stored import run_stored_episode
from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.artifacts import artifact_names
from designrl.store.jobs import EpisodePlan, create_job, list_episodes
from designrl.tasks import FAMILIES, TASKS, find_item, get_family, load_items
from designrl.tasks.family import OUTCOMES, TEST_SEED_START
from designrl.tasks.layout.env import LayoutEnv

SEED = TEST_SEED_START + 7


def first_item(task_id: str) -> tuple[int | None, str]:
    """(seed, key) of a task's first test item that needs no user file."""
    task = TASKS[task_id]
    if task.seeded:
        return SEED, str(SEED)
    return None, load_items(task_id, limit=1)[0].id


def runnable_tasks(family: str) -> list[str]:
    return [t.id for t in FAMILIES[family].tasks if not t.needs_path]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'conformance.db'}"
    upgrade(url)
    engine = make_engine(url)
    yield make_sessionmaker(engine)
    engine.dispose()


def run_stored(sessions, spec: EpisodeSpec, context: EpisodeContext | None = None):
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=[EpisodePlan(
            family=spec.family, task_id=spec.task_id, item_key=spec.item_key,
            seed=spec.seed, policy=spec.policy, profile=spec.profile)])
        (episode,) = list_episodes(session, job.id)
    ran = run_stored_episode(sessions, episode.id, worker="conformance", context=context)
    assert ran.outcome == "done"
    return episode.id, ran.record


def test_every_family_is_one_registry_record_with_tasks_and_policies():
    assert list(FAMILIES) == ["layout", "html", "svg", "webpage"]
    for name, family in FAMILIES.items():
        assert family.name == name and family.tasks and family.policies and family.components
        assert all(t.family == name for t in family.tasks)
        assert set(family.oracles) <= set(family.policies)
        assert runnable_tasks(name), f"{name} has no task that runs without a user's file"
        if not family.multi_turn:  # the single-turn hooks are all there
            assert family.messages and family.extract and family.scorer and family.batch_rewards
            assert family.picture_page  # a training sample's picture is drawn from its text
        for policy in family.policies:
            assert accepts_policy(family, policy)
        assert accepts_policy(family, "vllm:latest") and not accepts_policy(family, "nope")
        assert any(p.startswith("vllm:") for p in policy_names(family))
    with pytest.raises(ValueError, match="unknown family 'nope'; known: layout, html"):
        get_family("nope")


@pytest.mark.parametrize("task_id", [t for f in FAMILIES for t in runnable_tasks(f)])
def test_every_task_gives_items_and_splits_them(task_id):
    task = TASKS[task_id]
    if FAMILIES[task.family].multi_turn:
        obs = LayoutEnv("default" if task_id.startswith("gen-") else "designgym").reset(
            task_id, seed=SEED)
        assert obs.elements
        return
    seed, key = first_item(task_id)
    item = find_item(task_id, key)
    assert item == find_item(task_id, key), "an item is the same every time it is asked for"
    assert item.id
    if seed is not None:
        assert find_item(task_id, seed - TEST_SEED_START).id != item.id
    with pytest.raises(ValueError, match="no item|are seeds"):
        find_item(task_id, "no-such-item")


@pytest.mark.integration
@pytest.mark.parametrize("family", [f for f in FAMILIES if not FAMILIES[f].multi_turn])
def test_single_turn_family_runs_every_policy_embedded_and_stored_alike(family, sessions):
    require_chromium()
    record = FAMILIES[family]
    task_id = runnable_tasks(family)[0]
    seed, key = first_item(task_id)
    item = find_item(task_id, key)
    messages = record.messages(item, b"\x89PNG\r\n\x1a\n" if record.reference else None)
    assert [m["role"] for m in messages] == ["system", "user"]
    for policy in record.policies:
        spec = EpisodeSpec(family=family, task_id=task_id, policy=policy, seed=seed,
                           item_key=key)
        embedded = run_episode_spec(spec)
        assert embedded.outcome in OUTCOMES and embedded.outcome == "ok", embedded.error
        assert 0.0 <= embedded.total_reward <= 1.0
        assert all(0.0 <= v <= 1.0 for v in embedded.rewards.values()), embedded.rewards
        assert set(embedded.rewards) <= set(record.components)
        assert embedded.completion and record.extract(embedded.completion)
        assert embedded.images.get("candidate", b"").startswith(b"\x89PNG")
        episode_id, stored = run_stored(sessions, spec)
        assert math.isclose(stored.total_reward, embedded.total_reward, abs_tol=1e-9)
        assert stored.rewards.keys() == embedded.rewards.keys()
        with sessions() as session:
            assert artifact_names(session, episode_id) == sorted(embedded.images)


@pytest.mark.integration
@pytest.mark.parametrize("family", [f for f in FAMILIES if not FAMILIES[f].multi_turn])
def test_malformed_output_is_a_readable_outcome_never_an_exception(family, sessions):
    require_chromium()
    task_id = runnable_tasks(family)[0]
    seed, key = first_item(task_id)
    item_id = find_item(task_id, key).id
    answers = {"chatter": "I cannot help with that.", "empty": ""}
    context = EpisodeContext(predictions=lambda name, i: answers[name] if i == item_id else None)
    for name in answers:
        spec = EpisodeSpec(family=family, task_id=task_id, policy=f"predictions:{name}",
                           seed=seed, item_key=key)
        for record in (run_episode_spec(spec, context=context),
                       run_stored(sessions, spec, context)[1]):
            assert record.outcome == "invalid_output" and record.total_reward == 0.0
            assert record.error and ("no" in record.error or "html" in record.error)
    missing = EpisodeSpec(family=family, task_id=task_id, policy="predictions:empty",
                          seed=seed, item_key=key)
    other = EpisodeContext(predictions=lambda name, i: None)
    record = run_episode_spec(missing, context=other)
    assert record.outcome == "error" and record.total_reward is None
    assert "no completion for item" in record.error


def test_layout_malformed_output_is_a_rejected_step_with_a_reason():
    env = LayoutEnv("default")
    env.reset("gen-poster", seed=SEED)
    obs = env.step("I cannot help with that.")
    assert obs.last_action_error and obs.reward == pytest.approx(-0.05)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_policy_a_family_does_not_run_is_a_bad_job_naming_the_known_ones(family):
    task_id = runnable_tasks(family)[0]
    seed, key = first_item(task_id)
    spec = EpisodeSpec(family=family, task_id=task_id, policy="oracle", seed=seed, item_key=key)
    with pytest.raises(ValueError, match="unknown .*polic.*known: "):
        run_episode_spec(spec)
    served = EpisodeSpec(family=family, task_id=task_id, policy="vllm:policy", seed=seed,
                         item_key=key)
    with pytest.raises(ValueError, match="no inference server"):
        run_episode_spec(served)


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.parametrize("family", [f for f in FAMILIES if not FAMILIES[f].multi_turn])
def test_a_language_model_in_process_runs_every_single_turn_family(family, tiny_model):
    """``llm:DIR``: the family's prompt to a model loaded here, its one turn kept for GRPO
    (token ids and behaviour logprobs), and whatever it wrote scored or refused in words."""
    require_chromium()
    task_id = runnable_tasks(family)[0]
    seed, key = first_item(task_id)
    # the untrained model writes until its budget: a short one tests the same path
    record = run_episode_spec(EpisodeSpec(family=family, task_id=task_id,
                                          policy=f"llm:{tiny_model}", seed=seed, item_key=key,
                                          max_tokens=48))
    assert record.outcome in OUTCOMES and record.error != ""
    if record.outcome == "error":  # the text-only tiny model is given a screenshot (html)
        assert FAMILIES[family].reference is not None, record.error
        return
    (turn,) = record.summary["policy_stats"]["turns"]
    assert turn["completion"] == record.completion
    assert len(turn["token_ids"]) == len(turn["logprobs"]) > 0
    assert turn["ran"] == ("invalid" if record.outcome == "invalid_output" else "model")
    assert 0.0 <= record.total_reward <= 1.0


@pytest.mark.integration
def test_a_scorer_or_browser_that_breaks_is_a_recorded_error_with_no_reward(tmp_path):
    """Infrastructure failures end the episode with a reason, never a reward of 0."""
    spec = EpisodeSpec(family="svg", task_id="svg-prompts", item_key="traffic-light",
                       policy="expert")

    def no_browser():
        raise RuntimeError("chromium did not start")

    record = run_episode_spec(spec, context=EpisodeContext(browser=no_browser))
    assert record.outcome == "error" and record.total_reward is None
    assert "chromium did not start" in record.error

    # a reference page that never finishes rendering: not the completion's doing (a
    # reference that rendered when its dataset was checked times out under load), so an
    # infrastructure failure, which the stored path tries again
    require_chromium()
    pages = tmp_path / "pages.jsonl"
    pages.write_text(json.dumps({"id": "hangs", "html": "<p>x</p><script>for(;;){}</script>"}))
    hanging = EpisodeSpec(family="html", task_id="websight", item_key="hangs",
                          policy="blank", source=str(pages))
    with PoolRunner(browsers=1, pages_per_browser=2, timeout_s=2.0) as short:
        record = run_episode_spec(hanging, context=EpisodeContext(browser=lambda: short))
    assert record.outcome == "infra_error" and record.total_reward is None and record.completion
    assert record.error == "the reference page did not render: timeout", record.error
