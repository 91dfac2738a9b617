"""SFT steps of the tiny model with one torch thread against two, in the same run.

    python bench/torch_threads.py [--epochs 20] [--rounds 2] [--threads 1,2] [--json]

Trains the tiny model (``build_tiny_model``, seed 0) with ``train_sft`` on six gen-svg
answers (the expert's and the random policy's to three items, about 520 tokens each,
one full batch a step) for ``--epochs`` steps, once per thread count per round, each in a
subprocess started with ``OMP_NUM_THREADS`` set (torch reads it when it starts), the
thread counts alternating so that a change in the machine's load falls on both. Prints
each run's training seconds and final loss, and the ratio of the median seconds of each
thread count against the first (the baseline). The losses must agree: the thread count
changes the speed, not what is learnt.

Why: the tests and the CPU benches set ``OMP_NUM_THREADS=1`` for the tiny model, whose
matrices (hidden size 128) are too small to share between threads.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SVG_SEEDS = (85, 175, 179)  # gen-svg train items with short expert answers


def train_once(epochs: int) -> dict:
    """One SFT run in this process: its training seconds and final loss."""
    from designrl.learner.sft import SFTSettings, train_sft
    from designrl.learner.sft_data import teacher_examples, write_jsonl
    from designrl.models.tiny import build_tiny_model

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        model = build_tiny_model(root / "tiny", seed=0)
        data = root / "sft.jsonl"
        write_jsonl([*teacher_examples("gen-svg", "expert", SVG_SEEDS),
                     *teacher_examples("gen-svg", "random", SVG_SEEDS)], data)
        started = time.perf_counter()
        out = train_sft(model, data, root / "sft",
                        SFTSettings(epochs=epochs, batch_size=6, learning_rate=5e-3,
                                    logging_steps=epochs))
        seconds = time.perf_counter() - started
        log = json.loads((out / "sft_log.json").read_text())["log_history"]
    losses = [row["loss"] for row in log if "loss" in row]
    return {"seconds": round(seconds, 2), "loss": float(losses[-1]) if losses else None}


def run_child(threads: int, epochs: int) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    done = subprocess.run([sys.executable, __file__, "--child", "--epochs", str(epochs)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20, help="SFT steps a run (one batch)")
    parser.add_argument("--rounds", type=int, default=2, help="runs per thread count")
    parser.add_argument("--threads", default="1,2", help="thread counts; the first is the "
                                                         "baseline")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(train_once(args.epochs)))
        return 0
    counts = [int(n) for n in args.threads.split(",")]
    runs: dict[int, list[dict]] = {n: [] for n in counts}
    for _ in range(args.rounds):
        for n in counts:
            runs[n].append(run_child(n, args.epochs))
            if not args.json:
                print(f"{n} thread(s): {runs[n][-1]}", file=sys.stderr)
    median = {n: statistics.median(r["seconds"] for r in runs[n]) for n in counts}
    base = counts[0]
    result = {"epochs": args.epochs, "load_average": os.getloadavg()[0], "runs": runs,
              "median_seconds": median,
              "speed_vs_baseline": {n: round(median[base] / median[n], 2) for n in counts},
              "losses_agree": len({round(r["loss"], 3) for rs in runs.values() for r in rs}) == 1}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for n in counts:
            print(f"{n} thread(s): median {median[n]:.1f} s for {args.epochs} steps, "
                  f"{result['speed_vs_baseline'][n]:.2f}x the speed of {base} thread(s)")
        print(f"losses agree: {result['losses_agree']}; load average "
              f"{result['load_average']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
