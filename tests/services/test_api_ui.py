"""The API behind the web UI: the pages and their assets, the catalog, runs (a one-episode
job, or the finished episode at once), the live event stream, per-step images, a job's
summary, and the read-only training endpoints. Episodes run in process here
(``run_stored_episode``, what a worker calls); tests/ui drives the same through Chromium."""

from __future__ import annotations

import json
import re
import statistics
import threading
import time
from urllib.parse import unquote

import pytest
from learner_run_support import (
    COMPLETIONS,
    write_adapter_store,
    write_learner_run,
    write_samples,
    write_single_turn_samples,
)
from sqlalchemy import select

from designrl.rollout.episode import run_episode_spec
from designrl.rollout.live import LiveSteps, live_client
from designrl.rollout.stored import run_stored_episode, stored_spec
from designrl.store.jobs import claim_episode, finish_episode
from designrl.store.models import Episode
from services.api.routers.ui import PAGES, WEB

pytestmark = pytest.mark.integration

RUN = {"task": "gen-poster", "seed": 1_000_004, "policy": "random"}


def run_all(api, job_id: str) -> None:
    with api.sessions() as session:
        ids = session.scalars(select(Episode.id).where(Episode.job_id == job_id)).all()
    for episode_id in ids:
        assert run_stored_episode(api.sessions, episode_id, worker="test").outcome == "done"


def events(text: str) -> list[tuple[str, dict]]:
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if not line.startswith(":"))
        if fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


def test_pages_and_assets_are_ours_under_a_strict_csp(api):
    home = api.client.get("/", follow_redirects=False)
    assert home.status_code == 307 and home.headers["location"] == "/ui/run"
    for page in PAGES:
        reply = api.client.get(f"/ui/{page}")
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in reply.headers["content-security-policy"]
        for asset in re.findall(r'(?:src|href)="(/ui/static/[^"]+)"', reply.text):
            assert api.client.get(asset).status_code == 200, asset
    assert api.client.get("/ui/nope").status_code == 404
    # No CDN: nothing under web/ names another host (the SVG namespace is not a request).
    for path in WEB.rglob("*"):
        if path.is_file():
            urls = re.findall(r"https?://[^\s'\"`)]+", path.read_text(encoding="utf-8"))
            assert set(urls) <= {"http://www.w3.org/2000/svg"}, (path, urls)
    assert "/ui/" not in json.dumps(api.client.get("/openapi.json").json()["paths"])


def test_the_catalog_says_what_can_run(api):
    catalog = api.call("GET", "/v1/catalog").json()
    families = {f["name"]: f["runnable"] for f in catalog["families"]}
    assert families == {"layout": True, "html": False, "svg": False, "webpage": False}
    tasks = {t["id"]: t for t in catalog["tasks"]}
    assert tasks["poster_basic_v1"]["designgym"] and not tasks["gen-poster"]["designgym"]
    assert catalog["policies"] == ["random", "rule", "expert"]


def test_a_run_is_a_one_episode_job_until_it_has_finished(api):
    first = api.call("POST", "/v1/runs", json=RUN)
    assert first.status_code == 202, first.text
    run = first.json()
    assert not run["cached"] and run["episode"]["status"] == "queued"
    job = api.call("GET", f"/v1/jobs/{run['job_id']}").json()
    assert job["kind"] == "benchmark" and job["episodes_total"] == 1
    assert api.redis.llen(api.queue) == 1  # enqueued like any job
    # a reader may not start one, and nothing finished matches yet
    assert api.call("POST", "/v1/runs", key="viewer", json=RUN).status_code == 403

    run_all(api, run["job_id"])
    again = api.call("POST", "/v1/runs", json=RUN)
    assert again.status_code == 200 and again.json()["cached"]
    assert again.json()["episode"]["id"] == run["episode"]["id"]
    assert again.json()["episode"]["status"] == "completed"
    # another user's finished episode is not theirs to see: bob gets a job of his own
    assert not api.call("POST", "/v1/runs", key="bob", json=RUN).json()["cached"]
    assert api.call("POST", "/v1/runs", key="root", json=RUN).json()["cached"]
    other_seed = api.call("POST", "/v1/runs", json={**RUN, "seed": 1_000_005})
    assert other_seed.status_code == 202


@pytest.mark.parametrize(("body", "says"), [
    ({**RUN, "task": "design2code"}, "seeds were given, but design2code name items by id"),
    ({**RUN, "profile": "designgym"}, "DesignGym's tasks only"),
    ({**RUN, "policy": "oracle"}, "unknown policy 'oracle'"),
    ({**RUN, "extra": 1}, "extra: Extra inputs are not permitted"),
])
def test_bad_runs_get_a_readable_422(api, body, says):
    reply = api.call("POST", "/v1/runs", json=body)
    assert reply.status_code == 422 and says in reply.json()["message"], reply.text


def test_the_stream_follows_an_episode_from_queued_to_its_end(api):
    api.client.app.state.settings.stream_poll_s = 0.02
    run = api.call("POST", "/v1/runs", json=RUN).json()
    episode_id = run["episode"]["id"]
    worker = threading.Timer(0.3, run_all, (api, run["job_id"]))
    worker.start()
    started = time.monotonic()
    reply = api.call("GET", f"/v1/episodes/{episode_id}/events")
    worker.join()
    assert reply.headers["content-type"].startswith("text/event-stream")
    seen = events(reply.text)
    assert seen[0] == ("episode", {**seen[0][1], "status": "queued"})
    assert seen[-1][0] == "end" and seen[-1][1]["status"] == "completed"
    steps = [data for kind, data in seen if kind == "step"]
    assert [s["index"] for s in steps] == list(range(seen[-1][1]["steps_count"]))
    assert steps == seen[-1][1]["steps"]
    assert time.monotonic() - started < 30
    # reconnecting after step n sends only what followed
    tail = events(api.call("GET", f"/v1/episodes/{episode_id}/events",
                           params={"after": len(steps) - 2}).text)
    assert [d["index"] for k, d in tail if k == "step"] == [len(steps) - 1]
    assert api.call("GET", f"/v1/episodes/{episode_id}/events", key="bob").status_code == 403


def test_a_running_episode_streams_its_live_steps_then_its_record_each_step_once(api):
    settings = api.client.app.state.settings
    settings.stream_poll_s, settings.stream_max_s = 0.02, 0.5
    run = api.call("POST", "/v1/runs", json=RUN).json()
    episode_id = run["episode"]["id"]
    base = f"/v1/episodes/{episode_id}"
    with api.sessions() as session:
        spec = stored_spec(claim_episode(session, episode_id, "test"))
    with LiveSteps(api.redis, episode_id) as on_step:
        record = run_episode_spec(spec, on_step=on_step)  # not stored yet
    n = len(record.steps)
    stored = [{"index": i, **s.model_dump(exclude={"info"})} for i, s in enumerate(record.steps)]

    seen = events(api.call("GET", f"{base}/events").text)
    assert [k for k, _ in seen] == ["episode", *["step"] * n, "timeout"]
    assert seen[0][1]["status"] == "running" and [d for k, d in seen if k == "step"] == stored
    tail = events(api.call("GET", f"{base}/events", params={"after": 1}).text)
    assert [d["index"] for k, d in tail if k == "step"] == list(range(2, n))
    live_frame = api.call("GET", f"{base}/steps/{n - 1}.svg")
    assert live_frame.status_code == 200 and "cache-control" not in live_frame.headers
    assert api.call("GET", f"{base}/steps/{n}.svg").status_code == 404

    with api.sessions() as session:
        finish_episode(session, episode_id, record)
    rest = events(api.call("GET", f"{base}/events", params={"after": n - 1}).text)
    assert [k for k, _ in rest] == ["episode", "end"] and rest[-1][1]["steps"] == stored
    assert api.call("GET", f"{base}/steps/{n - 1}.svg").text == live_frame.text


def test_a_worker_running_an_episode_is_followed_step_by_step(api):
    api.client.app.state.settings.stream_poll_s = 0.02
    run = api.call("POST", "/v1/runs", json=RUN).json()
    episode_id = run["episode"]["id"]
    live = LiveSteps(api.redis, episode_id)

    def slow_publish(step):  # a step every 50 ms: the stream polls far more often
        live(step)
        time.sleep(0.05)

    ran = []
    # the stream must be open before the worker starts: under a loaded machine's delays a
    # 0.2 s head start was not always enough (the stream began at 'running')
    worker = threading.Timer(1.0, lambda: ran.append(run_stored_episode(
        api.sessions, episode_id, worker="test", on_step=slow_publish)))
    worker.start()
    seen = events(api.call("GET", f"/v1/episodes/{episode_id}/events").text)
    worker.join()
    assert ran[0].outcome == "done"
    kinds = [k for k, _ in seen]
    completed = kinds.index("episode", 2)  # queued, running, then completed
    assert [seen[1][1]["status"], seen[completed][1]["status"]] == ["running", "completed"]
    assert kinds[2:completed].count("step") > 1  # steps arrived while it ran
    steps = [d for k, d in seen if k == "step"]
    assert [s["index"] for s in steps] == list(range(len(ran[0].record.steps)))
    assert steps == seen[-1][1]["steps"] and kinds[-1] == "end"


def test_redis_errors_while_publishing_leave_the_episode_done(api):
    api.client.app.state.settings.stream_poll_s = 0.02
    run = api.call("POST", "/v1/runs", json=RUN).json()
    episode_id = run["episode"]["id"]
    away = LiveSteps(live_client("redis://127.0.0.1:1"), episode_id)  # nothing on port 1
    ran = run_stored_episode(api.sessions, episode_id, worker="test", on_step=away)
    assert ran.outcome == "done" and not away.on
    seen = events(api.call("GET", f"/v1/episodes/{episode_id}/events").text)
    assert [d for k, d in seen if k == "step"] == seen[-1][1]["steps"]
    assert seen[-1][1]["status"] == "completed" and seen[-1][1]["steps_count"] > 1


def test_step_images_replay_the_episode_to_its_stored_layout(api):
    run = api.call("POST", "/v1/runs", json={**RUN, "seed": 1_000_006}).json()
    run_all(api, run["job_id"])
    episode = api.call("GET", f"/v1/episodes/{run['episode']['id']}").json()
    assert not all(s["valid"] for s in episode["steps"])  # random: rejected steps replay too
    base = f"/v1/episodes/{episode['id']}"
    frames = [api.call("GET", f"{base}/steps/{i}.svg") for i in range(episode["steps_count"])]
    assert all(f.headers["content-type"].startswith("image/svg+xml") for f in frames)
    assert frames[-1].text == api.call("GET", f"{base}/images/after.svg").text
    assert len({f.text for f in frames}) > 1
    assert api.call("GET", f"{base}/steps/{episode['steps_count']}.svg").status_code == 404
    assert api.call("GET", f"{base}/steps/0.svg", key="bob").status_code == 403
    # the brief's target regions are drawn on every image, and named in the episode
    regions = set(episode["brief"]["required_regions"].values())
    assert regions and episode["brief"]["primary_goal"]
    for image in (frames[0].text, api.call("GET", f"{base}/images/before.svg").text):
        assert {r for r in regions if f'data-region="{r}"' in image} == regions


def test_a_job_summary_has_means_per_policy_and_task_and_score_curves(api):
    bench = {"kind": "benchmark", "tasks": ["gen-poster", "gen-slide"],
             "seeds": [1_000_000, 1_000_001], "policies": ["rule", "random"]}
    job = api.call("POST", "/v1/jobs", json=bench).json()
    empty = api.call("GET", f"/v1/jobs/{job['id']}/summary").json()
    assert empty == {"job_id": job["id"], "policies": [], "tasks": [], "curves": []}
    run_all(api, job["id"])
    summary = api.call("GET", f"/v1/jobs/{job['id']}/summary").json()
    episodes = api.call("GET", f"/v1/jobs/{job['id']}/episodes").json()["items"]
    assert [p["policy"] for p in summary["policies"]] == ["rule", "random"]
    for row in summary["policies"]:
        mine = [e for e in episodes if e["policy"] == row["policy"]]
        assert row["episodes"] == 4 and row["steer_rate"] is None
        for name in ("final_score", "instruction_score", "total_reward", "valid_action_rate",
                     "seconds"):
            assert row[name] == pytest.approx(statistics.fmean(e[name] for e in mine))
    assert len(summary["tasks"]) == 4 and len(summary["curves"]) == 4
    for curve in summary["curves"]:
        mine = [e for e in episodes
                if (e["task_id"], e["policy"]) == (curve["task_id"], curve["policy"])]
        assert len(curve["scores"]) == max(e["steps_count"] for e in mine) + 1
        assert curve["scores"][0] == pytest.approx(statistics.fmean(e["start_score"] for e in mine))
        assert curve["scores"][-1] == pytest.approx(statistics.fmean(e["final_score"] for e in mine))
    assert api.call("GET", f"/v1/jobs/{job['id']}/summary", key="bob").status_code == 403


def test_a_job_summary_never_mixes_families_and_gives_component_means(api):
    """``expert`` is a layout and an svg policy: two rows, each with its own components."""
    bench = {"kind": "benchmark", "tasks": ["gen-poster", "svg-prompts"],
             "seeds": [1_000_000], "items": ["traffic-light", "house"],
             "policies": ["expert", "random"]}
    reply = api.call("POST", "/v1/jobs", json=bench)
    assert reply.status_code == 202, reply.text
    job = reply.json()
    run_all(api, job["id"])
    summary = api.call("GET", f"/v1/jobs/{job['id']}/summary").json()
    assert [(p["family"], p["policy"], p["episodes"]) for p in summary["policies"]] == [
        ("layout", "expert", 1), ("layout", "random", 1), ("svg", "expert", 2),
        ("svg", "random", 2)]
    episodes = api.call("GET", f"/v1/jobs/{job['id']}/episodes").json()["items"]
    details = {e["id"]: api.call("GET", e["links"]["self"]).json() for e in episodes}
    for row in summary["policies"] + summary["tasks"]:
        mine = [details[e["id"]] for e in episodes if e["family"] == row["family"]
                and e["policy"] == row["policy"] and row["task_id"] in (None, e["task_id"])]
        assert row["episodes"] == len(mine) and row["outcomes"] == {"ok": len(mine)}
        assert set(row["components"]) == set(mine[0]["rewards"])
        for name, mean in row["components"].items():
            assert mean == pytest.approx(statistics.fmean(e["rewards"][name] for e in mine))
    svg_expert = next(p for p in summary["policies"] if p["family"] == "svg"
                      and p["policy"] == "expert")
    svg_random = next(p for p in summary["policies"] if p["family"] == "svg"
                      and p["policy"] == "random")
    # the house's "should look welcoming" is undecided with no judge: neutral, not passed
    assert svg_expert["components"]["validity"] == 1.0
    assert svg_expert["total_reward"] > 0.9 > svg_random["total_reward"]


def test_training_runs_curves_and_versions_are_read_only_views(api, tmp_path):
    settings = api.client.app.state.settings
    settings.training_runs_dir = str(tmp_path / "runs")
    settings.adapter_store = str(tmp_path / "adapters")
    settings.version_key = f"test-version-{tmp_path.name}"
    assert api.call("GET", "/v1/training/runs").json() == []
    assert api.call("GET", "/v1/training/versions").json() == {"current": None, "versions": []}

    write_learner_run(tmp_path / "runs" / "grpo", partial_tail=True)
    (tmp_path / "runs" / "not-a-run").mkdir()
    write_adapter_store(tmp_path / "adapters")
    api.redis.set(settings.version_key, 3)
    try:
        runs = api.call("GET", "/v1/training/runs", key="viewer").json()
        assert [(r["name"], r["updates"], r["last_version"]) for r in runs] == [("grpo", 4, 4)]
        run = api.call("GET", "/v1/training/runs/grpo").json()
        assert [r["version"] for r in run["curves"]] == [1, 2, 3, 4]
        assert run["checkpoints"] == [2, 4] and run["summary"] is None
        assert [s["version"] for s in run["samples"]] == [1, 1, 2, 2, 3, 3, 4, 4]
        assert all(s["picture"] is None for s in run["samples"])  # no such episodes here
        assert not any(s["stored"] for s in run["samples"])
        sources = api.call("GET", "/v1/training/sources").json()
        assert sources["runs_dir"] == str((tmp_path / "runs").resolve())
        versions = api.call("GET", "/v1/training/versions").json()
        assert versions["current"] == 3
        assert [v["name"] for v in versions["versions"]] == ["policy-v1", "policy-v2",
                                                             "policy-v3"]
    finally:
        api.redis.delete(settings.version_key)
    for name in ("not-a-run", "..", "nope"):
        assert api.call("GET", f"/v1/training/runs/{name}").status_code == 404
    assert api.call("GET", "/v1/training/runs", key=None).status_code == 401


def test_a_layout_sample_not_stored_here_shows_its_replayed_final_layout(api, tmp_path):
    settings = api.client.app.state.settings
    settings.training_runs_dir = str(tmp_path / "runs")
    write_learner_run(tmp_path / "runs" / "embedded", updates=3)  # text only: no picture
    write_samples(tmp_path / "runs" / "embedded", [(4, "never-stored")], COMPLETIONS)
    samples = api.call("GET", "/v1/training/runs/embedded").json()["samples"]
    assert [s["picture"] for s in samples[:-1]] == [None] * 6
    replayed = samples[-1]
    assert replayed["picture"] == "/v1/training/runs/embedded/samples/6.svg"
    assert not replayed["stored"]
    picture = api.call("GET", replayed["picture"], key="viewer")
    assert picture.status_code == 200, picture.text
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.startswith("<svg") and "title" in picture.text
    from designrl.learner.sample_picture import sample_svg

    assert picture.text == sample_svg({"task_id": "gen-poster", "item_key": "1000000",
                                       "completions": COMPLETIONS})
    for index in (0, 7, -1):  # text only, past the end, before the start
        missing = api.call("GET", f"/v1/training/runs/embedded/samples/{index}.svg")
        assert missing.status_code == 404 and "no layout sample" in missing.json()["message"]
    assert api.call("GET", "/v1/training/runs/nope/samples/0.svg").status_code == 404
    assert api.call("GET", replayed["picture"], key=None).status_code == 401


def test_an_svg_sample_not_stored_here_is_drawn_or_says_why(api, tmp_path):
    settings = api.client.app.state.settings
    settings.training_runs_dir = str(tmp_path / "runs")
    write_learner_run(tmp_path / "runs" / "svg", updates=1)  # two layout samples, text only
    write_single_turn_samples(tmp_path / "runs" / "svg", 2, [
        ("gen-svg", "1000000", "<svg xmlns='http://www.w3.org/2000/svg'><rect"),
        ("gen-svg", "1000001", "<svg xmlns='http://www.w3.org/2000/svg' width='9' "
                               "height='9'><rect width='9' height='9' fill='red'/></svg>")])
    samples = api.call("GET", "/v1/training/runs/svg").json()["samples"]
    malformed, drawable = samples[2:]
    assert malformed["picture"] is None and malformed["picture_kind"] is None
    assert malformed["picture_problem"].startswith("no SVG to draw (")
    assert drawable["picture"] == "/v1/training/runs/svg/samples/3/picture"
    assert drawable["picture_kind"] == "drawn" and drawable["picture_problem"] is None
    # asked anyway, the malformed one's picture is a placeholder saying why (no browser)
    placeholder = api.call("GET", "/v1/training/runs/svg/samples/2/picture", key="viewer")
    assert placeholder.status_code == 200
    assert placeholder.headers["content-type"].startswith("image/svg+xml")
    assert unquote(placeholder.headers["x-picture-problem"]) == malformed["picture_problem"]
    assert "No picture: no SVG to draw" in placeholder.text
    for index in (0, 4, -1):  # a layout sample, past the end, before the start
        missing = api.call("GET", f"/v1/training/runs/svg/samples/{index}/picture")
        assert missing.status_code == 404 and "no svg, html or webpage sample" in \
            missing.json()["message"]
    assert api.call("GET", "/v1/training/runs/nope/samples/3/picture").status_code == 404
    assert api.call("GET", drawable["picture"], key=None).status_code == 401
