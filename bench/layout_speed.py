"""Layout env speed: env steps per second on one core, and the batched scorer's speed-up.

    python bench/layout_speed.py [--seconds S] [--json]

(a) Steps per second of one episode object on one core, reset excluded:
    ``DesignGymEpisode.step`` (the state record included) and ``.advance`` (reward
    only, what planners call) on the ``designgym`` profile, cycling over DesignGym's
    three tasks with a fixed, pre-generated stream of valid random actions (moves,
    resizes, aligns, distributes, snaps, promotes, reflows, anchors, templates and
    z swaps; no finalize, so every episode runs to its step limit). Each episode
    starts with an untimed reset; only the steps are timed. Some actions are
    rejected (a template or swap that breaks a hard constraint), as they would be
    for a random policy; the rejected share is reported. Target: 20,000 steps/s.
    The ``default`` profile's episode is measured the same way when it exists.
(b) Layouts per second of ``BatchScorer.utility`` on B = 256 and 1024 layouts per
    task against ``utility(task, compute_metrics(task, layout))`` one layout at a
    time, in the same run, on the same layouts. Target: at least 10x. The batched
    rate is given on ready arrays and, separately, including ``boxes_of``.

Each rate is the best of several timed blocks (the machine may be shared), the
mean over all blocks is in the JSON output.

The metrics run in the C extension ``designrl.tasks.layout._cmetrics`` when it is
built (bit-identical to the Python path); the report says which path (a) used
(``metrics_path`` in the JSON) and, when it was the extension, also times
``DesignGymEpisode.step`` on the pure-Python path in the same run for comparison.
(b)'s one-at-a-time baseline is ``compute_metrics``, which is always Python; the
C extension's one-at-a-time ``evaluate`` is timed beside it (the batched scorer is
not 10x faster than that: for a planner the gain over it is small).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no BLAS threads

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from designrl.policies.layout_random import random_action  # noqa: E402
from designrl.tasks.layout import metrics  # noqa: E402
from designrl.tasks.layout.designgym import DesignGymEpisode  # noqa: E402
from designrl.tasks.layout.metrics import (  # noqa: E402
    compute_metrics,
    evaluate,
    native_active,
    utility,
)
from designrl.tasks.layout.scorer import BatchScorer  # noqa: E402
from designrl.tasks.layout.spec import (  # noqa: E402
    DESIGNGYM_TASK_IDS,
    TaskSpec,
    designgym_task,
)

STEPS_TARGET = 20_000
RATIO_TARGET = 10.0
BATCH_SIZES = (256, 1024)
STREAM_LENGTH = 4096
BLOCKS = 5

def action_stream(task: TaskSpec, seed: int, length: int = STREAM_LENGTH) -> list[dict]:
    rng = random.Random(f"layout-speed:{task.task_id}:{seed}")
    return [random_action(task, rng) for _ in range(length)]


# --------------------------------------------------------------------------- (a) env steps


def _blocks(run_block: Callable[[float], tuple[int, float]], seconds: float) -> dict:
    """Run timed blocks of about seconds / BLOCKS each: best and mean rate."""
    per_block = seconds / BLOCKS
    run_block(min(0.2, per_block))  # warm-up
    rates, total_items, total_time = [], 0, 0.0
    for _ in range(BLOCKS):
        items, elapsed = run_block(per_block)
        rates.append(items / elapsed)
        total_items += items
        total_time += elapsed
    return {"best": max(rates), "mean": total_items / total_time, "items": total_items,
            "timed_s": total_time}


def bench_episodes(make_episode: Callable[[TaskSpec], object], method: str,
                   tasks: list[TaskSpec], seconds: float) -> dict:
    """Steps per second of ``episode.<method>(action)``; resets are not timed."""
    episodes = [make_episode(t) for t in tasks]
    streams = [action_stream(t, 0) for t in tasks]
    positions = [0] * len(tasks)
    seed = [0]
    counts = {"steps": 0, "rejected": 0}
    perf = time.perf_counter

    def run_block(budget: float) -> tuple[int, float]:
        steps, elapsed = 0, 0.0
        while elapsed < budget:
            for k, episode in enumerate(episodes):
                episode.reset(seed[0] % 1000)
                seed[0] += 1
                stream, pos = streams[k], positions[k]
                fn = getattr(episode, method)
                size = len(stream)
                rejected = 0
                t0 = perf()
                while not episode.done:
                    fn(stream[pos])
                    pos = pos + 1 if pos + 1 < size else 0
                    steps += 1
                    if episode.last_action_error is not None:
                        rejected += 1
                elapsed += perf() - t0
                positions[k] = pos
                counts["rejected"] += rejected
        counts["steps"] += steps
        return steps, elapsed

    out = _blocks(run_block, seconds)
    out["rejected_share"] = counts["rejected"] / max(1, counts["steps"])
    return out


# --------------------------------------------------------------------------- (b) scorer


def _collect_layouts(task: TaskSpec, count: int) -> list:
    """Distinct layouts an agent would score: the states of random episodes."""
    episode = DesignGymEpisode(task)
    stream = action_stream(task, 1)
    layouts, pos, seed = [], 0, 0
    while len(layouts) < count:
        episode.reset(seed)
        seed += 1
        layouts.append(episode.layout)
        while not episode.done and len(layouts) < count:
            episode.advance(stream[pos % len(stream)])
            pos += 1
            if episode.last_action_error is None:
                layouts.append(episode.layout)
    return layouts


def bench_scorer(tasks: list[TaskSpec], batch: int, seconds: float) -> dict:
    """Layouts per second: one-at-a-time scalar scoring vs the batched scorer."""
    cases = []
    for task in tasks:
        scorer = BatchScorer(task)
        layouts = _collect_layouts(task, batch)
        boxes, z = scorer.boxes_of(layouts)
        cases.append((task, scorer, layouts, boxes, z))
    perf = time.perf_counter

    def timed(fn: Callable[[], None]) -> Callable[[float], tuple[int, float]]:
        def run_block(budget: float) -> tuple[int, float]:
            items, elapsed = 0, 0.0
            while elapsed < budget:
                t0 = perf()
                fn()
                elapsed += perf() - t0
                items += batch * len(cases)
            return items, elapsed
        return run_block

    def scalar() -> None:
        for task, _, layouts, _, _ in cases:
            for layout in layouts:
                utility(task, compute_metrics(task, layout))

    def native_scalar() -> None:
        for task, _, layouts, _, _ in cases:
            for layout in layouts:
                evaluate(task, layout)

    def batched() -> None:
        for _, scorer, _, boxes, z in cases:
            scorer.utility(boxes, z)

    def batched_from_layouts() -> None:
        for _, scorer, layouts, _, _ in cases:
            scorer.utility(*scorer.boxes_of(layouts))

    share = seconds / 4
    one = _blocks(timed(scalar), share)
    # the C extension scores one layout at a time too: the honest second baseline
    native = _blocks(timed(native_scalar), share) if native_active() else None
    arrays = _blocks(timed(batched), share)
    from_layouts = _blocks(timed(batched_from_layouts), share)
    return {
        "batch": batch,
        "one_at_a_time": one,
        "one_at_a_time_native": native,
        "ratio_vs_native": arrays["best"] / native["best"] if native else None,
        "batched": arrays,
        "batched_with_boxes_of": from_layouts,
        "ratio": arrays["best"] / one["best"],
        "ratio_with_boxes_of": from_layouts["best"] / one["best"],
    }


# --------------------------------------------------------------------------- main


def _default_episode_class():
    """The default profile's episode class, or (None, why) while it does not exist."""
    try:
        from designrl.tasks.layout.default_profile import DefaultEpisode
    except Exception as exc:  # noqa: BLE001 - being written concurrently; skip gracefully
        return None, f"{type(exc).__name__}: {exc}"
    return DefaultEpisode, None


def metrics_path() -> str:
    """Which path ``metrics.evaluate`` (the episodes' scoring) takes now."""
    if metrics.native_active():
        return "native"
    if metrics.native_available():
        return "pure Python (C extension switched off)"
    return "pure Python (C extension not built)"


def run(seconds: float) -> dict:
    tasks = [designgym_task(t) for t in DESIGNGYM_TASK_IDS]
    env_seconds = seconds * 0.4
    results: dict = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "tasks": list(DESIGNGYM_TASK_IDS),
        "targets": {"steps_per_s": STEPS_TARGET, "batched_ratio": RATIO_TARGET},
        "metrics_path": metrics_path(),
        "env": {},
    }
    for method in ("step", "advance"):
        results["env"][f"designgym.{method}"] = bench_episodes(
            DesignGymEpisode, method, tasks, env_seconds / 2)
    if metrics.native_active():  # the same steps on the pure-Python path, for comparison
        metrics.use_native(False)
        try:
            pure = bench_episodes(DesignGymEpisode, "step", tasks, env_seconds / 4)
        finally:
            metrics.use_native(True)
        results["pure_python"] = {
            "designgym.step": pure,
            "native_speedup": results["env"]["designgym.step"]["best"] / pure["best"],
        }
    default_cls, why = _default_episode_class()
    if default_cls is None:
        results["default_profile_skipped"] = why
    else:
        for method in ("step", "advance"):
            if not hasattr(default_cls, method):
                continue
            try:
                results["env"][f"default.{method}"] = bench_episodes(
                    default_cls, method, tasks, env_seconds / 4)
            except Exception as exc:  # noqa: BLE001 - report, do not fail the bench
                results["default_profile_skipped"] = f"{method}: {type(exc).__name__}: {exc}"
                break
    results["scorer"] = [bench_scorer(tasks, b, seconds * 0.6 / len(BATCH_SIZES))
                         for b in BATCH_SIZES]
    step_rate = results["env"]["designgym.step"]["best"]
    results["steps_per_s"] = step_rate
    results["steps_target_met"] = step_rate >= STEPS_TARGET
    results["batched_ratio"] = min(s["ratio"] for s in results["scorer"])
    results["batched_target_met"] = results["batched_ratio"] >= RATIO_TARGET
    return results


def print_report(results: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title="Layout env: steps per second, one core, reset excluded")
    for col in ("episode.method", "best steps/s", "mean steps/s", "steps", "rejected"):
        table.add_column(col, justify="right" if col != "episode.method" else "left")
    for name, r in results["env"].items():
        table.add_row(name, f"{r['best']:,.0f}", f"{r['mean']:,.0f}", f"{r['items']:,}",
                      f"{r['rejected_share']:.0%}")
    console.print(table)
    console.print(f"metrics path: {results['metrics_path']}")
    if "pure_python" in results:
        pure = results["pure_python"]
        console.print(f"designgym.step on the pure-Python path: "
                      f"{pure['designgym.step']['best']:,.0f} steps/s "
                      f"(native is {pure['native_speedup']:.1f}x faster)")
    if "default_profile_skipped" in results:
        console.print(f"default profile skipped: {results['default_profile_skipped']}")

    table = Table(title="Scoring layouts: layouts per second (utility of all 12 metrics)")
    for col in ("B", "one at a time (Python)", "batched", "batched + boxes_of", "ratio",
                "ratio incl. boxes_of", "one at a time (C)", "ratio vs C"):
        table.add_column(col, justify="right")
    for s in results["scorer"]:
        native = s["one_at_a_time_native"]
        table.add_row(str(s["batch"]), f"{s['one_at_a_time']['best']:,.0f}",
                      f"{s['batched']['best']:,.0f}", f"{s['batched_with_boxes_of']['best']:,.0f}",
                      f"{s['ratio']:.1f}x", f"{s['ratio_with_boxes_of']:.1f}x",
                      f"{native['best']:,.0f}" if native else "-",
                      f"{s['ratio_vs_native']:.1f}x" if native else "-")
    console.print(table)

    def verdict(ok: bool) -> str:
        return "[green]met[/green]" if ok else "[red]NOT met[/red]"

    console.print(f"env steps/s (designgym step, one core, reset excluded, "
                  f"{results['metrics_path']}): "
                  f"{results['steps_per_s']:,.0f} vs target {STEPS_TARGET:,}: "
                  f"{verdict(results['steps_target_met'])}")
    console.print(f"batched scorer vs one at a time (worst over B={list(BATCH_SIZES)}): "
                  f"{results['batched_ratio']:.1f}x vs target {RATIO_TARGET:.0f}x: "
                  f"{verdict(results['batched_target_met'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="total timed seconds, split between the measurements (default 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = run(max(0.5, args.seconds))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
