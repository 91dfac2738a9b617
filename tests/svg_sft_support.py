"""The tiny model fine-tuned on svg answers, for tests that need completions with real
reward spread (vLLM rollouts, TRL's GRPOTrainer on per-component rewards)."""

from __future__ import annotations

from pathlib import Path

# gen-svg train items whose expert answers are the shortest (about 210 tokens each)
SVG_SEEDS = (85, 175, 179)


def train_svg_sft_model(tiny_model: str, data_dir: Path, out_dir: Path) -> str:
    """The tiny model after SFT on the ``SVG_SEEDS`` items, each answered twice: by the svg
    expert and by the random policy. Trained to convergence it knows both answers by heart
    and picks between them as it samples, so at temperature 1 a completion is the expert's
    drawing (reward about 1), a random one (0.2-0.4) or, where it crosses from one to the
    other, an invalid SVG (0): groups with real reward spread.

    It is a full fine-tune, served by a vLLM of its own: a LoRA adapter on the raw tiny
    model cannot get there. Its output layer is its tied embedding (random rows of norm
    about 0.23, frozen) after a norm of fixed scale (a hidden state of norm 11.3), which
    caps every logit near 3: whatever the adapter does, no token of the 2,048 gets much
    above 1% probability, and the samples stay garbage."""
    from designrl.learner.sft import SFTSettings, train_sft
    from designrl.learner.sft_data import teacher_examples, write_jsonl

    data = data_dir / "sft.jsonl"
    write_jsonl([*teacher_examples("gen-svg", "expert", SVG_SEEDS),
                 *teacher_examples("gen-svg", "random", SVG_SEEDS)], data)
    # 200 full-batch steps: the loss is at its floor (two answers a prompt) from about 100
    settings = SFTSettings(epochs=200, batch_size=6, learning_rate=5e-3, logging_steps=50)
    return str(train_sft(tiny_model, data, out_dir, settings))
