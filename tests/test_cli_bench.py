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


def test_bench_runs_every_family_with_images_in_the_report(tmp_path, capsys):
    code = main(["bench", "--tasks", "gen-poster,gen-html,gen-svg,webpage-prompts",
                 "--policies", "rule,blank,expert,plain", "--profiles", "default",
                 "--gen-seeds", "1000000", "--items", "1", "--out", str(tmp_path), "--json"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    rows = {(r["family"], r["task_id"], r["policy"]) for r in printed["single_turn"]}
    assert rows == {("html", "gen-html", "blank"), ("svg", "gen-svg", "expert"),
                    ("webpage", "webpage-prompts", "plain")}
    # each policy runs on the families that take it: layout's expert too
    assert [(r["task_id"], r["policy"]) for r in printed["summary"]] == [
        ("gen-poster", "rule"), ("gen-poster", "expert")]
    episodes = json.loads((tmp_path / "results.json").read_text())["episodes"]
    render = [e for e in episodes if "profile" not in e]
    assert all(e["outcome"] == "ok" and 0 <= e["total_reward"] <= 1 for e in render)
    report = (tmp_path / "report.html").read_text()
    # html shows reference and candidate, svg and webpage their candidate
    assert report.count("data:image/png;base64,") == 4
    assert "svg: means over scored episodes" in report


def test_bench_scores_a_prediction_file_and_reads_a_dataset_path(tmp_path, capsys):
    from designrl.tasks import FAMILIES, load_items

    pages = tmp_path / "pages.jsonl"
    items = load_items("gen-html", seeds=[7, 8])
    pages.write_text("\n".join(json.dumps({"id": f"p{i}", "html": item.html})
                               for i, item in enumerate(items)))
    svg = load_items("svg-prompts", limit=2)
    preds = tmp_path / "mine.jsonl"
    preds.write_text("\n".join([
        json.dumps({"id": svg[0].id, "completion": FAMILIES["svg"].policies["expert"](svg[0], 0)}),
        json.dumps({"id": svg[1].id, "completion": "I cannot draw that."}),
        json.dumps({"id": "p0", "completion": f"```html\n{items[0].html}\n```"})]))
    code = main(["bench", "--tasks", "svg-prompts,websight", "--path", f"websight={pages}",
                 "--predictions", str(preds), "--out", str(tmp_path / "out"), "--json"])
    assert code == 0
    episodes = json.loads((tmp_path / "out" / "results.json").read_text())["episodes"]
    got = {(e["task_id"], e["item_key"]): (e["policy"], e["outcome"], e["total_reward"])
           for e in episodes}
    # only the items the file answers run: two svg prompts and one page of the two
    assert got == {("svg-prompts", svg[0].id): ("predictions:mine", "ok", 1.0),
                   ("svg-prompts", svg[1].id): ("predictions:mine", "invalid_output", 0.0),
                   ("websight", "p0"): ("predictions:mine", "ok", 1.0)}


def test_bench_flags_that_name_nothing_valid_exit_2_with_the_valid_values(tmp_path, capsys):
    assert main(["bench", "--families", "vector", "--out", str(tmp_path)]) == 2
    assert "known: layout, html, svg, webpage" in capsys.readouterr().err
    assert main(["bench", "--path", "gen-svg=/tmp", "--out", str(tmp_path)]) == 2
    assert "takes no path; dataset tasks:" in capsys.readouterr().err
    assert main(["bench", "--path", "design2code", "--out", str(tmp_path)]) == 2
    assert "--path takes TASK=PATH" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n')
    assert main(["bench", "--predictions", str(bad), "--out", str(tmp_path)]) == 2
    assert "bad.jsonl:1: expected" in capsys.readouterr().err
