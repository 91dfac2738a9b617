"""`designrl bench`: the main job end to end on a small plan, and its exit codes."""

import json
import subprocess
import sys

from sqlalchemy import select

from designrl.cli import main
from designrl.store import make_engine, make_sessionmaker
from designrl.store.jobs import list_episodes
from designrl.store.models import Job


def test_bench_writes_results_and_report(tmp_path, capsys):
    code = main(["bench", "--policies", "random,rule,expert", "--profiles", "default,designgym",
                 "--tasks", "gen-slide,poster_basic_v1", "--seeds", "1", "--gen-seeds", "1000000",
                 "--out", str(tmp_path), "--json"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    rows = {(r["profile"], r["task_id"], r["policy"]) for r in printed["summary"]}
    assert ("default", "gen-slide", "expert") in rows and ("designgym", "poster_basic_v1", "rule") in rows
    results = json.loads((tmp_path / "results.json").read_text())
    assert len(results["episodes"]) == 9  # designgym: 1 task; default: 2 tasks; 3 policies
    for episode in results["episodes"]:
        assert episode["before"] and episode["after"] and episode["steps"] >= 1
    report = (tmp_path / "report.html").read_text()
    assert report.count("data:image/svg+xml;base64,") == 2 * len(results["episodes"])
    # the embedded run went through the store, as the workers do: one job, every episode
    # completed once with the scores results.json reports
    with make_sessionmaker(make_engine(f"sqlite:///{tmp_path / 'designrl.db'}"))() as session:
        (job,) = session.scalars(select(Job)).all()
        assert job.status == "completed" and job.episodes_total == 9
        stored = {(e.task_id, e.policy, e.profile): e.final_score
                  for e in list_episodes(session, job.id) if e.status == "completed"}
    assert stored == {(r["task_id"], r["policy"], r["profile"]): r["final_score"]
                      for r in results["episodes"]}


def test_bad_arguments_exit_2(tmp_path):
    assert main(["bench", "--policies", "oracle", "--out", str(tmp_path)]) == 2
    done = subprocess.run([sys.executable, "-m", "designrl.cli", "bench", "--seeds", "x"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "invalid" in done.stderr
    helped = subprocess.run([sys.executable, "-m", "designrl.cli", "--help"], capture_output=True,
                            text=True)
    assert helped.returncode == 0 and "bench" in helped.stdout
