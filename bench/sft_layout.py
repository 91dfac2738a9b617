"""SFT of the tiny model on the layout expert (DAgger optional): valid actions on held-out seeds.

    python bench/sft_layout.py [--out out/sft-layout] [--train-seeds 0-29]
                               [--dagger-rounds 0] [--dagger-seeds 20]
                               [--eval-seeds 1000000-1000029] [--step-limit 8]
                               [--layers 2] [--seed 0] [--checkpoints 3]
                               [--prompt-style state] [--recovery 0.3] [--json]

Builds the tiny model from scratch (``build_tiny_model``, random weights), writes
the expert's chat data on train seeds of the six generated families (worker
processes, one (task, seed) episode each; ``--recovery``: the share of steps
followed by a rejected mistake and the expert's answer to it), fine-tunes it with
``train_sft`` and ``SFTSettings``' defaults, saving ``--checkpoints`` models along
the way. With ``--dagger-rounds N`` it then
runs N DAgger rounds (``dagger_rounds``: the latest model plays the next
``--dagger-seeds`` unseen train seeds, the expert answers its rejected steps, and
it trains one more pass with those answers added), plays SFT's checkpoints, its
final model and every round's model on one more block of unseen train seeds, the
same for each (``validate``), and keeps the model rejected least there
(``best_model``; never the last one blindly: one seed in seven once fell to 78%
valid actions that way). Every stage (base, SFT, each round, and the kept
checkpoint) also plays every family × held-out test seed
greedily (``evaluate_layout``: the env says whether each step's action was valid),
for the report only. Prints each stage's valid-JSON rate, valid-action rate, mean
final score, mean return and validation rejected share, the chosen model's ratio
to base, and each phase's wall time. The chosen model's path is printed (a GRPO
run can start from it).
Target: valid-action rate from about 0% to at least 95%, the whole run within
15 minutes on 2 CPU cores.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from designrl.cli.args import _ints
from designrl.learner.sft_data import expert_examples, write_jsonl
from designrl.tasks.layout.env import GENERATED_TASK_IDS


def _episode_examples(case: tuple[str, int, str, float]) -> list[dict]:
    task_id, seed, style, recovery = case
    return list(expert_examples([task_id], [seed], style=style, recovery=recovery))


def write_expert_data(path: Path, seeds: list[int], workers: int, style: str,
                      recovery: float) -> int:
    cases = [(task_id, seed, style, recovery) for seed in seeds
             for task_id in GENERATED_TASK_IDS]
    with ProcessPoolExecutor(workers) as pool:
        return write_jsonl((ex for chunk in pool.map(_episode_examples, cases) for ex in chunk),
                           path)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("out/sft-layout"))
    parser.add_argument("--train-seeds", type=_ints, default=list(range(30)))
    parser.add_argument("--dagger-rounds", type=int, default=0,
                        help="DAgger rounds after SFT (default: none)")
    parser.add_argument("--dagger-seeds", type=int, default=20,
                        help="unseen train seeds per DAgger round (after --train-seeds)")
    parser.add_argument("--eval-seeds", type=_ints, default=list(range(1_000_000, 1_000_030)),
                        help="held-out test seeds per family (default: 30, 180 episodes)")
    parser.add_argument("--layers", type=int, default=2, help="the tiny model's depth")
    parser.add_argument("--hidden-size", type=int, default=128, help="the tiny model's width")
    parser.add_argument("--seed", type=int, default=0,
                        help="the tiny model's initial weights and the data order")
    parser.add_argument("--step-limit", type=int, default=8, help="steps per eval episode")
    parser.add_argument("--checkpoints", type=int, default=3,
                        help="models saved during SFT to choose from on the validation seeds")
    parser.add_argument("--workers", type=int, default=2, help="processes writing the data")
    parser.add_argument("--prompt-style", choices=("state", "compact"), default="state")
    parser.add_argument("--recovery", type=float, default=0.3,
                        help="share of steps followed by a rejected mistake (0: none)")
    parser.add_argument("--epochs", type=float, default=None, help="override SFTSettings")
    parser.add_argument("--learning-rate", type=float, default=None)
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    report, results, stages = run_workflow(args)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print_table(args, report, results, stages)
    return 0


def run_workflow(args: argparse.Namespace) -> tuple[dict, dict[str, dict], dict]:
    """Build, evaluate, fine-tune (and DAgger), validate and pick a model; writes and
    returns the report, with every stage's evaluation and the validation runs."""
    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.dagger import dagger_rounds, round_settings, seed_blocks
    from designrl.learner.evaluate import evaluate_layout
    from designrl.learner.sft import candidate_models, losses, train_sft
    from designrl.models.tiny import build_tiny_model

    settings = sft_settings(args)
    blocks = seed_blocks(args.train_seeds, args.dagger_rounds, args.dagger_seeds,
                         validate=args.checkpoints > 0)
    seconds: dict[str, float] = {}
    results: dict[str, dict] = {}

    def evaluate(stage: str, path: Path) -> None:
        mark = time.perf_counter()
        results[stage] = evaluate_layout(TransformersBackend(str(path)), GENERATED_TASK_IDS,
                                         args.eval_seeds, step_limit=args.step_limit,
                                         prompt_style=args.prompt_style)  # all, as trained
        seconds[f"eval {stage}"] = time.perf_counter() - mark

    # the trainer prints its log lines; with --json, stdout carries the report alone
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        started = time.perf_counter()
        base = build_tiny_model(args.out / "base", seed=args.seed, layers=args.layers,
                                hidden_size=args.hidden_size)
        seconds["build"] = time.perf_counter() - started
        evaluate("base", base)
        mark = time.perf_counter()
        examples = write_expert_data(args.out / "sft.jsonl", args.train_seeds, args.workers,
                                     args.prompt_style, args.recovery)
        seconds["data"] = time.perf_counter() - mark
        mark = time.perf_counter()
        model = train_sft(base, args.out / "sft.jsonl", args.out / "model", settings)
        seconds["train"] = time.perf_counter() - mark
        loss = losses(model)
        evaluate("sft", model)
        added: list[int] = []  # DAgger examples per round
        mark = time.perf_counter()
        candidates = {path.name: path for path in candidate_models(model)[:-1]}  # stage: model
        candidates["sft"] = model
        for number, run in enumerate(dagger_rounds(
                model, args.out / "sft.jsonl", args.out / "model", blocks[:-1],
                task_ids=GENERATED_TASK_IDS, style=args.prompt_style,
                settings=round_settings(args.seed), step_limit=args.step_limit), 1):
            seconds[f"dagger {number}"] = time.perf_counter() - mark
            added.append(len(run.examples))
            candidates[f"dagger {number}"] = run.model
            evaluate(f"dagger {number}", run.model)
            mark = time.perf_counter()
        stages, chosen = choose(args, candidates, blocks)
        if blocks:
            seconds["validate"] = time.perf_counter() - mark
        model = candidates[chosen]
        if chosen not in results:  # a checkpoint: played on the test seeds once kept
            evaluate(chosen, model)
        seconds["total"] = time.perf_counter() - started
    final = results[chosen]
    report = {"examples": examples, "train_seeds": len(args.train_seeds), "layers": args.layers,
              "hidden_size": args.hidden_size,
              "recovery": args.recovery, "prompt_style": args.prompt_style,
              "dagger_seed_blocks": [[b[0], b[-1]] for b in blocks[:-1]],
              "validation_seeds": [blocks[-1][0], blocks[-1][-1]] if blocks else None,
              "validation_rejected_rate": {stage: run.rejected_rate
                                           for stage, run in stages.items()},
              "dagger_examples": added,
              "chosen": chosen, "eval_episodes": final["episodes"], "eval_steps": final["steps"],
              "settings": settings.model_dump(), "loss_first": loss[0] if loss else None,
              "loss_last": loss[-1] if loss else None,
              "seconds": seconds, "model": str(model),
              **{name: {k: v for k, v in r.items() if k != "rows"}
                 for name, r in results.items()},
              "rows": {name: r["rows"] for name, r in results.items()}}
    (args.out / "results.json").write_text(json.dumps(report, indent=1))
    return report, results, stages


def sft_settings(args: argparse.Namespace):
    """``SFTSettings``' defaults with the options given on the command line."""
    from designrl.learner.sft import SFTSettings

    overrides = {"epochs": args.epochs, "learning_rate": args.learning_rate,
                 "batch_size": args.batch_size, "seed": args.seed,
                 "checkpoints": args.checkpoints}
    return SFTSettings(**{k: v for k, v in overrides.items() if v is not None})


def choose(args: argparse.Namespace, candidates: dict[str, Path],
           blocks: list[range]) -> tuple[dict, str]:
    """stage: Played, each candidate model on the same validation seeds (the last block;
    none without blocks), and the stage kept: rejected least, the later on a tie."""
    from designrl.learner.dagger import best_model, validate

    stages = {stage: validate(path, GENERATED_TASK_IDS, blocks[-1], style=args.prompt_style,
                              step_limit=args.step_limit)
              for stage, path in candidates.items()} if blocks else {}
    kept = best_model(list(stages.values())) if stages else None
    return stages, next((stage for stage, run in stages.items() if run is kept), "sft")


def print_table(args: argparse.Namespace, report: dict, results: dict[str, dict],
                stages: dict) -> None:
    """Each stage's figures side by side, the kept model's ratio to base, and wall times."""
    from rich.console import Console
    from rich.table import Table

    examples, chosen, seconds = report["examples"], report["chosen"], report["seconds"]
    final = results[chosen]
    console = Console(width=None if sys.stdout.isatty() else 160)
    more = ", +".join(str(n) for n in report["dagger_examples"])
    dagger = f", then DAgger (+{more} examples)" if more else ""
    table = Table(title=f"tiny model ({args.layers} layers × {args.hidden_size}): SFT on the "
                        f"expert ({examples} examples, {len(args.train_seeds)} seeds × 6 "
                        f"families){dagger}; eval {final['episodes']} held-out episodes × "
                        f"≤{args.step_limit} steps, greedy; ✓ the model kept")
    table.add_column("metric")
    for stage in results:
        table.add_column(stage + (" ✓" if stage == chosen else ""), justify="right")
    table.add_column("kept / base", justify="right")
    for key, label in (("valid_json_rate", "valid JSON"), ("valid_action_rate", "valid action"),
                       ("mean_final_score", "mean final score"),
                       ("mean_return", "mean return"),
                       ("mean_potential_gain", "mean Φ gain")):
        fmt = "{:.1%}" if key.endswith("rate") else "{:+.3f}" if "gain" in key or "return" in key \
            else "{:.3f}"
        b, s = results["base"][key], final[key]
        ratio = f"{s / b:.2f}×" if b else ("∞" if s else "-")
        table.add_row(label, *(fmt.format(r[key]) for r in results.values()), ratio)
    table.add_row("rejected, validation", "-", *(
        f"{stages[stage].rejected_rate:.1%}" if stage in stages else "-"
        for stage in list(results)[1:]), "")
    console.print(table)
    if report["loss_first"] is not None:
        console.print(f"train loss {report['loss_first']:.3f} -> {report['loss_last']:.3f}")
    console.print("wall time: " + ", ".join(f"{k} {v:.0f} s" for k, v in seconds.items()))
    console.print(f"kept model ({chosen}): {report['model']}")


if __name__ == "__main__":
    sys.exit(main())
