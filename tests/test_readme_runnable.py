"""Every README block marked ``<!-- runnable -->`` runs as written and exits 0.

The blocks run in order, in one temporary folder (what one writes, the next may read),
with this interpreter's environment first on ``PATH`` (so ``designrl`` and ``python`` are
the project's, as with the virtual environment active) and this checkout importable. For
the REST and Python-over-REST blocks a temporary stack runs: an API process and a worker
process on a fresh Postgres schema and the machine's Redis, and the blocks get ``$API``
and ``$KEY`` as the README's ``designrl stack up`` block sets them. Shell blocks run in
``bash -e -o pipefail``; Python blocks as a file of their own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from db_support import REDIS_URL, postgres_schema
from readme_support import ROOT, blocks
from stack_support import Stack

from designrl.store import upgrade

pytestmark = pytest.mark.integration

RUNNABLE = [block for block in blocks() if block.runnable]
BLOCK_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """(folder, environment) the blocks run in, with a stack behind ``$API``."""
    folder = tmp_path_factory.mktemp("readme-tour")
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url)
        try:
            stack.start_worker("worker1")
            stack.start_api()
            bin_dir = str(Path(sys.executable).parent)
            env = {**os.environ, "PATH": os.pathsep.join([bin_dir, os.environ["PATH"]]),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                               os.environ.get("PYTHONPATH")])),
                   "DATABASE_URL": url, "REDIS_URL": REDIS_URL,
                   "API": stack.api_url, "KEY": stack.key}
            yield folder, env
        finally:
            stack.close()


def run_block(block, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    if block.shell:
        command = ["bash", "-e", "-o", "pipefail", "-c", block.code]
    else:
        script = folder / f"readme_line_{block.line}.py"
        script.write_text(block.code)
        command = [sys.executable, str(script)]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=BLOCK_TIMEOUT_S)


@pytest.mark.parametrize("block", RUNNABLE, ids=lambda block: block.name)
def test_runnable_readme_block_runs_as_written(block, tour):
    folder, env = tour
    done = run_block(block, folder, env)
    assert done.returncode == 0, (f"{block.name} exited {done.returncode}:\n{block.code}\n"
                                  f"--- stdout\n{done.stdout[-3000:]}\n"
                                  f"--- stderr\n{done.stderr[-3000:]}")
