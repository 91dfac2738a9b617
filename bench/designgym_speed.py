"""``LayoutEnv(profile="designgym").step`` against DesignGym 2.0's own env, same actions.

    python bench/designgym_speed.py --designgym-src DIR [--blocks K] [--seconds S] [--json]

DesignGym's source is not shipped with designrl (its repository has no licence): DIR
is a checkout of github.com/canboyedits/DesignGym, branch ``round2-designgym-2``
(commit bfe17e5, the one ``shared/data/designgym`` was recorded from), or any folder
holding its ``models.py`` and ``server/`` (``DesignGym_environment.py``,
``rewards.py``, ``phases.py``, ``briefs.py``). Its env is imported in-process.

One fixed stream of valid actions in DesignGym's action format (the speed bench's
``random_action``: moves, resizes, aligns, distributes, snaps, promotes, reflows,
anchors, templates, z swaps; no finalize, so every episode runs to its step limit)
is cut into episodes over DesignGym's three tasks and seeds 0..E/3-1. Both sides run
the same episodes from the same resets (resets not timed):

* theirs: ``DesignGymEnvironment.step(DesignGymAction)``; the action models are built
  before timing (an OpenEnv server would build them from JSON: that cost is left out,
  which favours DesignGym);
* ours: ``LayoutEnv(profile="designgym").step(dict)``, which parses the dict itself.

Before timing, every episode is run once on both sides and the transitions compared:
the same accepted and rejected actions (same error strings), the same rewards and
scores. The sides then alternate in K timed blocks of about S seconds each (the order
flips every block), so a noisy neighbour slows both alike; each side's rate is its
total steps over its total time, and the ratio ours / theirs is the figure (target
25). ``DesignGymEpisode.step``, the episode core under ``LayoutEnv``, is timed in the
same blocks for reference.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no BLAS threads

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

from designrl.policies.layout_random import random_action  # noqa: E402
from designrl.tasks.layout import metrics  # noqa: E402
from designrl.tasks.layout.designgym import DesignGymEpisode  # noqa: E402
from designrl.tasks.layout.env import LayoutEnv  # noqa: E402
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS, designgym_task  # noqa: E402

RATIO_TARGET = 25.0
SOURCE_FILES = ("models.py", "server/DesignGym_environment.py", "server/rewards.py",
                "server/phases.py", "server/briefs.py")
WHERE_TO_GET = ("DesignGym 2.0's source is not shipped with designrl (its repository has no "
                "licence). Check out github.com/canboyedits/DesignGym, branch "
                "round2-designgym-2 (commit bfe17e510129a6f71b3ddf1ebb5d878cd970c483), and "
                "pass its root: the folder holding models.py and server/.")


class SourceMissing(Exception):
    pass


def load_designgym(src: str) -> tuple[type, type]:
    """DesignGym's env class and action model, imported in-process from ``src``."""
    root = Path(src).expanduser().resolve()
    missing = [f for f in SOURCE_FILES if not (root / f).is_file()]
    if missing:
        raise SourceMissing(f"--designgym-src {src}: missing {', '.join(missing)}.\n{WHERE_TO_GET}")
    sys.path.insert(0, str(root))  # its own fallback imports: `models`, `server.*`
    env_module = importlib.import_module("server.DesignGym_environment")
    models = importlib.import_module("models")
    return env_module.DesignGymEnvironment, models.DesignGymAction


def build_episodes(count: int, seed: int = 0) -> list[tuple[str, int, list[dict]]]:
    """``count`` episodes (task, reset seed, its actions), cut from one fixed action stream
    per task: exactly ``max_steps`` actions each (every non-finalize action counts a step)."""
    episodes = []
    tasks = [designgym_task(t) for t in DESIGNGYM_TASK_IDS]
    rngs = [random.Random(f"designgym-speed:{t.task_id}:{seed}") for t in tasks]
    for n in range(count):
        k = n % len(tasks)
        task = tasks[k]
        actions = [random_action(task, rngs[k]) for _ in range(task.max_steps)]
        episodes.append((task.task_id, n // len(tasks), actions))
    return episodes


def compare(env_cls: type, action_cls: type, episodes: list) -> dict:
    """Run every episode once on both sides (untimed) and compare each transition."""
    theirs, ours = env_cls(), LayoutEnv(profile="designgym")
    counts = {"steps": 0, "accepted": 0, "rejected_theirs": 0, "rejected_ours": 0,
              "error_mismatch": 0, "reward_mismatch": 0, "score_mismatch": 0,
              "done_mismatch": 0, "max_reward_diff": 0.0, "max_score_diff": 0.0}
    first = []
    for task_id, seed, actions in episodes:
        theirs.reset(seed=seed, task_id=task_id)
        ours.reset(task_id=task_id, seed=seed)
        for n, action in enumerate(actions):
            t_obs = theirs.step(action_cls(**action))
            o_obs = ours.step(action)
            state = theirs.state
            counts["steps"] += 1
            counts["rejected_theirs"] += state.last_action_error is not None
            counts["rejected_ours"] += o_obs.last_action_error is not None
            counts["accepted"] += o_obs.last_action_error is None
            dr = abs(state.last_reward - o_obs.reward)
            ds = abs(state.current_score - o_obs.score)
            counts["max_reward_diff"] = max(counts["max_reward_diff"], dr)
            counts["max_score_diff"] = max(counts["max_score_diff"], ds)
            bad = []
            if state.last_action_error != o_obs.last_action_error:
                counts["error_mismatch"] += 1
                bad.append("error")
            if dr > 1e-9:
                counts["reward_mismatch"] += 1
                bad.append("reward")
            if ds > 1e-9:
                counts["score_mismatch"] += 1
                bad.append("score")
            if t_obs.done != o_obs.done:
                counts["done_mismatch"] += 1
                bad.append("done")
            if bad and len(first) < 5:
                first.append(f"{task_id} seed {seed} step {n}: {', '.join(bad)}")
    counts["agree"] = not first
    counts["first_mismatches"] = first
    return counts


def timed_side(reset: Callable[[str, int], None], step: Callable[[object], None],
               episodes: list, cursor: list[int]) -> Callable[[float], tuple[int, float]]:
    """A block runner: whole episodes from ``cursor`` on until ``budget`` seconds of steps."""
    perf = time.perf_counter

    def run_block(budget: float) -> tuple[int, float]:
        steps, elapsed = 0, 0.0
        while elapsed < budget:
            task_id, seed, actions = episodes[cursor[0] % len(episodes)]
            cursor[0] += 1
            reset(task_id, seed)
            t0 = perf()
            for action in actions:
                step(action)
            elapsed += perf() - t0
            steps += len(actions)
        return steps, elapsed

    return run_block


def sides(env_cls: type, action_cls: type, episodes: list) -> dict[str, Callable]:
    """The three timed step loops, each with its own cursor over the same episodes."""
    theirs, ours = env_cls(), LayoutEnv(profile="designgym")
    core = {"episode": None}
    models = [(t, s, [action_cls(**a) for a in actions]) for t, s, actions in episodes]

    def core_reset(task_id: str, seed: int) -> None:
        core["episode"] = DesignGymEpisode(designgym_task(task_id))
        core["episode"].reset(seed)

    def core_step(action: dict) -> None:
        core["episode"].step(action)

    return {
        "designgym": timed_side(lambda t, s: theirs.reset(seed=s, task_id=t), theirs.step,
                                models, [0]),
        "layoutenv": timed_side(lambda t, s: ours.reset(task_id=t, seed=s), ours.step,
                                episodes, [0]),
        "core": timed_side(core_reset, core_step, episodes, [0]),
    }


def run(src: str, blocks: int, seconds: float, episode_count: int) -> dict:
    env_cls, action_cls = load_designgym(src)
    episodes = build_episodes(episode_count)
    check = compare(env_cls, action_cls, episodes)
    runners = sides(env_cls, action_cls, episodes)
    for runner in runners.values():  # warm-up
        runner(0.05)
    names = list(runners)
    totals = {name: [0, 0.0] for name in names}
    per_block = []
    for b in range(blocks):
        order = names if b % 2 == 0 else names[::-1]
        rates = {}
        for name in order:
            steps, elapsed = runners[name](seconds)
            totals[name][0] += steps
            totals[name][1] += elapsed
            rates[name] = steps / elapsed
        per_block.append({**rates, "ratio": rates["layoutenv"] / rates["designgym"]})
    rate = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    ratio = rate["layoutenv"] / rate["designgym"]
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "loadavg": list(os.getloadavg()),
        "metrics_path": "native" if metrics.native_active() else "pure Python",
        "episodes": len(episodes),
        "blocks": blocks,
        "seconds_per_block": seconds,
        "check": check,
        "steps": {name: totals[name][0] for name in names},
        "steps_per_s": rate,
        "per_block": per_block,
        "ratio": ratio,
        "core_ratio": rate["core"] / rate["designgym"],
        "layoutenv_share_of_core": rate["layoutenv"] / rate["core"],
        "target": RATIO_TARGET,
        "target_met": ratio >= RATIO_TARGET and check["agree"],
    }


def print_report(r: dict) -> None:
    c = r["check"]
    print(f"DesignGym env vs LayoutEnv(profile='designgym'), {r['episodes']} episodes over "
          f"3 tasks, {r['blocks']} alternating blocks of {r['seconds_per_block']:.1f} s, "
          f"metrics {r['metrics_path']}, load {r['loadavg'][0]:.2f}")
    print(f"same stream: {c['steps']} steps, accepted {c['accepted']}, rejected "
          f"{c['rejected_theirs']} (theirs) / {c['rejected_ours']} (ours); mismatches: error "
          f"{c['error_mismatch']}, reward {c['reward_mismatch']}, score {c['score_mismatch']}, "
          f"done {c['done_mismatch']} (max |diff| reward {c['max_reward_diff']:.1e}, score "
          f"{c['max_score_diff']:.1e})" + ("" if c["agree"] else f"; first: {c['first_mismatches']}"))
    print(f"{'block':>5} {'DesignGym':>12} {'LayoutEnv':>12} {'core':>12} {'ratio':>7}")
    for b, row in enumerate(r["per_block"], 1):
        print(f"{b:>5} {row['designgym']:>12,.0f} {row['layoutenv']:>12,.0f} "
              f"{row['core']:>12,.0f} {row['ratio']:>6.1f}x")
    s = r["steps_per_s"]
    print(f"{'all':>5} {s['designgym']:>12,.0f} {s['layoutenv']:>12,.0f} {s['core']:>12,.0f} "
          f"{r['ratio']:>6.1f}x   (steps/s)")
    verdict = "met" if r["target_met"] else "NOT met"
    print(f"LayoutEnv.step / DesignGym step: {r['ratio']:.1f}x (target {RATIO_TARGET:.0f}x: "
          f"{verdict}); episode core alone {r['core_ratio']:.1f}x; LayoutEnv runs at "
          f"{r['layoutenv_share_of_core']:.0%} of the core's rate")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--designgym-src", required=True, metavar="DIR",
                        help="root of a DesignGym checkout (models.py, server/); not shipped: "
                             + WHERE_TO_GET)
    parser.add_argument("--blocks", type=int, default=6, help="timed blocks per side (default 6)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds of steps per side per block (default 1)")
    parser.add_argument("--episodes", type=int, default=300,
                        help="episodes in the stream, cycling over the 3 tasks (default 300)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        results = run(args.designgym_src, max(1, args.blocks), max(0.05, args.seconds),
                      max(3, args.episodes))
    except SourceMissing as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 0 if results["check"]["agree"] else 1


if __name__ == "__main__":
    sys.exit(main())
