"""The GRPO learner on real scored groups: TRL's trainer fed from a queue, stale groups
dropped and never trained on, and behaviour log-probabilities the loss agrees with."""

from __future__ import annotations

import pytest
from group_support import TurnScorer, layout_group

pytest.importorskip("trl")

from designrl.learner.batch import TurnSample, collate, group_advantages  # noqa: E402
from designrl.learner.checkpoint import latest_checkpoint, read_state  # noqa: E402
from designrl.learner.grpo import GRPOSettings, Learner  # noqa: E402
from designrl.learner.runs import read_run  # noqa: E402
from designrl.learner.sources import LocalGroupSource  # noqa: E402
from designrl.rollout.groups import ScoredGroup  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def groups(tiny_model) -> list[ScoredGroup]:
    scorer = TurnScorer(tiny_model)
    return [layout_group(scorer, "gen-poster", seed, step_limit=3) for seed in (1, 2, 3)]


def renamed(group: ScoredGroup, group_id: str, policy_version: int) -> ScoredGroup:
    return group.model_copy(update={"group_id": group_id, "policy_version": policy_version})


def test_group_advantages():
    assert group_advantages([1.0, 1.0, 1.0]) is None  # no signal
    assert group_advantages([0.5, None]) is None  # one scored sample: no baseline
    advantages = group_advantages([0.0, 1.0, None])
    assert advantages[2] == 0.0 and advantages[0] < 0 < advantages[1]
    assert group_advantages([0.0, 2.0], scale="none") == [-1.0, 1.0]


def test_collate_pads_prompts_left_and_completions_right():
    batch = collate([TurnSample("g", [5, 6, 7], [8], [-0.5], 1.0),
                     TurnSample("g", [9], [10, 11], [-0.1, -0.2], -1.0)], pad_id=0)
    assert batch["prompt_ids"].tolist() == [[5, 6, 7], [0, 0, 9]]
    assert batch["prompt_mask"].tolist() == [[1, 1, 1], [0, 0, 1]]
    assert batch["completion_ids"].tolist() == [[8, 0], [10, 11]]
    assert batch["completion_mask"].tolist() == [[1, 0], [1, 1]]
    assert batch["num_items_in_batch"].item() == 3
    assert batch["old_per_token_logps"].flatten().tolist() == pytest.approx([-0.5, 0.0, -0.1, -0.2])


def test_stale_group_is_dropped_and_never_trained_on(tiny_model, groups, tmp_path):
    source = LocalGroupSource()
    fresh, stale, next_ = (renamed(groups[0], "fresh", 0), renamed(groups[1], "stale", 0),
                           renamed(groups[2], "next", 1))
    for group in (fresh, stale, next_):
        source.put(group)
    published = []
    learner = Learner(tiny_model, tmp_path, source,
                      GRPOSettings(max_steps=2, groups_per_step=1, max_staleness=0),
                      publish=lambda version, model, tokenizer: published.append(version))
    stats = learner.train()

    # version 0 trains on "fresh"; at version 1, "stale" (sampled by version 0) is one
    # version behind, over max_staleness 0: dropped; "next" (version 1) is trained on
    assert learner.feed.dropped_log == [("stale", "stale")]
    assert learner.lineage == [[1, ["fresh"]], [2, ["next"]]]
    assert stats["dropped"] == {"stale": 1} and stats["staleness"] == {"0": 2}
    assert published == [0, 1, 2]
    state = read_state(latest_checkpoint(tmp_path))
    assert state["version"] == 2 and "stale" not in state["trained_group_ids"]
    assert source.outstanding == 0  # every group acknowledged: trained and saved, or dropped
    run = read_run(tmp_path.parent, tmp_path.name)  # what the Training page reads
    assert [c["version"] for c in run["curves"]] == [1, 2]
    assert {s["version"] for s in run["samples"]} == {1, 2}
    assert {s["group_id"] for s in run["samples"]} == {"fresh", "next"}


def test_groups_without_signal_are_dropped(tiny_model, groups, tmp_path):
    flat = groups[0].model_copy(update={"group_id": "flat", "samples": [
        s.model_copy(update={"reward": 0.25}) for s in groups[0].samples]})
    source = LocalGroupSource()
    source.put(flat)
    source.put(renamed(groups[1], "useful", 0))
    learner = Learner(tiny_model, tmp_path, source, GRPOSettings(max_steps=1, groups_per_step=1))
    learner.train()
    assert learner.feed.dropped_log == [("flat", "no_signal")]
    assert learner.lineage == [[1, ["useful"]]]


def test_behaviour_logprobs_from_the_sampler_match_the_trainers(tiny_model, tmp_path):
    """The in-process sampler's log-probabilities are the ones TRL's loss recomputes, so
    the PPO ratio of a fresh sample is 1 (no hidden top-k or temperature mismatch)."""
    import torch

    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.tasks.layout.env import LayoutEnv
    from designrl.tasks.layout.prompt import layout_messages

    messages = layout_messages(LayoutEnv().reset("gen-slide", seed=5))
    completions = TransformersBackend(tiny_model).complete([messages], n=3, temperature=1.0,
                                                           max_tokens=16, seed=1)[0]
    learner = Learner(tiny_model, tmp_path, LocalGroupSource(), GRPOSettings(max_steps=1))
    prompt = learner._prompt_ids(messages)
    batch = collate([TurnSample("g", prompt, c.token_ids, c.logprobs, 1.0) for c in completions],
                    learner.tokenizer.pad_token_id)
    trainer = learner.trainer
    ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], 1)
    mask = torch.cat([batch["prompt_mask"], batch["completion_mask"]], 1)
    with torch.no_grad():
        logps = trainer._get_per_token_logps_and_entropies(
            trainer.model, ids, mask, batch["completion_ids"].size(1))[0]
    difference = (logps - batch["old_per_token_logps"]).abs() * batch["completion_mask"]
    assert difference.max().item() < 1e-4


def test_a_resumed_learner_publishes_its_checkpoints_weights(tiny_model, groups, tmp_path):
    import torch
    from safetensors.torch import load_file

    source = LocalGroupSource()
    source.put(renamed(groups[0], "first", 0))
    Learner(tiny_model, tmp_path, source,
            GRPOSettings(max_steps=1, groups_per_step=1, learning_rate=1e-2)).train()
    published = {}

    def capture(version, model, tokenizer):
        published.setdefault(version, {k: v.detach().clone()
                                       for k, v in model.state_dict().items()})

    source.put(renamed(groups[1], "second", 1))
    resumed = Learner(tiny_model, tmp_path, source,
                      GRPOSettings(max_steps=2, groups_per_step=1, learning_rate=1e-2),
                      publish=capture)
    assert resumed.resume_from.name == "checkpoint-1"
    resumed.train()
    assert sorted(published) == [1, 2] and resumed.lineage == [[1, ["first"]], [2, ["second"]]]
    saved = load_file(tmp_path / "checkpoint-1" / "model.safetensors")
    initial = load_file(f"{tiny_model}/model.safetensors")
    assert all(torch.equal(published[1][name], tensor) for name, tensor in saved.items())
    assert any(not torch.equal(initial[name], tensor) for name, tensor in saved.items())
