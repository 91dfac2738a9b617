"""The ``designrl`` command line. Heavy imports happen inside subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from designrl.cli_train import add_train_parser


def _csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _ints(text: str) -> list[int]:
    """``0,1,2`` or ``0-2`` or ``1000000-1000009``."""
    out: list[int] = []
    for part in _csv(text):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi) + 1) if hi else [int(lo)])
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="designrl", description="Rollouts, rewards and RL training for design tasks.")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser(
        "bench", help="benchmark policies on every task family (embedded defaults)",
        description="Run policies × tasks × items of the layout, html, svg and webpage "
                    "families; print a table per family, write results.json and report.html.")
    bench.add_argument("--families", type=_csv, default=None,
                       help="comma list of: layout, html, svg, webpage (default: all four)")
    bench.add_argument("--policies", type=_csv, default=None,
                       help="comma list of policies; each family runs those it accepts "
                            "(default: each family's model-free policies: layout random, rule, "
                            "expert; html reference, blank; svg expert; webpage template)")
    bench.add_argument("--profiles", type=_csv, default=None,
                       help="layout: comma list of designgym, default (default: both)")
    bench.add_argument("--tasks", type=_csv, default=None,
                       help="comma list of task ids (default: every task that needs no path)")
    bench.add_argument("--seeds", type=_ints, default=None,
                       help="seeds for DesignGym's tasks, e.g. 0-2 (default: 0-2)")
    bench.add_argument("--gen-seeds", type=_ints, default=None,
                       help="seeds for generated tasks (default: 1000000-1000002, test split)")
    bench.add_argument("--path", action="append", default=[], metavar="TASK=PATH",
                       help="a dataset task's file or folder, e.g. design2code=./pages "
                            "(repeatable); the task then runs")
    bench.add_argument("--items", type=int, default=None,
                       help="dataset tasks: the first N items (default: all)")
    bench.add_argument("--predictions", action="append", default=[], type=Path, metavar="FILE",
                       help="JSONL of {id, completion}: scored as the policy "
                            "predictions:<file stem> (repeatable)")
    bench.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    bench.add_argument("--out", type=Path, default=Path("out/bench"), help="output folder")
    bench.add_argument("--db", default=None,
                       help="database for the job and its episodes (default: a SQLite file "
                            "designrl.db in the output folder)")
    bench.add_argument("--no-report", action="store_true",
                       help="write results.json only, not the HTML report")
    bench.add_argument("--json", action="store_true",
                       help="print the summary as JSON on stdout instead of a table")

    db_help = "database URL (default: $DATABASE_URL, else sqlite:///designrl.db)"
    db = sub.add_parser("db", help="create or migrate the database",
                        description="Bring the database to the newest migration.")
    db.add_argument("action", choices=["upgrade"])
    db.add_argument("--db", default=None, help=db_help)
    key = sub.add_parser("api-key", help="create an API key (printed once)",
                         description="Create an API key; only its SHA-256 is stored.")
    key.add_argument("action", choices=["create"])
    key.add_argument("name", help="who the key is for (unique)")
    key.add_argument("--role", choices=["admin", "user", "reader"], default="user")
    key.add_argument("--db", default=None, help=db_help)
    key.add_argument("--json", action="store_true", help="print JSON")
    stack = sub.add_parser(
        "stack", help="run the API and renderer workers as local processes",
        description="Run the compose stack's API and workers as local processes against the "
                    "local Redis and Postgres (for machines without Docker); Ctrl-C stops.")
    stack.add_argument("action", choices=["up"])
    inference = sub.add_parser(
        "inference", help="run vLLM's server; load or unload LoRA adapters on it",
        description="serve: start vLLM's OpenAI-compatible server (LoRA on, runtime updating "
                    "on) and wait until it answers; Ctrl-C stops. load/unload: manage adapters "
                    "on a running server by version name (policy-vN).")
    inference.add_argument("action", choices=["serve", "load", "unload"])
    inference.add_argument("name", nargs="?", help="load/unload: the adapter's name")
    inference.add_argument("path", nargs="?", help="load: the adapter's directory")
    inference.add_argument("--model", help="serve: the base model (a directory or hub id)")
    inference.add_argument("--python", default=None,
                           help="serve: the interpreter of vLLM's environment "
                                "(default: .venv-vllm/bin/python if present, else python)")
    inference.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    inference.add_argument("--port", type=int, default=8000)
    inference.add_argument("--max-loras", type=int, default=4)
    inference.add_argument("--served-model-name", default=None)
    inference.add_argument("--url", default="http://127.0.0.1:8000",
                           help="load/unload: the server")
    model = sub.add_parser("model", help="build models locally (the tiny test model)",
                           description="Build the tiny test model: a 2-layer Qwen2 with a "
                                       "tokenizer trained here and a chat template.")
    model.add_argument("kind", choices=["tiny"])
    model.add_argument("out", type=Path, help="directory to write the model to")
    model.add_argument("--seed", type=int, default=0, help="weight initialisation seed")
    sft = sub.add_parser(
        "sft", help="fine-tune a model on the layout expert's answers; evaluate base vs SFT",
        description="Write the expert's chat data (unless --data), fine-tune with TRL's "
                    "SFTTrainer (assistant-only loss), optionally run DAgger rounds (the "
                    "expert answers the model's own rejected steps on unseen train seeds; the "
                    "model trains on those too) and keep the model rejected least on one more "
                    "block of unseen seeds, the same for every model, then "
                    "play held-out test seeds greedily with the base and the kept model and "
                    "print both. Round N's model is OUT/dagger-N.")
    sft.add_argument("--model", required=True, help="the base model's directory")
    sft.add_argument("--out", type=Path, required=True,
                     help="where the trained model goes (sft.jsonl too when written here)")
    sft.add_argument("--data", type=Path, default=None,
                     help="chat JSONL to train on (default: write the expert's)")
    sft.add_argument("--train-seeds", type=_ints, default=None,
                     help="train seeds for the expert data, e.g. 0-29 (default: 0-29)")
    sft.add_argument("--tasks", type=_csv, default=None,
                     help="generated task ids (default: all six families)")
    sft.add_argument("--prompt-style", choices=("state", "compact", "direct"), default="state",
                     help="the prompt the model learns to answer (state: compact without "
                          "the action grammar, which the model learns from the data)")
    sft.add_argument("--recovery", type=float, default=0.3,
                     help="share of expert steps followed by a rejected mistake and the "
                          "expert's answer to it, so the model learns to recover (0: none)")
    sft.add_argument("--dagger-rounds", type=int, default=0,
                     help="DAgger rounds after SFT (default: 0, none; see the README on why)")
    sft.add_argument("--dagger-seeds", type=int, default=20,
                     help="unseen train seeds per DAgger round, after the train seeds; one "
                          "more block validates every model (default: 20)")
    sft.add_argument("--epochs", type=float, default=None)
    sft.add_argument("--learning-rate", type=float, default=None)
    sft.add_argument("--batch-size", type=int, default=None)
    sft.add_argument("--lora-r", type=int, default=None, help="train a LoRA adapter of this rank")
    sft.add_argument("--eval-seeds", type=_ints, default=None,
                     help="held-out seeds per task (default: 1000000-1000001)")
    sft.add_argument("--step-limit", type=int, default=8, help="steps per eval episode")
    sft.add_argument("--json", action="store_true", help="print the results as JSON")
    stack.add_argument("--db", default=None, help=db_help)
    stack.add_argument("--redis", default=None,
                       help="Redis URL (default: $REDIS_URL, else redis://127.0.0.1:6379/0)")
    stack.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    stack.add_argument("--port", type=int, default=8000, help="API port (default: 8000)")
    stack.add_argument("--queue", default="episodes", help="the episode queue's name")
    stack.add_argument("--json", action="store_true", help="print the endpoints as JSON")
    add_train_parser(sub, _csv, _ints)
    return parser


def _llm_cells(row: dict, shown: bool) -> list[str]:
    """The language-model columns of a summary row (blank for heuristic policies)."""
    if not shown:
        return []
    if row.get("valid_json_rate") is None:
        return [""] * 6
    return [f"{row['valid_json_rate']:.0%}", f"{row['model_valid_action_rate']:.0%}",
            f"{row['steer_rate']:.0%}", f"{row['prompt_tokens']:.0f}",
            f"{row['completion_tokens']:.0f}", f"{row['llm_seconds']:.2f}"]


def _database_url(given: str | None) -> str:
    import os

    from designrl.store import EMBEDDED_URL

    return given or os.environ.get("DATABASE_URL") or EMBEDDED_URL


def cmd_db(args: argparse.Namespace) -> int:
    from designrl.store import upgrade

    url = _database_url(args.db)
    upgrade(url)
    print(f"database at the newest migration: {url.split('@')[-1]}")
    return 0


def cmd_api_key(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import IntegrityError

    from designrl.store import make_engine, make_sessionmaker, upgrade
    from designrl.store.keys import create_api_key

    url = _database_url(args.db)
    upgrade(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            key = create_api_key(session, args.name, args.role)
    except IntegrityError:
        print(f"error: a key named {args.name!r} exists already", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps({"name": args.name, "role": args.role, "key": key}))
    else:
        print(key)
    return 0


def _bench_plan(args: argparse.Namespace):
    """The plan the flags ask for; ``ValueError`` says which flag is wrong and why."""
    from designrl.bench import BenchPlan
    from designrl.policies.predictions import predictions_name

    plan = BenchPlan()
    for name in ("policies", "families", "profiles", "tasks"):
        if getattr(args, name) is not None:
            setattr(plan, name, getattr(args, name))
    if args.seeds is not None:
        plan.designgym_seeds = args.seeds
    if args.gen_seeds is not None:
        plan.generated_seeds = args.gen_seeds
    for given in args.path:
        task_id, sep, path = given.partition("=")
        if not sep or not path:
            raise ValueError(f"--path takes TASK=PATH, not {given!r}")
        plan.paths[task_id] = path
    plan.items_limit = args.items
    if args.predictions:  # the files' completions, and other policies only when asked
        plan.policies = [*(plan.policies or []), *map(predictions_name, args.predictions)]
    return plan


def cmd_bench(args: argparse.Namespace) -> int:
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import asdict
    from functools import partial

    from rich.console import Console
    from rich.progress import Progress

    from designrl.bench import (
        run_stored_case,
        store_job,
        summarize,
        summarize_single_turn,
        write_outputs,
    )
    from designrl.policies.predictions import load_predictions

    try:
        plan = _bench_plan(args)
        predictions = tuple((f.stem, str(f)) for f in args.predictions)
        for name, path in predictions:  # a bad file is a usage error, before anything runs
            plan.prediction_items[name] = set(load_predictions(path))
        cases = plan.cases()
    except (ValueError, OSError) as exc:
        print(f"designrl bench: {exc}", file=sys.stderr)
        return 2
    if not cases:
        print("designrl bench: the plan has no episodes (no task of the chosen families "
              "takes these policies)", file=sys.stderr)
        return 2
    # a pipe or CI log gets the full table rather than 80 squeezed columns
    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 220)
    # The job goes into the store first and every episode runs through the workers' call.
    args.out.mkdir(parents=True, exist_ok=True)
    database_url = args.db or f"sqlite:///{(args.out / 'designrl.db').resolve()}"
    spec = {**asdict(plan), "prediction_items": None,
            "predictions": [path for _, path in predictions]}
    episode_ids = store_job(database_url, cases, {"embedded": True, **spec})
    run = partial(run_stored_case, database_url, predictions=predictions)
    results = []
    with Progress(console=console, transient=False) as progress:
        bar = progress.add_task("episodes", total=len(cases))
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                for result in pool.map(run, episode_ids):
                    results.append(result)
                    progress.advance(bar)
        else:
            for episode_id in episode_ids:
                results.append(run(episode_id))
                progress.advance(bar)
    summary, single_turn = summarize(results), summarize_single_turn(results)
    paths = write_outputs(results, args.out, report=not args.no_report,
                          database_url=database_url)
    if args.json:
        print(json.dumps({"summary": summary, "single_turn": single_turn,
                          **{k: str(v) for k, v in paths.items()}}, indent=1))
        return 0
    if summary:
        console.print(_layout_table(summary))
    for table in _family_tables(single_turn):
        console.print(table)
    for kind, path in paths.items():
        console.print(f"{kind}: {path}")
    return 0


def _layout_table(summary: list[dict]):
    from rich.table import Table

    table = Table(title="layout (means per episode)")
    llm = any(row.get("valid_json_rate") is not None for row in summary)
    llm_cols = ("JSON ok", "valid act.", "steer", "tok in", "tok out", "model s") if llm else ()
    for col in ("profile", "task", "policy", "n", "start", "final", "instr.", "Φ gain",
                "reward", "steps", "invalid", "s/ep", "ended worse", *llm_cols):
        table.add_column(col, justify="left" if col in ("profile", "task", "policy") else "right")
    for row in summary:
        table.add_row(
            row["profile"], row["task_id"], row["policy"], str(row["episodes"]),
            f"{row['start_score']:.3f}", f"{row['final_score']:.3f}",
            f"{row['instruction_score']:.3f}",
            "" if row["potential_gain"] is None else f"{row['potential_gain']:+.3f}",
            f"{row['total_reward']:.3f}",
            f"{row['steps']:.1f}", f"{row['invalid_actions']:.1f}", f"{row['seconds']:.3f}",
            str(row["worse_than_start"]), *_llm_cells(row, llm),
        )
    return table


def _family_tables(rows: list[dict]) -> list:
    """A table per render family: reward and each component, means over scored episodes."""
    from rich.table import Table

    tables = []
    for family in dict.fromkeys(r["family"] for r in rows):
        mine = [r for r in rows if r["family"] == family]
        names = list(dict.fromkeys(c for r in mine for c in r["components"]))
        table = Table(title=f"{family} (means per scored episode)")
        for col in ("task", "policy", "n", "ok", "reward", *names, "s/ep"):
            table.add_column(col, justify="left" if col in ("task", "policy") else "right")
        for r in mine:
            cells = ["" if r["components"].get(n) is None else f"{r['components'][n]:.3f}"
                     for n in names]
            table.add_row(r["task_id"], r["policy"] + (" (oracle)" if r["oracle"] else ""),
                          str(r["episodes"]), str(r["ok"]),
                          "" if r["total_reward"] is None else f"{r['total_reward']:.3f}",
                          *cells, f"{r['seconds']:.2f}")
        tables.append(table)
    return tables


def cmd_inference(args: argparse.Namespace) -> int:
    from designrl.inference.vllm_server import (
        AdapterError,
        AdapterRegistry,
        VLLMConfig,
        VLLMServer,
    )

    if args.action in ("load", "unload"):
        if not args.name or (args.action == "load" and not args.path):
            print(f"error: {args.action} needs NAME" + (" and PATH" if args.action == "load"
                                                        else ""), file=sys.stderr)
            return 2
        registry = AdapterRegistry(args.url)
        try:
            if args.action == "load":
                registry.load(args.name, args.path)
            else:
                registry.unload(args.name)
        except (AdapterError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(json.dumps({"served": registry.served()}))
        return 0
    if not args.model:
        print("error: serve needs --model", file=sys.stderr)
        return 2
    local = Path(".venv-vllm/bin/python")
    python = args.python or (str(local) if local.exists() else "python")
    config = VLLMConfig(model=args.model, python=python, port=args.port, host="0.0.0.0",
                        device=args.device, dtype="float32" if args.device == "cpu" else "auto",
                        max_loras=args.max_loras, served_model_name=args.served_model_name)
    server = VLLMServer(config)
    try:
        server.start()
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"vLLM serving {args.model} on port {args.port} (LoRA runtime loading on); "
          "Ctrl-C stops", flush=True)
    return _wait_until_stopped(lambda: server.process.poll() is None, server.stop)


def _wait_until_stopped(alive, stop) -> int:
    """Block until SIGTERM or Ctrl-C (then ``stop()``: 0) or until ``alive()`` fails (1)."""
    import signal
    import time

    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        while not stopping:
            if not alive():
                print("error: the service exited", file=sys.stderr)
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    try:
        from designrl.models.tiny import build_tiny_model
        path = build_tiny_model(args.out, seed=args.seed)
    except ImportError as exc:
        print(f"error: {exc} (install the train extra: pip install 'designrl[train]')",
              file=sys.stderr)
        return 1
    print(f"tiny model written to {path}")
    return 0


def cmd_sft(args: argparse.Namespace) -> int:
    import contextlib
    import time

    from rich.console import Console
    from rich.table import Table

    from designrl.inference.transformers_backend import TransformersBackend
    from designrl.learner.dagger import (
        best_model,
        dagger_rounds,
        round_settings,
        seed_blocks,
        validate,
    )
    from designrl.learner.evaluate import evaluate_layout
    from designrl.learner.sft import SFTSettings, losses, train_sft
    from designrl.learner.sft_data import expert_examples, write_jsonl
    from designrl.tasks.family import TEST_SEED_START
    from designrl.tasks.layout.env import GENERATED_TASK_IDS
    from designrl.tasks.layout.prompt import prompt_style_of

    tasks = args.tasks or list(GENERATED_TASK_IDS)
    eval_seeds = args.eval_seeds or [TEST_SEED_START, TEST_SEED_START + 1]
    given = {"epochs": args.epochs, "learning_rate": args.learning_rate,
             "batch_size": args.batch_size, "lora_r": args.lora_r}
    try:
        settings = SFTSettings(**{k: v for k, v in given.items() if v is not None})
        unknown = [t for t in tasks if t not in GENERATED_TASK_IDS]
        if unknown:
            raise ValueError(f"unknown task {unknown[0]!r}; known: {', '.join(GENERATED_TASK_IDS)}")
        if any(seed < TEST_SEED_START for seed in eval_seeds):
            raise ValueError(f"--eval-seeds must be test seeds (>= {TEST_SEED_START})")
        if args.dagger_rounds < 0 or args.dagger_seeds < 1:
            raise ValueError("--dagger-rounds must be >= 0 and --dagger-seeds >= 1")
        train_seeds = args.train_seeds or range(30)
        blocks = seed_blocks(train_seeds, args.dagger_rounds, args.dagger_seeds)
        console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 220)
        started = time.perf_counter()
        data = args.data
        if data is None:
            data = args.out / "sft.jsonl"
            count = write_jsonl(expert_examples(tasks, train_seeds,
                                                style=args.prompt_style,
                                                recovery=args.recovery), data)
            console.print(f"expert data: {count} examples in {data}")
    except ValueError as exc:  # pydantic's ValidationError is one
        print(f"designrl sft: {exc}", file=sys.stderr)
        return 2
    # the trainer prints its log lines; with --json, stdout carries the report alone
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        sft_model = train_sft(args.model, data, args.out, settings)
        loss = losses(sft_model)
        style = prompt_style_of(sft_model)
        rounds = list(dagger_rounds(sft_model, data, args.out, blocks[:-1], task_ids=tasks,
                                    style=style, settings=round_settings(settings.seed),
                                    step_limit=args.step_limit))
        played = [validate(model, tasks, blocks[-1], style=style, step_limit=args.step_limit)
                  for model in [sft_model, *(r.model for r in rounds)]] if blocks else []
        for run in played:
            console.print(f"{run.model}: {run.rejected_rate:.1%} of {run.steps} steps rejected "
                          f"on the validation seeds")
        out = best_model(played).model if played else sft_model
        results = {}
        for name, path in (("base", args.model), ("sft", out)):
            results[name] = evaluate_layout(TransformersBackend(str(path)), tasks, eval_seeds,
                                            step_limit=args.step_limit,
                                            prompt_style=style)  # both, as trained
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"model": str(out), "settings": settings.model_dump(),
                          "first_loss": loss[0] if loss else None,
                          "last_loss": loss[-1] if loss else None,
                          "dagger_examples": {str(r.model): len(r.examples)
                                              for r in rounds},
                          "validation_seeds": list(blocks[-1]) if blocks else [],
                          "validation_rejected_rate": {str(p.model): p.rejected_rate
                                                       for p in played},
                          "seconds": seconds,
                          **results}, indent=1))
        return 0
    added = f" + {len(rounds)} DAgger rounds" if rounds else ""
    table = Table(title=f"held-out layout episodes, base vs SFT{added} "
                        f"({results['sft']['episodes']} episodes, greedy)")
    for col in ("model", "JSON ok", "valid act.", "final score", "return", "Φ gain"):
        table.add_column(col, justify="left" if col == "model" else "right")
    for name, row in results.items():
        table.add_row(name, f"{row['valid_json_rate']:.0%}", f"{row['valid_action_rate']:.0%}",
                      f"{row['mean_final_score']:.3f}", f"{row['mean_return']:+.3f}",
                      f"{row['mean_potential_gain']:+.3f}")
    console.print(table)
    if loss:
        console.print(f"train loss {loss[0]:.3f} -> {loss[-1]:.3f}")
    console.print(f"model: {out} ({seconds:.0f} s in all)")
    return 0


def cmd_stack(args: argparse.Namespace) -> int:
    import os

    from designrl.stack import LocalStack, StackConfig

    config = StackConfig(database_url=_database_url(args.db),
                         redis_url=args.redis or os.environ.get("REDIS_URL")
                         or "redis://127.0.0.1:6379/0",
                         workers=args.workers, api_port=args.port, queue=args.queue)
    stack = LocalStack(config)
    try:
        stack.start()
    except RuntimeError as exc:
        stack.stop()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    endpoints = {"api": stack.api_url, "docs": f"{stack.api_url}/docs",
                 "metrics": [f"{stack.api_url}/metrics", *stack.worker_metrics.values()]}
    if args.json:
        print(json.dumps(endpoints), flush=True)
    else:
        print(f"api {endpoints['api']} (docs {endpoints['docs']}); "
              f"{args.workers} workers; metrics: {', '.join(endpoints['metrics'])}; "
              "Ctrl-C stops", flush=True)
    return _wait_until_stopped(
        lambda: all(p.poll() is None for p in stack.processes.values()), stack.stop)


def main(argv: list[str] | None = None) -> int:
    from designrl.cli_train import cmd_train

    args = build_parser().parse_args(argv)
    handlers = {"bench": cmd_bench, "db": cmd_db, "api-key": cmd_api_key, "stack": cmd_stack,
                "model": cmd_model, "inference": cmd_inference, "sft": cmd_sft,
                "train": cmd_train}
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
