"""Jobs for every family over the REST API (the ``api`` fixture: real Postgres and Redis):
each family's good job is stored as the right episode plans; an unknown task, policy,
item or dataset, or a path passed as a dataset, is a readable 422 listing what is valid
and stores nothing; the catalog; an episode's stored renders and its JSON."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import func, select
from stack_support import free_port

from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import claim_episode, finish_episode
from designrl.store.models import Episode, Job
from designrl.tasks import FAMILIES, load_items

pytestmark = pytest.mark.integration

SVG_ITEMS = [i.id for i in load_items("svg-prompts")]
PAGE_ITEMS = [i.id for i in load_items("webpage-prompts")]
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32  # what the route serves is what was stored


@pytest.fixture
def datasets(api, tmp_path):
    """Registered datasets: an SVGBench-style file, a Design2Code folder, a webpage file in
    the shipped format, and a registered name whose file is not JSON."""
    (tmp_path / "questions.json").write_text(json.dumps([
        {"id": "q-circle", "prompt": "A red circle.", "requirements": ["Include a red circle"]},
        {"prompt": "Two squares.", "requirements": ["Include exactly 2 rectangles"]}]))
    folder = tmp_path / "d2c"
    folder.mkdir()
    for n in (2, 10, 1):
        (folder / f"{n}.html").write_text(f"<html><body><h1>Page {n}</h1></body></html>")
    (tmp_path / "pages.json").write_text(json.dumps([{"id": "tiny", "prompt": "A button."}]))
    (tmp_path / "broken.json").write_text("{not json")
    registered = {"bench-q": str(tmp_path / "questions.json"), "d2c": str(folder),
                  "pages": str(tmp_path / "pages.json"), "broken": str(tmp_path / "broken.json")}
    api.client.app.state.settings.datasets = registered
    return registered


def submit(api, body: dict, key: str = "alice"):
    return api.call("POST", "/v1/jobs", key=key, json=body)


def stored_plans(api, job_id: str) -> list[tuple]:
    with api.sessions() as session:
        episodes = session.scalars(select(Episode).where(Episode.job_id == job_id)
                                   .order_by(Episode.position)).all()
        return [(e.family, e.task_id, e.item_key, e.seed, e.policy, e.profile, e.source,
                 e.group_id is not None) for e in episodes]


def make_set(api, items: dict[str, str], key: str = "alice") -> str:
    reply = api.call("POST", "/v1/prediction-sets", key=key, json={"items": items})
    assert reply.status_code == 201, reply.text
    return reply.json()["policy"]


def test_layout_jobs_are_planned_as_before(api):
    job = submit(api, {"kind": "benchmark", "families": ["layout"], "seeds": [3],
                       "policies": ["rule"], "profile": "designgym"}).json()
    assert stored_plans(api, job["id"]) == [
        ("layout", t, "3", 3, "rule", "designgym", None, False)
        for t in ("poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1")]


def test_a_benchmark_runs_each_policy_on_the_families_that_take_it(api):
    job = submit(api, {"kind": "benchmark", "tasks": ["gen-poster", "gen-svg"], "seeds": [1],
                       "policies": ["rule", "expert"]}).json()
    assert [p[1] + ":" + p[4] for p in stored_plans(api, job["id"])] == [
        "gen-poster:rule", "gen-poster:expert", "gen-svg:expert"]


def test_html_jobs_take_seeds_or_a_registered_folder(api, datasets, served):
    job = submit(api, {"kind": "benchmark", "tasks": ["gen-html"], "seeds": [1_000_000, 7],
                       "policies": ["reference", "vllm:policy-v2"]}).json()
    assert stored_plans(api, job["id"]) == [
        ("html", "gen-html", key, seed, policy, None, None, False)
        for key, seed in (("1000000", 1_000_000), ("7", 7))
        for policy in ("reference", "vllm:policy-v2")]
    job = submit(api, {"kind": "benchmark", "tasks": ["design2code"], "dataset": "d2c",
                       "item_range": {"start": 1}, "policies": ["blank"]}).json()
    assert stored_plans(api, job["id"]) == [  # numeric order: 1, 2, 10; from the second
        ("html", "design2code", key, None, "blank", None, "d2c", False) for key in ("2", "10")]


def test_svg_jobs_take_item_ids_ranges_and_registered_files(api, datasets, served):
    job = submit(api, {"kind": "benchmark", "tasks": ["svg-prompts"],
                       "items": ["traffic-light", "house"], "policies": ["expert"]})
    assert job.status_code == 202, job.text
    assert stored_plans(api, job.json()["id"]) == [
        ("svg", "svg-prompts", key, None, "expert", None, None, False)
        for key in ("traffic-light", "house")]
    job = submit(api, {"kind": "benchmark", "families": ["svg"], "seeds": [5],
                       "item_range": {"start": 0, "stop": 3}, "policies": ["vllm:latest"]})
    assert [p[1:3] for p in stored_plans(api, job.json()["id"])] == [
        ("gen-svg", "5"), *(("svg-prompts", key) for key in SVG_ITEMS[:3])]  # not svgbench
    job = submit(api, {"kind": "benchmark", "tasks": ["svgbench"], "dataset": "bench-q",
                       "item_range": {"start": 0, "stop": 99}, "policies": ["expert"]})
    assert stored_plans(api, job.json()["id"]) == [
        ("svg", "svgbench", key, None, "expert", None, "bench-q", False)
        for key in ("q-circle", "svgbench-1")]  # a stop past the end stops at the end


def test_webpage_jobs_and_rollout_groups(api, datasets, served):
    job = submit(api, {"kind": "benchmark", "families": ["webpage"], "item_range": {"start": 0},
                       "policies": ["template"]}).json()
    assert [p[2] for p in stored_plans(api, job["id"])] == PAGE_ITEMS
    job = submit(api, {"kind": "benchmark", "tasks": ["webpage-prompts"], "dataset": "pages",
                       "items": ["tiny"], "policies": ["template"]}).json()
    assert stored_plans(api, job["id"]) == [
        ("webpage", "webpage-prompts", "tiny", None, "template", None, "pages", False)]
    body = {"kind": "rollout", "tasks": ["webpage-prompts", "gen-svg"], "seeds": [4],
            "items": ["todo-app"], "policy": "vllm:latest", "group_size": 3, "temperature": 0.8}
    job = submit(api, body)
    assert job.status_code == 202, job.text
    plans = stored_plans(api, job.json()["id"])
    assert [p[:4] for p in plans] == [("webpage", "webpage-prompts", "todo-app", None)] * 3 + [
        ("svg", "gen-svg", "4", 4)] * 3
    assert all(p[4] == "vllm:latest" and p[7] for p in plans)
    with api.sessions() as session:
        groups = session.execute(select(Episode.group_id, func.count())
                                 .where(Episode.job_id == job.json()["id"])
                                 .group_by(Episode.group_id)).all()
    assert sorted(n for _, n in groups) == [3, 3]


BAD = [
    ({"tasks": ["no-such-task"], "seeds": [1], "policies": ["rule"]},
     "unknown task 'no-such-task'; known: poster_basic_v1, "),
    ({"tasks": ["svg-prompts"], "items": ["house"], "policies": ["rule"]},
     "unknown policy 'rule' for svg tasks; known: expert, random, vllm:<served model>, "
     "vllm:latest, "
     "predictions:<set>"),
    ({"kind": "rollout", "tasks": ["gen-poster", "gen-svg"], "seeds": [1], "policy": "rule",
      "group_size": 2},
     "policy 'rule' does not run svg tasks (gen-svg); svg policies: expert, "),
    ({"tasks": ["webpage-prompts"], "items": ["todo-app"], "policies": ["llm:/models/x"]},
     "unknown policy 'llm:/models/x' for webpage tasks; known: template, plain, "
     "vllm:<served model>"),
    ({"tasks": ["gen-poster"], "seeds": [1], "policies": ["predictions:abc"]},
     "unknown policy 'predictions:abc' for layout tasks; known: random, rule, expert, "
     "vllm:<served model>, vllm:latest"),
    ({"tasks": ["svg-prompts"], "items": ["nope"], "policies": ["expert"]},
     "svg-prompts has no item 'nope'; its items: traffic-light, house, "),
    ({"tasks": ["svg-prompts"], "item_range": {"start": 50}, "policies": ["expert"]},
     "svg-prompts has 12 items; item_range starts at 50"),
    ({"tasks": ["svg-prompts"], "item_range": {"start": 3, "stop": 2}, "policies": ["expert"]},
     "stop (2) must be after start (3)"),
    ({"tasks": ["svg-prompts"], "items": ["house"], "item_range": {}, "policies": ["expert"]},
     "give items or item_range, not both"),
    ({"tasks": ["svg-prompts"], "policies": ["expert"]},
     "svg-prompts: items are named by id; give items (ids) or item_range"),
    ({"tasks": ["gen-svg"], "items": ["house"], "policies": ["expert"]},
     "gen-svg: items are seeds; give seeds"),
    ({"tasks": ["svgbench"], "item_range": {}, "policies": ["expert"]},
     "task svgbench reads SVGBench's questions.json (or a file in its format): name a "
     "registered dataset in dataset"),
    ({"tasks": ["svgbench"], "item_range": {}, "dataset": "nope", "policies": ["expert"]},
     "unknown dataset 'nope'; registered: bench-q, broken, d2c, pages"),
    ({"tasks": ["svgbench"], "item_range": {}, "dataset": "/etc/passwd", "policies": ["expert"]},
     "dataset '/etc/passwd' is not a dataset name: name one the operator registered "
     "(GET /v1/catalog lists them); paths are not accepted"),
    ({"tasks": ["design2code"], "item_range": {}, "dataset": "../d2c", "policies": ["blank"]},
     "paths are not accepted"),
    ({"tasks": ["webpage-prompts"], "item_range": {}, "dataset": "broken",
      "policies": ["template"]}, "webpage-prompts (broken): its items could not be read: "),
    ({"tasks": ["gen-html"], "seeds": [1], "dataset": "d2c", "policies": ["blank"]},
     "dataset names the file of a dataset task; gen-html read none"),
    ({"tasks": ["svg-prompts"], "items": ["house"], "policies": ["predictions:0123abcd"]},
     "predictions:0123abcd: this key has no prediction set '0123abcd'"),
    ({"families": ["svg", "nope"], "seeds": [1], "policies": ["expert"]},
     "unknown family 'nope'; known: layout, html, svg, webpage"),
]


@pytest.mark.parametrize(("body", "says"), BAD)
def test_bad_jobs_say_what_is_valid_and_store_nothing(api, datasets, body, says):
    reply = submit(api, {"kind": "benchmark", **body})
    assert reply.status_code == 422, reply.text
    assert says in reply.json()["message"], reply.json()["message"]
    with api.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Job)) == 0


def test_no_dataset_is_registered_by_default(api):
    reply = submit(api, {"kind": "benchmark", "tasks": ["svgbench"], "item_range": {},
                         "dataset": "mine", "policies": ["expert"]})
    assert reply.status_code == 422
    assert "registered: none are registered on this server" in reply.json()["message"]


def test_a_prediction_set_runs_for_its_owner_only(api):
    policy = make_set(api, {"house": "<svg/>"})
    body = {"kind": "benchmark", "tasks": ["svg-prompts"], "items": ["house"],
            "policies": [policy, "expert"]}
    job = submit(api, body)
    assert job.status_code == 202, job.text
    assert [p[4] for p in stored_plans(api, job.json()["id"])] == [policy, "expert"]
    refused = submit(api, body, key="bob")
    assert refused.status_code == 422 and "this key has no prediction set" in refused.text
    assert submit(api, body, key="root").status_code == 202  # an admin may run any set


def test_runs_take_a_dataset_item_too(api):
    run = {"task": "svg-prompts", "item": "smiley", "policy": "expert"}
    reply = api.call("POST", "/v1/runs", json=run)
    assert reply.status_code == 202, reply.text
    episode = reply.json()["episode"]
    assert (episode["family"], episode["item_key"], episode["seed"]) == ("svg", "smiley", None)
    bad = api.call("POST", "/v1/runs", json={**run, "item": "nope"})
    assert bad.status_code == 422 and "has no item 'nope'" in bad.json()["message"]


class _Models(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        data = json.dumps({"object": "list", "data": [
            {"id": "policy", "object": "model"}, {"id": "policy-v3", "object": "model"},
            {"id": "bad name", "object": "model"}]}).encode()
        self.send_response(200 if self.path == "/v1/models" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_the_catalog_lists_families_tasks_policies_datasets_and_served_models(api, datasets):
    catalog = api.call("GET", "/v1/catalog").json()
    families = {f["name"]: f for f in catalog["families"]}
    assert list(families) == list(FAMILIES)
    svg = families["svg"]
    assert (svg["multi_turn"], svg["summary"]) == (False, FAMILIES["svg"].summary)
    assert svg["components"] == list(FAMILIES["svg"].components)
    tasks = {t["id"]: t for t in svg["tasks"]}
    assert (tasks["gen-svg"]["seeded"], tasks["gen-svg"]["needs_path"]) == (True, False)
    assert (tasks["svg-prompts"]["seeded"], tasks["svg-prompts"]["needs_path"]) == (False, False)
    assert tasks["svgbench"]["needs_path"] and "questions.json" in tasks["svgbench"]["source"]
    assert tasks["svg-prompts"]["items"][:2] == ["traffic-light", "house"]
    assert tasks["gen-svg"]["items"] is None and tasks["svgbench"]["items"] is None
    assert svg["policies"] == ["expert", "random", "vllm:<served model>", "vllm:latest",
                               "predictions:<set>"]
    assert families["html"]["oracles"] == ["reference"]
    assert families["layout"]["multi_turn"] and families["layout"]["policies"] == [
        "random", "rule", "expert", "vllm:<served model>", "vllm:latest"]
    assert not any(p.startswith("llm:") for f in families.values() for p in f["policies"])
    assert catalog["datasets"] == ["bench-q", "broken", "d2c", "pages"]
    assert catalog["served_models"] == []
    # the flat lists the web UI's Run page reads
    assert {t["id"] for t in catalog["tasks"]} >= {"gen-poster", "svg-prompts", "websight"}
    assert catalog["policies"] == ["random", "rule", "expert"]

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Models)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings = api.client.app.state.settings
    try:
        settings.inference_url = f"http://127.0.0.1:{server.server_address[1]}"
        catalog = api.call("GET", "/v1/catalog").json()
    finally:
        server.shutdown()
        server.server_close()
    assert catalog["served_models"] == ["policy", "policy-v3", "bad name"]
    webpage = next(f for f in catalog["families"] if f["name"] == "webpage")
    assert webpage["policies"][:4] == ["template", "plain", "vllm:policy", "vllm:policy-v3"]
    assert "vllm:bad name" not in webpage["policies"]  # not a name a job could submit

    api.client.app.state.served_models = None  # forget the cached list
    settings.inference_url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    reply = api.call("GET", "/v1/catalog")
    assert reply.status_code == 200 and reply.json()["served_models"] == []


def test_an_episode_shows_its_renders_completion_and_details_to_its_owner(api):
    policy = make_set(api, {"traffic-light": "<svg>...</svg>"})
    job = submit(api, {"kind": "benchmark", "tasks": ["svg-prompts"], "items": ["traffic-light"],
                       "policies": [policy]}).json()
    with api.sessions() as session:
        episode_id = session.scalar(select(Episode.id).where(Episode.job_id == job["id"]))
        claim_episode(session, episode_id, "test")
        details = {"requirements": [{"text": "Include a red circle", "passed": True}]}
        finish_episode(session, episode_id, EpisodeRecord(
            outcome="ok", total_reward=0.9, final_score=0.9, completion="<svg>...</svg>",
            rewards={"requirements": 1.0, "validity": 1.0},
            summary={"family": "svg", "item_id": "traffic-light", "details": details},
            images={"candidate": PNG}))
    base = f"/v1/episodes/{episode_id}"
    detail = api.call("GET", base).json()
    assert detail["images"] == ["candidate"]
    assert detail["links"]["candidate"] == f"{base}/images/candidate.png"
    assert "before" not in detail["links"]  # layout images are layout's
    assert detail["completion"] == "<svg>...</svg>" and detail["details"] == details
    assert detail["rewards"] == {"requirements": 1.0, "validity": 1.0}
    assert detail["summary"] == {"family": "svg", "item_id": "traffic-light"}
    listed = api.call("GET", f"/v1/jobs/{job['id']}/episodes").json()["items"][0]
    assert listed["images"] == ["candidate"] and "completion" not in listed

    image = api.call("GET", f"{base}/images/candidate.png")
    assert image.status_code == 200 and image.content == PNG
    assert image.headers["content-type"] == "image/png"
    assert api.call("GET", f"{base}/images/candidate.png", key="root").status_code == 200
    assert api.call("GET", f"{base}/images/candidate.png", key="bob").status_code == 403
    missing = api.call("GET", f"{base}/images/reference.png")
    assert missing.status_code == 404 and "its images: candidate" in missing.json()["message"]
    assert api.call("GET", "/v1/episodes/nope/images/candidate.png").status_code == 404
    assert api.call("GET", f"{base}/images/before.svg").status_code == 404  # not a layout
