"""TRL reward functions as picklable objects: the docstrings' examples run, and a family's
functions pickled apart and loaded in a fresh interpreter score there, once for all of them,
with the same numbers as here (browser-free svg, then in the browser pool each process
starts for itself)."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import pickle
import subprocess
import sys

import pytest

from designrl.tasks import load_rows, reward_functions

DOCUMENTED = ["designrl.tasks.batch", "designrl.tasks.svg.reward", "designrl.tasks.html.reward",
              "designrl.tasks.webpage.reward", "designrl.tasks"]

GOOD = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<rect width="100" height="100" fill="white"/>'
        '<circle cx="50" cy="50" r="30" fill="red"/></svg>')

# Loads the pickled functions (one pickle each, from stdin), scores the rows with each,
# and prints the scores, whether the functions share one scoring, and how many completions
# it scored.
CHILD = """
import json, pickle, sys
payload = pickle.load(sys.stdin.buffer)
funcs = [pickle.loads(blob) for blob in payload["funcs"]]
values = [f(prompts=None, completions=payload["completions"], **payload["columns"])
          for f in funcs]
print(json.dumps({"values": values, "names": [f.__name__ for f in funcs],
                  "shared": all(f.scoring is funcs[0].scoring for f in funcs),
                  "scored": funcs[0].scoring.scored}))
"""


@pytest.mark.parametrize("module", DOCUMENTED)
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


def score_in_a_fresh_process(funcs, completions, columns) -> dict:
    payload = {"funcs": [pickle.dumps(f) for f in funcs], "completions": completions,
               "columns": columns}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps(payload),
                          capture_output=True, env=env, timeout=240, check=False)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def test_functions_pickled_apart_share_one_scoring_in_a_fresh_process():
    funcs = reward_functions("svg", browser=False)
    requirements = [["a red circle"], ["a blue square"], None]
    completions = [GOOD, GOOD, "I cannot draw."]
    here = [f(prompts=None, completions=completions, requirements=requirements) for f in funcs]
    assert funcs[0].scoring.scored == 2  # the row without requirements is not scored
    child = score_in_a_fresh_process(funcs, completions, {"requirements": requirements})
    assert child["names"] == [f.__name__ for f in funcs]
    assert child["values"] == here
    assert child["shared"] and child["scored"] == 2  # scored once for all the functions
    assert here[0][0] > here[0][1] and here[0][2] is None


def test_unpickled_in_the_same_process_is_the_same_scoring():
    funcs = reward_functions("svg", components=["validity"], browser=False)
    copy = pickle.loads(pickle.dumps(funcs[1]))
    assert copy.__name__ == "svg_validity" and copy.scoring is funcs[0].scoring
    assert copy(completions=[GOOD], requirements=[["a red circle"]]) == [1.0]
    assert funcs[0](completions=[GOOD], requirements=[["a red circle"]])[0] > 0.5
    assert funcs[0].scoring.scored == 1


@pytest.mark.integration
def test_pickled_browser_rewards_start_their_own_pool_in_a_fresh_process(runner):
    rows = load_rows("svg-prompts", limit=2)
    funcs = reward_functions("svg", runner)  # rendered in this test's pool here
    completions = [GOOD, GOOD]
    columns = {"requirements": [row["requirements"] for row in rows]}
    here = [f(prompts=[r["prompt"] for r in rows], completions=completions, **columns)
            for f in funcs]
    child = score_in_a_fresh_process(funcs, completions, columns)  # the child's own pool
    assert child["values"] == here and child["shared"] and child["scored"] == 2
    assert all(v == 1.0 for v in here[funcs.index(next(
        f for f in funcs if f.__name__ == "svg_validity"))])
