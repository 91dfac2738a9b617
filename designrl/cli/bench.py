"""``designrl bench``: policies × tasks × items of every family, a table per family.

``--judge URL`` scores with a judge model (any OpenAI-compatible endpoint); its key is read
from ``$DESIGNRL_JUDGE_API_KEY`` (``main`` hands the environment over), never from a flag,
so it stays out of shell histories, and it is never written down."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from designrl.cli.args import UsageError, _csv, _ints

JUDGE_KEY_VARIABLE = "DESIGNRL_JUDGE_API_KEY"


def add_parser(sub) -> None:
    bench = sub.add_parser(
        "bench", help="benchmark policies on every task family (embedded defaults)",
        description="Run policies × tasks × items of the layout, html, svg and webpage "
                    "families; print a table per family, write results.json and report.html.")
    bench.add_argument("--families", type=_csv, default=None,
                       help="comma list of: layout, html, svg, webpage (default: all four)")
    bench.add_argument("--policies", type=_csv, default=None,
                       help="comma list of policies; each family runs those it accepts "
                            "(default: each family's model-free policies: layout random, rule, "
                            "expert; html reference, blank; svg expert, random; webpage template, "
                            "plain)")
    bench.add_argument("--profiles", type=_csv, default=None,
                       help="layout: comma list of designgym, default (default: both)")
    bench.add_argument("--tasks", type=_csv, default=None,
                       help="comma list of task ids (default: every task that needs no path)")
    bench.add_argument("--seeds", type=_ints, default=None,
                       help="seeds of DesignGym's three tasks (poster_basic_v1, "
                            "editorial_cover_v1, dense_flyer_v1), e.g. 0-2 (default: 0-2); "
                            "generated tasks (gen-*) take --gen-seeds, and --seeds with no "
                            "DesignGym task selected is an error")
    bench.add_argument("--gen-seeds", type=_ints, default=None,
                       help="seeds of generated tasks (gen-*), e.g. 1000000-1000002 (default; "
                            "the test split starts at 1000000); an error with no generated "
                            "task selected")
    bench.add_argument("--path", action="append", default=[], metavar="TASK=PATH",
                       help="a dataset task's file or folder, e.g. design2code=./pages "
                            "(repeatable); the task then runs")
    bench.add_argument("--items", type=int, default=None,
                       help="dataset tasks: the first N items (default: all)")
    bench.add_argument("--predictions", action="append", default=[], type=Path, metavar="FILE",
                       help="JSONL of {id, completion}: scored as the policy "
                            "predictions:<file stem> (repeatable)")
    bench.add_argument("--judge", default=None, metavar="URL",
                       help="a judge model's OpenAI-compatible endpoint, e.g. "
                            "http://localhost:8001/v1: svg tasks are scored SVGBench's way by "
                            "the judge (fulfilled / N), its verdicts beside the computed ones; "
                            "webpage tasks get OpenDesign's rubric. The key, if the endpoint "
                            f"needs one, is read from ${JUDGE_KEY_VARIABLE}. Default: no judge "
                            "(svg's SVGBench score is the computed one)")
    bench.add_argument("--judge-model", default=None, metavar="NAME",
                       help="the model the judge's endpoint serves (needed with --judge)")
    bench.add_argument("--judge-multimodal", action="store_true",
                       help="show the judge the render as well as the code (the model must "
                            "take images)")
    bench.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    bench.add_argument("--out", type=Path, default=Path("out/bench"), help="output folder")
    bench.add_argument("--db", default=None,
                       help="database for the job and its episodes (default: a SQLite file "
                            "designrl.db in the output folder)")
    bench.add_argument("--no-report", action="store_true",
                       help="write results.json only, not the HTML report")
    bench.add_argument("--json", action="store_true",
                       help="print the summary as JSON on stdout instead of a table")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from designrl.bench import run_bench

    try:  # every mistake in the flags shows here, before a browser or model starts
        plan = _plan(args)
        cases = plan.cases()
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    _check_seeds(args, cases)
    # a pipe or CI log gets the full table rather than 80 squeezed columns
    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 220)
    with Progress(console=console, transient=False) as progress:
        bar = progress.add_task("episodes", total=len(cases))
        # the job goes into the store first and every episode runs through the workers' call
        outcome = run_bench(plan, cases, args.out, predictions=_predictions(args),
                            database_url=args.db, workers=args.workers,
                            report=not args.no_report, on_episode=lambda: progress.advance(bar))
    if args.json:
        print(json.dumps({"summary": outcome.summary, "single_turn": outcome.single_turn,
                          **{k: str(v) for k, v in outcome.paths.items()}}, indent=1))
        return 0
    if outcome.summary:
        console.print(_layout_table(outcome.summary))
    for table in [*_family_tables(outcome.single_turn), *_figure_tables(outcome.single_turn)]:
        console.print(table)
    for kind, path in outcome.paths.items():
        console.print(f"{kind}: {path}")
    return 0


def _predictions(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """(policy name, file) of each ``--predictions`` file."""
    return tuple((f.stem, str(f)) for f in args.predictions)


def _plan(args: argparse.Namespace):
    """The plan the flags ask for; ``ValueError`` says which flag is wrong and why, and
    ``OSError`` or ``ValueError`` which prediction file cannot be read (before anything runs)."""
    from designrl.bench import BenchPlan
    from designrl.policies.predictions import load_predictions, predictions_name

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
    for name, path in _predictions(args):
        plan.prediction_items[name] = set(load_predictions(path))
    plan.judge = _judge(args)
    return plan


def _judge(args: argparse.Namespace):
    """The judge the flags name (None: no ``--judge``); ``ValueError`` says what is missing."""
    from designrl.judge import JudgeConfig

    if args.judge is None:
        if args.judge_model is not None or args.judge_multimodal:
            raise ValueError("--judge-model and --judge-multimodal describe the judge at "
                             "--judge URL, which is not given")
        return None
    if not args.judge.startswith(("http://", "https://")):
        raise ValueError(f"--judge takes the endpoint's http(s) URL, e.g. "
                         f"http://localhost:8001/v1, not {args.judge!r}")
    if not args.judge_model:
        raise ValueError("--judge needs --judge-model NAME, the model the endpoint serves")
    return JudgeConfig(base_url=args.judge, model=args.judge_model,
                       api_key=args.environ.get(JUDGE_KEY_VARIABLE) or None,
                       multimodal=args.judge_multimodal)


def _check_seeds(args: argparse.Namespace, cases) -> None:
    """``--seeds`` and ``--gen-seeds`` each name the seeds of their own tasks; one given
    when none of its tasks runs would be ignored, so it is an error saying which to use."""
    from designrl.tasks import TASKS
    from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS

    ran = {c.task_id for c in cases}
    designgym = ran & set(DESIGNGYM_TASK_IDS)
    generated = {t for t in ran - designgym if TASKS[t].seeded}
    if args.seeds is not None and not designgym:
        raise UsageError(
            "--seeds sets the seeds of DesignGym's tasks (" + ", ".join(DESIGNGYM_TASK_IDS)
            + "), and none is selected; generated tasks ("
            + (", ".join(sorted(generated)) or "gen-*") + ") take --gen-seeds")
    if args.gen_seeds is not None and not generated:
        raise UsageError("--gen-seeds sets the seeds of generated tasks (gen-*), and none is "
                         "selected; DesignGym's tasks take --seeds")


def _llm_cells(row: dict, shown: bool) -> list[str]:
    """The language-model columns of a summary row (blank for heuristic policies)."""
    if not shown:
        return []
    if row.get("valid_json_rate") is None:
        return [""] * 6
    return [f"{row['valid_json_rate']:.0%}", f"{row['model_valid_action_rate']:.0%}",
            f"{row['steer_rate']:.0%}", f"{row['prompt_tokens']:.0f}",
            f"{row['completion_tokens']:.0f}", f"{row['llm_seconds']:.2f}"]


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


def _figure_tables(rows: list[dict]) -> list:
    """A table per kind of family figures (svg: SVGBench's score): their headline columns."""
    from rich.table import Table

    tables = []
    for title in dict.fromkeys(r["figures"]["title"] for r in rows if "figures" in r):
        mine = [r for r in rows if r.get("figures", {}).get("title") == title]
        table = Table(title=title)
        for col in ("task", "policy", *mine[0]["figures"]["headline"]):
            table.add_column(col, justify="left" if col in ("task", "policy") else "right")
        for r in mine:
            table.add_row(r["task_id"], r["policy"],
                          *map(_cell, r["figures"]["headline"].values()))
        tables.append(table)
    return tables


def _cell(value) -> str:
    if value is None:
        return ""
    return f"{value:.3f}" if isinstance(value, float) else str(value)
