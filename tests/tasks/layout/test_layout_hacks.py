"""Layout hacks: loops of actions built to farm the shaped reward return less than the rule
planner's honest episode on the same task and seed (``designrl.tasks.layout.hacks``)."""

from __future__ import annotations

import pytest

from designrl.tasks.layout.hacks import HACK_TASKS, HACKS, hack_policy, play

CASES = [(task, seed) for task in HACK_TASKS
         for seed in ((0,) if not task.startswith("gen-") else (0, 1_000_000))]


@pytest.fixture(scope="module")
def honest_returns() -> dict[tuple[str, int], float]:
    return {(task, seed): play("rule", task, seed) for task, seed in CASES}


@pytest.mark.parametrize("hack", list(HACKS))
def test_every_hack_returns_less_than_the_rule_planner(hack, honest_returns):
    for (task, seed), honest in honest_returns.items():
        gamed = play(hack, task, seed)
        assert gamed < honest, (f"{hack} on {task} seed {seed} returned {gamed:+.3f}, the rule "
                                f"planner {honest:+.3f} (margin {honest - gamed:+.3f})")


def test_a_loop_that_ends_where_it_started_earns_nothing():
    """Potential shaping telescopes: out and back, any number of times, is worth zero."""
    assert abs(play("zero moves", "gen-poster", 3)) < 1e-9
    assert abs(play("z flip-flop", "gen-poster", 3)) < 0.01


def test_an_unknown_hack_names_the_known_ones():
    with pytest.raises(ValueError, match="oscillating move"):
        hack_policy("teleport")
