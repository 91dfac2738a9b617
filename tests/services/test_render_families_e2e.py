"""Render-scored families end to end: an API process and a Celery worker process on the real
Postgres and Redis. A prediction set stored over REST answers an svg episode (a shipped
prompt) and a webpage episode (an item of a dataset the operator registered); the worker
renders each in its own Chromium pool, scores it, stores the render, and the owner reads
the episode and fetches its PNG over the API. A worker shut down cleanly leaves no Chromium
behind (its pool children exit without running atexit hooks), and an episode naming a path
instead of a registered dataset is a recorded error."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
from db_support import postgres_schema
from process_support import descendants, png_size
from stack_support import Stack

from designrl.store import upgrade
from designrl.store.jobs import EpisodePlan, create_job, list_episodes, mark_enqueued
from services.renderer.app import make_celery
from services.renderer.settings import RendererSettings

pytestmark = pytest.mark.integration

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="400" viewBox="0 0 200 400">'
       '<rect width="200" height="400" fill="white"/>'
       '<rect x="50" y="20" width="100" height="360" fill="#333333"/>'
       '<circle cx="100" cy="80" r="40" fill="red"/>'
       '<circle cx="100" cy="200" r="40" fill="yellow"/>'
       '<circle cx="100" cy="320" r="40" fill="green"/></svg>')
PAGE = ('<!doctype html><html lang="en"><head><title>Counter</title><style>'
        'body{font-family:sans-serif;margin:40px;color:#222;background:#fff}'
        'button{padding:8px 16px}</style></head><body><h1>Counter</h1>'
        '<p id="n">0</p><button onclick="document.getElementById(\'n\').textContent='
        'String(Number(document.getElementById(\'n\').textContent)+1)">Add one</button>'
        '</body></html>')


def exists(pid: int) -> bool:
    """Running, or a zombie nobody reaped (a browser its parent never waited for)."""
    return Path(f"/proc/{pid}").exists()


@pytest.fixture
def stack(tmp_path):
    pages = tmp_path / "pages.json"
    pages.write_text(json.dumps([{"id": "counter", "category": "app",
                                  "prompt": "A counter with a button that adds one."}]))
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_EPISODE_TIME_LIMIT_S="120",
                      DESIGNRL_DATASETS=json.dumps({"local-pages": str(pages)}))
        try:
            yield stack
        finally:
            stack.close()


def test_svg_and_webpage_episodes_run_on_a_worker_and_serve_their_renders(stack):
    worker = stack.start_worker("w1")
    stack.start_api()
    with stack.client() as client:
        made = client.post("/v1/prediction-sets", json={
            "name": "saved answers", "items": {"traffic-light": SVG, "counter": PAGE}})
        assert made.status_code == 201, made.text
        policy = made.json()["policy"]
        jobs = [client.post("/v1/jobs", json=body) for body in (
            {"kind": "benchmark", "tasks": ["svg-prompts"], "items": ["traffic-light"],
             "policies": [policy]},
            {"kind": "benchmark", "tasks": ["webpage-prompts"], "dataset": "local-pages",
             "items": ["counter"], "policies": [policy]})]
        assert [j.status_code for j in jobs] == [202, 202], [j.text for j in jobs]
        episodes = {}
        for job in jobs:
            assert stack.wait_for(job.json()["id"], timeout=240).status == "completed"
            listed = client.get(f"/v1/jobs/{job.json()['id']}/episodes").json()["items"]
            episodes[listed[0]["family"]] = client.get(listed[0]["links"]["self"]).json()

        svg, page = episodes["svg"], episodes["webpage"]
        assert (svg["outcome"], svg["error"], svg["item_key"]) == ("ok", None, "traffic-light")
        assert svg["completion"] == SVG and svg["images"] == ["candidate"]
        verdicts = {r["requirement"]: r["verdict"] for r in svg["details"]["requirements"]}
        assert len(verdicts) == 8 and set(verdicts.values()) == {"pass"}
        assert svg["total_reward"] > 0.9 and svg["rewards"]["requirements"] == 1.0

        assert (page["outcome"], page["error"], page["source"]) == ("ok", None, "local-pages")
        assert page["completion"] == PAGE and page["images"] == ["candidate"]
        assert page["rewards"]["execution"] == 1.0 and 0 < page["total_reward"] <= 1
        assert page["details"]["interactions"]["attempted"] >= 1

        for episode in (svg, page):
            image = client.get(f"/v1/episodes/{episode['id']}/images/candidate.png")
            assert image.status_code == 200 and image.headers["content-type"] == "image/png"
            width, height = png_size(image.content)
            assert width > 0 and height > 0

    # A job stored around the API, naming a path: the worker takes registered names only.
    with stack.sessions() as session:
        job = create_job(session, kind="benchmark", spec={}, plans=[EpisodePlan(
            family="webpage", task_id="webpage-prompts", item_key="counter", policy=policy,
            source="/etc/hostname")])
        ids = [e.id for e in list_episodes(session, job.id)]
        mark_enqueued(session, ids)
    celery = make_celery(RendererSettings(redis_url=stack.redis_url, queue=stack.queue))
    celery.send_task("designrl.run_episode", args=ids, queue=stack.queue)
    stack.wait_for(job.id, timeout=60)
    with stack.sessions() as session:
        refused = list_episodes(session, job.id)[0]
        assert refused.outcome == "error"
        assert refused.error == "unknown dataset '/etc/hostname'; registered: local-pages"

    browsers = [p for p, name in descendants(worker.pid).items() if "chrom" in name]
    assert browsers, "the worker's pool child started no Chromium"
    os.kill(worker.pid, signal.SIGTERM)  # a warm shutdown of the worker alone
    worker.wait(30)
    deadline = time.monotonic() + 2
    while any(exists(p) for p in browsers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in browsers if exists(p)], "Chromium outlived its worker, or was " \
        "left for init to reap"
