"""GRPO after SFT against SFT alone, on held-out gen-svg seeds, over several training seeds.

Starts every run from the same SFT model (``bench/sft_svg.py --out DIR`` writes one:
DIR/seed-0/sft, or the checkpoint it kept), trains embedded GRPO on gen-svg groups
(``designrl.learner.embedded``: drawings sampled in-process, each scored in a browser
pool, rollouts overlapping updates) once per training seed, and evaluates the SFT model
and every GRPO model greedily on the same test seeds (``evaluate_single_turn``). Prints
the mean reward and valid-SVG rate of each, GRPO's mean ± std across training seeds, and
whether the reward gained over SFT exceeds that spread; also each run's learner idle
fraction, staleness and dropped groups.

    .venv/bin/python bench/sft_svg.py --seeds 0 --out out/bench/sft-svg
    .venv/bin/python bench/grpo_svg.py --sft out/bench/sft-svg/seed-0/sft --out out/bench/grpo-svg
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from grpo_layout import run_seeds  # bench/ is the script's folder, so on sys.path
from rich.console import Console

from designrl.learner.embedded import RolloutSettings
from designrl.learner.evaluate_single_turn import evaluate_single_turn
from designrl.tasks.family import TEST_SEED_START

MEASURES = ("mean_reward", "valid_rate")
TASK = "gen-svg"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sft", required=True, help="the SFT model directory to start from")
    parser.add_argument("--out", type=Path, default=Path("out/bench/grpo-svg"))
    parser.add_argument("--seeds", default="0,1,2", help="training seeds (default 0,1,2)")
    parser.add_argument("--train-items", type=int, default=400,
                        help="gen-svg train seeds groups are drawn from (0..N-1)")
    parser.add_argument("--eval-seeds", type=int, default=20,
                        help="held-out seeds (from 1,000,000; default 20)")
    parser.add_argument("--steps", type=int, default=20, help="updates per run")
    parser.add_argument("--group-size", type=int, default=6)
    parser.add_argument("--groups-per-step", type=int, default=2)
    parser.add_argument("--temperature", type=float, default=1.0, help="sampling temperature")
    parser.add_argument("--learning-rate", type=float, default=2e-4)
    parser.add_argument("--beta", type=float, default=0.1)
    parser.add_argument("--max-staleness", type=int, default=1)
    parser.add_argument("--max-tokens", type=int, default=1024, help="tokens per drawing")
    return parser.parse_args(argv)


def evaluate(model_dir: str, args: argparse.Namespace) -> dict:
    seeds = list(range(TEST_SEED_START, TEST_SEED_START + args.eval_seeds))
    report = evaluate_single_turn(model_dir, TASK, seeds, max_tokens=args.max_tokens)
    return {k: v for k, v in report.as_dict().items() if k != "rows"}


def main(argv=None) -> int:
    args = parse_args(argv)
    console = Console(width=160)
    started = time.monotonic()
    sft = evaluate(args.sft, args)
    console.print(f"SFT on held-out seeds: reward {sft['mean_reward']:.4f}, valid SVG "
                  f"{sft['valid_rate']:.3f} ({sft['episodes']} episodes)")
    return run_seeds(args, console, sft, started, evaluate, MEASURES,
                     "GRPO on gen-svg after SFT",
                     lambda seed: RolloutSettings(
                         task_ids=[TASK], train_seeds=list(range(args.train_items)),
                         group_size=args.group_size, completion_tokens=args.max_tokens,
                         seed=seed))


if __name__ == "__main__":
    sys.exit(main())
