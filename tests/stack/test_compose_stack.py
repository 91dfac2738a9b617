"""The compose stack as people run it: podman-compose up with three renderers on the images
`make images` built, migrations applied, /readyz green, Prometheus scraping each renderer
replica through DNS discovery, and a four-family benchmark over REST that scores what
the embedded run scores. Marked ``stack`` and left out of the default run (the images take
minutes to build): ``make images && pytest -m stack``. CI runs the four marked ``smoke``
after ``make test`` (``make stack-smoke``); the fault scenarios' figures are in
bench/RESULTS.md."""

from __future__ import annotations

import ast
import json
import subprocess
import time
from datetime import UTC, datetime

import httpx
import pytest
from compose_support import ComposeStack

from designrl.rollout.episode import EpisodeSpec, run_episode_spec

pytestmark = pytest.mark.stack

JOB = {"kind": "benchmark", "tasks": ["gen-poster", "gen-html", "gen-svg", "webpage-prompts"],
       "seeds": [1_000_000], "items": ["todo-app"],
       "policies": ["expert", "reference", "template"]}


@pytest.fixture(scope="module")
def stack():
    stack = ComposeStack()
    started = time.monotonic()
    try:
        stack.up(renderers=3)
        stack.ready = stack.wait_ready()
        stack.up_s = time.monotonic() - started
        yield stack
    finally:
        stack.down()


@pytest.fixture(scope="module")
def client(stack):
    key = stack.exec("api", "designrl", "api-key", "create", "stack-test", "--role",
                     "admin").strip().splitlines()[-1]
    with httpx.Client(base_url=stack.api, headers={"X-API-Key": key}, timeout=30) as client:
        yield client


@pytest.mark.smoke
def test_the_stack_comes_up_with_three_renderers(stack):
    assert stack.ready["database"] == stack.ready["broker"] == "ok"
    assert len(stack.containers("renderer")) == 3
    print(f"stack up and ready in {stack.up_s:.0f} s")


@pytest.mark.smoke
def test_prometheus_scrapes_each_renderer_replica(stack):
    deadline = time.monotonic() + 90  # the first scrape comes within one 15 s interval
    while time.monotonic() < deadline:
        targets = stack.renderer_targets()
        if len(targets) == 3 and all(t["health"] == "up" for t in targets):
            return
        time.sleep(3)
    raise AssertionError(f"renderer targets: {[(t['scrapeUrl'], t['health']) for t in targets]}")


@pytest.mark.smoke
def test_a_four_family_benchmark_scores_what_the_embedded_run_scores(client):
    started = time.monotonic()
    job = client.post("/v1/jobs", json=JOB)
    assert job.status_code == 202, job.text
    job = job.json()
    while job["status"] in ("queued", "running") and time.monotonic() - started < 600:
        time.sleep(2)
        job = client.get(f"/v1/jobs/{job['id']}").json()
    assert job["status"] == "completed", job
    episodes = client.get(f"/v1/jobs/{job['id']}/episodes").json()["items"]
    assert {e["family"] for e in episodes} == {"layout", "html", "svg", "webpage"}
    print(f"benchmark of {len(episodes)} episodes in {time.monotonic() - started:.0f} s")
    for e in episodes:
        assert e["outcome"] == "ok", e
        embedded = run_episode_spec(EpisodeSpec(
            family=e["family"], task_id=e["task_id"], policy=e["policy"], seed=e["seed"],
            item_key=None if e["seed"] is not None else e["item_key"], profile=e["profile"]))
        assert e["total_reward"] == pytest.approx(embedded.total_reward, abs=1e-6), e


@pytest.mark.smoke
def test_the_learner_image_starts_and_imports_its_trainer():
    """GPU-free: the learner's own image has the train extra its service imports."""
    run = subprocess.run(
        ["podman", "run", "--rm", "localhost/designrl-learner:latest", "python", "-c",
         "from trl import GRPOTrainer; import peft, services.learner.main; print('ok')"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]


def wait_for(client, job_id: str, timeout: float) -> dict:
    """The job once it has ended; a 503 while the database is away counts as not yet."""
    deadline = time.monotonic() + timeout
    job = {"status": "unknown"}
    while job.get("status") in ("unknown", "queued", "running") and \
            time.monotonic() < deadline:
        reply = client.get(f"/v1/jobs/{job_id}")
        job = reply.json() if reply.status_code == 200 else {"status": "unknown"}
        time.sleep(2)
    return job


def submit_until_running(client, seeds: list[int]) -> tuple[dict, float]:
    """A gen-html job of ``seeds`` (``reference``) submitted, once one of its episodes
    runs: the job and when it was submitted."""
    job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-html"],
                                        "seeds": seeds, "policies": ["reference"]}).json()
    started = time.monotonic()
    while not any(e["status"] == "running" for e in client.get(
            f"/v1/jobs/{job['id']}/episodes").json()["items"]):
        assert time.monotonic() - started < 60, "no episode started"
        time.sleep(0.5)
    return job, started


def test_a_renderer_killed_mid_episode_loses_and_duplicates_nothing(stack, client):
    """The container goes outright (SIGKILL): the API's reconciler takes its episode back
    once its heartbeat lapses, a live renderer runs it, and it is written once."""
    seeds = list(range(1_000_000, 1_000_012))
    job, started = submit_until_running(client, seeds)
    victim = stack.containers("renderer")[0]
    subprocess.run(["podman", "kill", victim], check=True, capture_output=True)
    try:
        job = wait_for(client, job["id"], timeout=400)
    finally:
        subprocess.run(["podman", "start", victim], capture_output=True)
    episodes = client.get(f"/v1/jobs/{job['id']}/episodes").json()["items"]
    print(f"killed {victim}: job {job['status']} in {time.monotonic() - started:.0f} s; "
          f"{len(episodes)} episodes of {len(seeds)}, {len({e['id'] for e in episodes})} "
          f"distinct, attempts {sorted(e['attempts'] for e in episodes)}")
    assert job["status"] == "completed", job
    assert sorted(e["seed"] for e in episodes) == seeds  # none lost, none twice
    assert all(e["status"] == "completed" and e["outcome"] == "ok" for e in episodes)


def check_written_once(client, job: dict, seeds: list[int], what: str, started: float) -> None:
    episodes = client.get(f"/v1/jobs/{job['id']}/episodes").json()["items"]
    print(f"{what}: job {job['status']} in {time.monotonic() - started:.0f} s; "
          f"{len(episodes)} episodes of {len(seeds)}, {len({e['id'] for e in episodes})} "
          f"distinct, attempts {sorted(e['attempts'] for e in episodes)}")
    odd = [(e["seed"], e["status"], e["outcome"], e["attempts"], e["seconds"], e["error"])
           for e in episodes if e["status"] != "completed" or e["outcome"] != "ok"]
    assert job["status"] == "completed", (job, odd)
    assert sorted(e["seed"] for e in episodes) == seeds  # none lost, none twice
    assert not odd


def test_renderers_scaled_3_1_3_while_a_job_runs(stack, client):
    """Two renderers stopped as a scale-down stops them (SIGTERM: the episode in hand
    finishes or goes back to the queue), then started again."""
    seeds = list(range(1_000_100, 1_000_112))
    job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-html"],
                                        "seeds": seeds, "policies": ["reference"]}).json()
    started = time.monotonic()
    time.sleep(5)
    gone = stack.containers("renderer")[1:]
    subprocess.run(["podman", "stop", "-t", "60", *gone], check=True, capture_output=True)
    time.sleep(10)
    subprocess.run(["podman", "start", *gone], check=True, capture_output=True)
    check_written_once(client, wait_for(client, job["id"], timeout=400), seeds,
                       "renderers 3 -> 1 -> 3", started)


def test_postgres_stopped_for_20_s_during_a_job(stack, client):
    seeds = list(range(1_000_200, 1_000_212))
    job = client.post("/v1/jobs", json={"kind": "benchmark", "tasks": ["gen-html"],
                                        "seeds": seeds, "policies": ["reference"]}).json()
    started = time.monotonic()
    time.sleep(5)
    postgres = stack.containers("postgres")
    subprocess.run(["podman", "stop", *postgres], check=True, capture_output=True)
    time.sleep(20)
    subprocess.run(["podman", "start", *postgres], check=True, capture_output=True)
    check_written_once(client, wait_for(client, job["id"], timeout=500), seeds,
                       "postgres stopped 20 s", started)


def tasks_left(stack) -> list[str]:
    """The episodes of the tasks still in Redis: queued, or taken and never acknowledged (a
    task that ended while Redis was down could not be; a worker's sweep restores it after
    the visibility timeout, 15 min, and it is skipped if its episode is finished)."""
    def values(*args: str) -> list[str]:
        return [v for v in stack.exec("redis", "redis-cli", *args).splitlines() if v.strip()]

    messages = ([json.loads(v) for v in values("lrange", "episodes", "0", "-1")]
                + [json.loads(v)[0] for v in values("hvals", "unacked")])
    return [ast.literal_eval(m["headers"]["argsrepr"])[0] for m in messages]


def tasks_received_since(stack, since: float) -> dict[str, int]:
    """How many episode tasks each renderer took since ``since`` (a Unix time): its log."""
    stamp = datetime.fromtimestamp(since, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    taken = {}
    for name in stack.containers("renderer"):
        logs = subprocess.run(["podman", "logs", "--since", stamp, name], capture_output=True,
                              text=True, check=True)
        taken[name] = (logs.stdout + logs.stderr).count("] received")
    return taken


def restart_redis(stack, *, empty: bool) -> None:
    """``podman restart`` (SIGTERM: Redis writes its append-only file, and loads it again);
    ``empty``: stopped, its volume's files removed, started, as a Redis without
    persistence (or given a new volume) comes back."""
    redis = stack.containers("redis")
    if not empty:
        subprocess.run(["podman", "restart", *redis], check=True, capture_output=True)
        return
    subprocess.run(["podman", "stop", *redis], check=True, capture_output=True)
    subprocess.run(["podman", "run", "--rm", "-v", f"{stack.project}_redis-data:/data",
                    "localhost/designrl-redis:bookworm", "sh", "-c", "rm -rf /data/*"],
                   check=True, capture_output=True, timeout=120)
    subprocess.run(["podman", "start", *redis], check=True, capture_output=True)


@pytest.mark.parametrize("empty", [False, True], ids=["aof-kept", "empty"])
def test_redis_restarted_during_a_job(stack, client, empty):
    """Redis (broker) restarted while episodes run and wait: kept, the renderers reconnect
    to the same queue; empty, the queued tasks are gone and the API's reconciler, seeing
    its broker mark gone, enqueues them again on its next pass (30 s). Every renderer,
    busy during the restart or not, takes episodes after it."""
    seeds = list(range(1_000_300 + 100 * empty, 1_000_324 + 100 * empty))
    job, started = submit_until_running(client, seeds)
    at_fault = client.get(f"/v1/jobs/{job['id']}/episodes").json()["items"]
    waiting = {e["id"] for e in at_fault if e["status"] == "queued"}
    fault, fault_time = time.monotonic(), time.time()
    restart_redis(stack, empty=empty)
    stack.wait_healthy("redis")
    back = time.monotonic()
    while waiting and all(e["status"] == "queued" for e in client.get(
            f"/v1/jobs/{job['id']}/episodes").json()["items"] if e["id"] in waiting):
        assert time.monotonic() - back < 400, "no queued episode ever started"
        time.sleep(0.5)
    resumed = time.monotonic()
    job = wait_for(client, job["id"], timeout=400)
    states = [e["status"] for e in at_fault]
    print(f"redis restarted {'empty' if empty else 'with its AOF'} at "
          f"{states.count('queued')} queued, {states.count('running')} running, "
          f"{states.count('completed')} completed, {fault - started:.0f} s in; down "
          f"{back - fault:.0f} s; queued "
          f"ones resumed {resumed - back:.0f} s after; job {job['status']} "
          f"{time.monotonic() - back:.0f} s after")
    check_written_once(client, job, seeds, f"redis restarted ({'empty' if empty else 'kept'})",
                       started)
    left, taken = tasks_left(stack), tasks_received_since(stack, fault_time)
    print(f"tasks left in Redis: {len(left)}; taken after the restart: {taken}")
    for episode_id in left:  # this job's or an earlier fault's: finished, so skipped
        episode = client.get(f"/v1/episodes/{episode_id}").json()
        assert episode["status"] in ("completed", "failed", "cancelled"), episode
    assert all(taken.values()), f"a renderer took nothing after the restart: {taken}"
