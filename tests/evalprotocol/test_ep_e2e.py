"""Eval Protocol end to end: eval-protocol 0.3.33's own ``@evaluation_test`` with its
``RemoteRolloutProcessor`` (in ``.venv-ep``, offline) pointed at a real API process, whose
``/ep`` rollouts a real Celery worker runs and scores in its Chromium pool. Three
``gen-svg`` rows come back with our reward, its components and the episode in
``execution_metadata.extra`` and the SVG as the assistant's message; with a wrong key every
row fails at ``/init`` with a 401, at once, instead of polling until its timeout."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from db_support import postgres_schema
from stack_support import Stack

from designrl.store import upgrade
from designrl.store.models import Episode
from designrl.tasks import load_rows

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EP_PYTHON = Path(os.environ.get("DESIGNRL_EP_PYTHON", ROOT / ".venv-ep" / "bin" / "python"))
EVALUATION = Path(__file__).with_name("ep_svg_eval.py")
SEEDS = (1_000_000, 1_000_001, 1_000_002)  # the gen-svg test items load_rows gives first


def require_ep() -> None:
    if not EP_PYTHON.exists():
        if os.environ.get("CI"):
            raise AssertionError(f"{EP_PYTHON} is missing: `make setup` builds the Eval "
                                 "Protocol venv")
        pytest.skip(f"{EP_PYTHON} is missing (`make ep-venv` builds it)")


@pytest.fixture(scope="module")
def stack():
    require_ep()
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_EPISODE_TIME_LIMIT_S="120")
        try:
            stack.start_worker("w1")
            stack.start_api()
            yield stack
        finally:
            stack.close()


def evaluate(stack: Stack, tmp_path: Path, key: str) -> tuple[subprocess.CompletedProcess,
                                                                list[dict], float]:
    """Run the evaluation in ``.venv-ep``, isolated from our suite: its own ini and rootdir,
    no conftest, nothing written to the real home. Returns its rows as it received them."""
    rows = [{"row_id": f"{row['task_id']}:{row['item_id']}", "messages": row["prompt"]}
            for row in load_rows("gen-svg", limit=len(SEEDS))]  # as the README builds them
    (tmp_path / "rows.json").write_text(json.dumps(rows))
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path),
           "LITELLM_LOCAL_MODEL_COST_MAP": "True", "EP_NO_UPLOAD": "1",
           "FIREWORKS_API_KEY": key, "DESIGNRL_EP_URL": f"{stack.api_url}/ep",
           "DESIGNRL_EP_ROWS": str(tmp_path / "rows.json"), "DESIGNRL_EP_MODEL": "expert",
           "DESIGNRL_EP_OUT": str(tmp_path / "seen.jsonl")}
    started = time.monotonic()
    ran = subprocess.run(
        [str(EP_PYTHON), "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--noconftest",
         "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), str(EVALUATION)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    seconds = time.monotonic() - started
    seen = tmp_path / "seen.jsonl"
    lines = seen.read_text().splitlines() if seen.exists() else []
    return ran, [json.loads(line) for line in lines], seconds


def test_svg_rows_get_our_reward_in_execution_metadata(stack, tmp_path):
    ran, seen, _ = evaluate(stack, tmp_path, stack.key)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert sorted(r["row_id"] for r in seen) == [f"gen-svg:gen-svg-{s}" for s in SEEDS]
    for row in seen:
        assert row["status"]["code"] == 100, row
        extra = row["extra"]
        assert extra["outcome"] == "ok" and extra["policy"] == "expert"
        assert 0.5 < extra["reward"] <= 1.0
        assert {"requirements", "format", "validity"} <= set(extra["reward_components"])
        assert row["roles"] == ["system", "user", "assistant"] and "<svg" in row["answer"]
        with stack.sessions() as session:
            episode = session.get(Episode, extra["episode_id"])
            assert (episode.task_id, episode.item_key) == ("gen-svg", row["row_id"][16:])
            assert episode.total_reward == extra["reward"]


def test_a_wrong_key_fails_every_row_with_a_401_at_once(stack, tmp_path):
    ran, seen, seconds = evaluate(stack, tmp_path, "drl_not-a-key")
    assert len(seen) == len(SEEDS), ran.stdout[-3000:] + ran.stderr[-3000:]
    for row in seen:
        assert row["status"]["code"] == 13 and "HTTP 401" in row["status"]["message"], row
        assert "unknown or revoked API key" in row["status"]["message"]
        assert "reward" not in row["extra"]
    assert seconds < 120, f"the failing run took {seconds:.0f}s"  # its rows' timeout is 240 s
