"""TRL's own ``GRPOTrainer`` trains with a family's per-component reward functions and
``reward_weights``: every component is logged under its name, the total carries the
weight, and each completion is rendered once (in the browser pool the functions start
for themselves) however many of the functions TRL calls.

The policy is the tiny model fine-tuned on three gen-svg items (``svg_sft_model``): its
samples are expert drawings, random ones or broken SVG, so the rewards are not all zero
and the weighted sum TRL trains on is a real check, not 0 = 0."""

from __future__ import annotations

import math

import pytest
from svg_sft_support import SVG_SEEDS

pytest.importorskip("trl")

pytestmark = [pytest.mark.integration, pytest.mark.slow]

STEPS = 2
GENERATIONS = 4
# the expert's answers to SVG_SEEDS are about 210 tokens; room for a whole drawing
COMPLETION_TOKENS = 320


def test_grpo_trainer_logs_every_component_and_trains_on_the_weighted_total(svg_sft_model,
                                                                             tmp_path):
    import torch
    from browser_support import require_chromium
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from designrl.rollout.browser import close_process_runner
    from designrl.tasks import FAMILIES, load_rows, reward_functions

    require_chromium()
    funcs = reward_functions("svg")  # no runner: the process's pool, started on first call
    names = [f.__name__ for f in funcs]
    assert names == ["svg_reward", *(f"svg_{c}" for c in FAMILIES["svg"].components)]
    # train mostly on the total, a little on validity and format; log the rest
    weights = [{"svg_reward": 0.8, "svg_validity": 0.1, "svg_format": 0.1}.get(n, 0.0)
               for n in names]
    dataset = Dataset.from_list(load_rows("gen-svg", seeds=list(SVG_SEEDS[:2])))
    args = GRPOConfig(
        output_dir=str(tmp_path), max_steps=STEPS, learning_rate=1e-4, reward_weights=weights,
        per_device_train_batch_size=GENERATIONS, num_generations=GENERATIONS,
        max_completion_length=COMPLETION_TOKENS, logging_steps=1, report_to="none", use_cpu=True,
        bf16=False, use_vllm=False, disable_tqdm=True, save_strategy="no", seed=0)
    model = AutoModelForCausalLM.from_pretrained(svg_sft_model)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    trainer = GRPOTrainer(model=model, reward_funcs=funcs, args=args, train_dataset=dataset,
                          processing_class=AutoTokenizer.from_pretrained(svg_sft_model))
    try:
        trainer.train()
    finally:
        close_process_runner()

    assert trainer.state.global_step == STEPS
    logs = [entry for entry in trainer.state.log_history if "loss" in entry]
    assert len(logs) == STEPS
    for entry in logs:
        for name in names:
            assert f"rewards/{name}/mean" in entry, sorted(entry)
        # the reward TRL trains on is the weighted sum of the functions' rewards
        weighted = sum(w * entry[f"rewards/{n}/mean"] for n, w in zip(names, weights, strict=True)
                       if w)
        assert entry["reward"] == pytest.approx(weighted, abs=1e-5)
        assert math.isfinite(entry["loss"])
    # the samples drew something: the weighted components are not all zero, and the
    # weights change the total (it is not the plain sum of what is logged; the judge,
    # unconfigured, logs None)
    assert any(entry["rewards/svg_validity/mean"] > 0 for entry in logs)
    assert any(entry["reward"] > 0 for entry in logs)
    assert entry["rewards/svg_judge/mean"] is None
    assert any(abs(entry["reward"] - sum(entry[f"rewards/{n}/mean"] or 0.0 for n in names))
               > 0.05 for entry in logs)
    # groups with reward spread give advantages, so the policy moved
    assert any(entry["reward_std"] > 0 for entry in logs)
    assert any(not torch.equal(before[n], p.detach()) for n, p in model.named_parameters())
    # seven functions, each completion scored once (repeated completions once in all)
    assert 0 < funcs[0].scoring.scored <= STEPS * GENERATIONS
