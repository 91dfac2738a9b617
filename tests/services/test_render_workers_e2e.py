"""Issue 15's acceptance on the real services: an API process and Celery worker processes on
the real Postgres and Redis, with render-scored episodes in each worker's own Chromium pool.

* Four families over REST: one benchmark job of layout, html, svg and webpage items with
  model-free policies; two workers run it, every record equals the embedded run of the same
  case (``run_case``'s call), and every render is served as a PNG and listed in the episode.
* Hostile completions: every hostile page of ``tests/render/test_render_hostile.py`` as a
  webpage completion in a prediction set is a scored failure or a scored page, never an
  exception or a stuck episode, and the same worker process then scores a normal page as the
  embedded path does.
* A worker process SIGKILLed while it renders: the task comes back, another process runs it,
  and every episode is written exactly once.
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from db_support import postgres_schema
from process_support import descendants, png_size
from sqlalchemy import func, select
from stack_support import Stack

from designrl.bench import BenchCase, case_spec
from designrl.rollout.browser import close_process_runner
from designrl.rollout.episode import run_episode_spec
from designrl.rollout.record import EpisodeRecord
from designrl.rollout.single_turn import MAX_STORED_COMPLETION, EpisodeContext
from designrl.store import upgrade
from designrl.store.models import Artifact, Episode, RewardComponent
from services.renderer.app import make_celery
from services.renderer.settings import RendererSettings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SCORED = {"ok", "invalid_output", "render_failed", "timeout"}
TOL = 1e-9


# --- helpers -------------------------------------------------------------------------------

def browsers_under(pid: int) -> list[int]:
    return [p for p, name in descendants(pid).items() if "chrom" in name]


def alive(pid: int) -> bool:
    """Running, and not a zombie nobody reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def renderers_under(pid: int) -> list[int]:
    """The Chromium renderer processes (one per page document) under ``pid``."""
    found = []
    for p, name in descendants(pid).items():
        try:
            if "chrom" in name and b"--type=renderer" in Path(f"/proc/{p}/cmdline").read_bytes():
                found.append(p)
        except OSError:
            continue
    return found


def start_workers(stack: Stack, *names: str) -> dict[str, subprocess.Popen]:
    """Workers named uniquely (other stacks may share this Redis), returned once each
    answers a ping: consuming its queue, so a job submitted now reaches all of them."""
    tag = stack.queue.rsplit("-", 1)[1]
    workers = {name: stack.start_worker(f"{name}-{tag}") for name in names}
    celery = make_celery(RendererSettings(redis_url=stack.redis_url, queue=stack.queue))
    nodes = {f"{name}-{tag}@{socket.gethostname()}" for name in names}

    def answered() -> bool:
        assert all(w.poll() is None for w in workers.values()), "a worker exited"
        replies = celery.control.ping(destination=sorted(nodes), timeout=0.5)
        return {node for reply in replies for node in reply} >= nodes

    poll(answered, 60, "the workers to answer a ping", every=0.2)
    return workers


def poll(condition, timeout: float, what: str, every: float = 0.05):
    """``condition()``'s first truthy value, polled until ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g}s"
        time.sleep(every)


def episodes_over_rest(client, job_id: str) -> list[dict]:
    items, after = [], -1
    while after is not None:
        page = client.get(f"/v1/jobs/{job_id}/episodes", params={"after": after})
        assert page.status_code == 200, page.text
        items += page.json()["items"]
        after = page.json()["next_after"]
    return items


def case_of(episode: dict) -> BenchCase:
    return BenchCase(episode["family"], episode["task_id"], episode["policy"], episode["seed"],
                     episode["item_key"], episode["profile"], episode["source"])


def embedded(case: BenchCase, context: EpisodeContext | None = None) -> EpisodeRecord:
    """The embedded run of ``case``: ``run_case``'s own call, kept as the record (``run_case``
    flattens a layout record to a row without its outcome)."""
    return run_episode_spec(case_spec(case), context=context)


def assert_equal_record(stored: dict, record: EpisodeRecord) -> None:
    """A stored episode (the API's detail) and an embedded record: the same outcome, total
    reward and reward components (to 1e-9), and the same image names."""
    where = (stored["family"], stored["task_id"], stored["policy"], stored["item_key"])
    assert (stored["outcome"], stored["error"]) == (record.outcome, record.error), where
    assert record.total_reward is not None, where
    assert math.isclose(stored["total_reward"], record.total_reward, rel_tol=0, abs_tol=TOL), (
        where, stored["total_reward"], record.total_reward)
    assert set(stored["rewards"]) == set(record.rewards), (where, stored["rewards"],
                                                           record.rewards)
    for name, value in record.rewards.items():
        assert math.isclose(stored["rewards"][name], value, rel_tol=0, abs_tol=TOL), (
            where, name, stored["rewards"][name], value)
    assert stored["images"] == sorted(record.images), where


def assert_images_served(client, episode: dict, record: EpisodeRecord) -> None:
    """Each image the episode lists is served as a PNG the size of the embedded render."""
    assert episode["images"], (episode["family"], episode["item_key"], "no images")
    for name in episode["images"]:
        link = episode["links"][name]
        assert link == f"/v1/episodes/{episode['id']}/images/{name}.png"
        reply = client.get(link)
        assert reply.status_code == 200, reply.text
        assert reply.headers["content-type"] == "image/png"
        assert png_size(reply.content) == png_size(record.images[name])
    missing = client.get(f"/v1/episodes/{episode['id']}/images/nothing.png")
    assert missing.status_code == 404


def worker_pids(stack: Stack, job_id: str) -> dict[str, int]:
    """Episode id -> the pid of the process that wrote it (the API does not show it)."""
    with stack.sessions() as session:
        rows = session.execute(select(Episode.id, Episode.worker)
                               .where(Episode.job_id == job_id)).all()
    return {episode_id: int(worker.split(":")[1]) for episode_id, worker in rows}


def count_rows(stack: Stack, model, episode_id: str) -> int:
    with stack.sessions() as session:
        return session.scalar(select(func.count()).select_from(model)
                              .where(model.episode_id == episode_id))


@pytest.fixture
def schema():
    with postgres_schema() as url:
        upgrade(url)
        yield url


@pytest.fixture
def embedded_pool():
    """The test process's own browser pool (the embedded runs'), closed afterwards."""
    yield
    close_process_runner()


# --- 1. four families end to end ----------------------------------------------------------

SEEDS = [1_000_000, 1_000_001, 1_000_002]
PAGES = ["todo-app", "calculator", "contact-form"]
# ``expert`` and ``random`` name policies of both layout and svg: a benchmark runs each
# policy on every family that takes it, so layout runs random too (3 more, quick episodes).
FOUR_FAMILIES = {"kind": "benchmark", "tasks": ["gen-poster", "gen-html", "gen-svg",
                                                "webpage-prompts"],
                 "seeds": SEEDS, "items": PAGES,
                 "policies": ["rule", "expert", "reference", "blank", "random", "template",
                              "plain"]}
EXPECTED_POLICIES = {"layout": {"rule", "expert", "random"}, "html": {"reference", "blank"},
                     "svg": {"expert", "random"}, "webpage": {"template", "plain"}}


def test_four_families_over_rest_on_two_workers_equal_the_embedded_run(schema, embedded_pool):
    stack = Stack(schema, DESIGNRL_EPISODE_TIME_LIMIT_S="120")
    try:
        workers = list(start_workers(stack, "w1", "w2").values())
        stack.start_api()
        with stack.client() as client:
            reply = client.post("/v1/jobs", json=FOUR_FAMILIES)
            assert reply.status_code == 202, reply.text
            job_id = reply.json()["id"]
            assert stack.wait_for(job_id, timeout=240).status == "completed"
            job = client.get(f"/v1/jobs/{job_id}").json()
            listed = episodes_over_rest(client, job_id)
            assert len(listed) == job["episodes_total"] == job["progress"]["completed"] == 27
            details = [client.get(e["links"]["self"]).json() for e in listed]

            seen: dict[str, set[tuple]] = {}
            for e in details:
                seen.setdefault(e["family"], set()).add((e["policy"], e["item_key"]))
            assert {f: {p for p, _ in cases} for f, cases in seen.items()} == EXPECTED_POLICIES
            assert all(len(cases) == 3 * len(EXPECTED_POLICIES[f]) for f, cases in seen.items())
            assert all(e["status"] == "completed" and e["attempts"] == 1 for e in details)
            assert len({e["id"] for e in details}) == 27
            # both workers' pool children took episodes (they ran side by side)
            pids = set(worker_pids(stack, job_id).values())
            children = [set(descendants(w.pid)) for w in workers]
            assert all(any(p in c for c in children) for p in pids), (pids, children)
            assert all(pids & c for c in children), (pids, children)

            for e, short in zip(details, listed, strict=True):
                record = embedded(case_of(e))
                assert_equal_record(e, record)
                assert short["images"] == e["images"]  # the job's list shows them too
                if e["family"] == "layout":
                    assert e["images"] == [] and e["steps_count"] == len(record.steps)
                    assert (e["start_score"], e["final_score"]) == (record.start_score,
                                                                   record.final_score)
                else:
                    assert e["outcome"] == "ok" and e["completion"] == record.completion
                    assert_images_served(client, e, record)
            # the html oracle reproduces its reference exactly; blank earns nothing
            for e in details:
                if e["family"] == "html":
                    assert e["images"] == ["candidate", "reference"]
                    assert e["total_reward"] == (1.0 if e["policy"] == "reference" else 0.0)
        assert all(w.poll() is None for w in workers)
    finally:
        stack.close()


# --- 2. hostile completions through a worker ----------------------------------------------

def hostile_cases() -> dict[str, str]:
    """The hostile pages, by case name (imported here: the module needs Playwright)."""
    from render.test_render_hostile import CASES

    return {name: case.html for name, case in CASES.items()}


# Outcomes the render tests pin down for the same pages (the others may vary with load).
HOSTILE_EXPECTED = {"infinite_loop": ("timeout", "timeout"),
                    "alert_loop": ("render_failed", "too_many_dialogs"),
                    "huge_dom": ("render_failed", "resource_exceeded"),
                    "input_50mb": ("render_failed", "input_too_large")}
NORMAL = ("todo-app", "template")  # a shipped item and a model-free policy


def test_hostile_completions_are_scored_failures_and_the_worker_keeps_serving(
        schema, tmp_path, embedded_pool):
    hostile = hostile_cases()
    assert len(hostile) >= 17
    # One webpage item per hostile case, in a dataset the operator registered.
    pages = tmp_path / "hostile-pages.json"
    pages.write_text(json.dumps([{"id": name, "category": "app",
                                  "prompt": "A counter with a button that adds one."}
                                 for name in hostile]))
    stack = Stack(schema, DESIGNRL_EPISODE_TIME_LIMIT_S="120", DESIGNRL_RENDER_TIMEOUT_S="6",
                  DESIGNRL_DATASETS=json.dumps({"hostile-pages": str(pages)}),
                  DESIGNRL_MAX_PREDICTION_SET_BYTES=str(64 * 1024 * 1024))
    try:
        [worker] = start_workers(stack, "w1").values()
        stack.start_api()
        with stack.client() as client:
            made = client.post("/v1/prediction-sets", json={
                "name": "hostile", "items": {name: f"```html\n{html}\n```"
                                             for name, html in hostile.items()}})
            assert made.status_code == 201, made.text[:500]
            reply = client.post("/v1/jobs", json={
                "kind": "benchmark", "tasks": ["webpage-prompts"], "dataset": "hostile-pages",
                "items": list(hostile), "policies": [made.json()["policy"]]})
            assert reply.status_code == 202, reply.text
            job_id = reply.json()["id"]
            # each case costs at most its caps: a 6 s page cap, twice for the browser-hanging one
            assert stack.wait_for(job_id, timeout=240).status == "completed"
            listed = episodes_over_rest(client, job_id)
            assert sorted(e["item_key"] for e in listed) == sorted(hostile)
            pids = set(worker_pids(stack, job_id).values())
            assert len(pids) == 1, pids  # one pool child took every hostile page
            for short in listed:
                name = short["item_key"]
                assert short["status"] == "completed" and short["attempts"] == 1, short
                assert short["outcome"] in SCORED, (name, short["outcome"], short["error"])
                assert short["total_reward"] is not None and 0 <= short["total_reward"] <= 1
                if name in HOSTILE_EXPECTED:
                    assert (short["outcome"], short["error"]) == HOSTILE_EXPECTED[name], name
                    assert short["total_reward"] == 0.0
                if short["outcome"] == "ok":
                    assert short["images"] == ["candidate"], name
            detail = client.get(next(e for e in listed if e["item_key"] == "infinite_loop")
                                ["links"]["self"]).json()
            assert detail["rewards"]["loads"] == 0.0 and detail["rewards"]["execution"] == 0.0
            # a 50 MB answer is scored, not stored and served whole
            huge = client.get(next(e for e in listed if e["item_key"] == "input_50mb")
                              ["links"]["self"])
            assert len(huge.content) < 2_000_000
            assert len(huge.json()["completion"]) == MAX_STORED_COMPLETION
            assert huge.json()["summary"]["completion_chars"] > 50_000_000

            # The same process, right after: a normal page scores as the embedded path does.
            reply = client.post("/v1/jobs", json={
                "kind": "benchmark", "tasks": ["webpage-prompts"], "items": [NORMAL[0]],
                "policies": [NORMAL[1]]})
            assert reply.status_code == 202, reply.text
            assert stack.wait_for(reply.json()["id"], timeout=120).status == "completed"
            [short] = episodes_over_rest(client, reply.json()["id"])
            normal = client.get(short["links"]["self"]).json()
            assert set(worker_pids(stack, normal["job_id"]).values()) == pids
            record = embedded(case_of(normal))
            assert record.outcome == "ok" and record.total_reward > 0.5
            assert_equal_record(normal, record)
            assert_images_served(client, normal, record)
        assert worker.poll() is None, "the worker exited"
        assert alive(pids.pop()), "the pool child that scored them is gone"
    finally:
        stack.close()


# --- 3. a worker process SIGKILLed mid-render ----------------------------------------------

# A page whose load keeps the renderer busy for a while: the kill lands inside its render.
SLOW_PAGE = ("```html\n<!doctype html><html lang='en'><head><title>Slow</title></head><body>"
             "<h1>Slow page</h1><p>Loaded after a busy second or three.</p>"
             "<script>const t = Date.now(); while (Date.now() - t < 3500) {}</script>"
             "</body></html>\n```")
BUSY_CPU_S = 0.3  # CPU a renderer spends in that script before the kill


def test_a_worker_process_killed_mid_render_loses_and_duplicates_nothing(schema):
    stack = Stack(schema, DESIGNRL_EPISODE_TIME_LIMIT_S="120")
    try:
        workers = start_workers(stack, "w1", "w2")
        stack.start_api()
        with stack.client() as client:
            made = client.post("/v1/prediction-sets", json={
                "name": "slow", "items": {item: SLOW_PAGE for item in PAGES}})
            assert made.status_code == 201, made.text
            slow = made.json()["policy"]
            reply = client.post("/v1/jobs", json={
                "kind": "benchmark", "tasks": ["webpage-prompts"], "items": PAGES,
                "policies": ["template", slow]})
            assert reply.status_code == 202, reply.text
            job_id = reply.json()["id"]

            # A slow page's episode whose pool child has a renderer busy with its script:
            # the page is being rendered (pool pages at rest use no CPU).
            baseline: dict[int, float] = {}

            def rendering() -> tuple[str, int] | None:
                with stack.sessions() as session:
                    running = session.execute(select(Episode.id, Episode.worker).where(
                        Episode.job_id == job_id, Episode.status == "running",
                        Episode.policy == slow)).all()
                for episode_id, worker in running:
                    pid = int(worker.split(":")[1])
                    for renderer in renderers_under(pid):
                        used = cpu_seconds(renderer)
                        if used - baseline.setdefault(renderer, used) >= BUSY_CPU_S:
                            return episode_id, pid
                return None

            victim_episode, victim = poll(rendering, 120, "a slow page rendering")
            parent = next(n for n, w in workers.items() if victim in descendants(w.pid))
            browsers = browsers_under(victim)
            assert browsers
            os.kill(victim, signal.SIGKILL)  # the pool child alone, mid-render

            assert stack.wait_for(job_id, timeout=180).status == "completed"
            listed = episodes_over_rest(client, job_id)
            assert len(listed) == 6 and len({e["id"] for e in listed}) == 6
            assert sorted((e["item_key"], e["policy"]) for e in listed) == sorted(
                (i, p) for i in PAGES for p in ("template", slow))
            for e in listed:
                assert e["status"] == "completed" and e["outcome"] == "ok", e
                assert e["attempts"] == (2 if e["id"] == victim_episode else 1), e
                assert e["images"] == ["candidate"]
            killed = client.get(f"/v1/episodes/{victim_episode}").json()
            assert worker_pids(stack, job_id)[victim_episode] != victim  # another ran it

            # written once: one row per component and per image, however often it ran
            for e in listed:
                detail = client.get(e["links"]["self"]).json()
                assert count_rows(stack, RewardComponent, e["id"]) == len(detail["rewards"])
                assert count_rows(stack, Artifact, e["id"]) == len(detail["images"])
            with stack.sessions() as session:
                rows = session.scalar(select(func.count()).select_from(Episode)
                                      .where(Episode.job_id == job_id))
            assert rows == 6

            # the rerun scored the slow page as the embedded path does
            context = EpisodeContext(predictions=lambda _set, _item: SLOW_PAGE)
            try:
                record = embedded(case_of(killed), context)
            finally:
                close_process_runner()
            assert_equal_record(killed, record)

        # Celery replaced the pool child; both workers live on, and the killed child's
        # Chromium did not outlive it.
        assert all(w.poll() is None for w in workers.values()), parent
        poll(lambda: not [p for p in browsers if alive(p)], 20,
             "the killed process's Chromium to exit")
    finally:
        stack.close()
