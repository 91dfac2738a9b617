"""The layout env server: OpenEnv's wire protocol over HTTP and WebSocket.

In-process tests drive the ASGI app through Starlette's httpx-based TestClient;
the ``integration`` tests start the real server (uvicorn, a child process) on a
loopback port and drive it with the real ``openenv`` client subclass.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from designrl.tasks.layout.env import LayoutEnv
from services.layout_env.app import MAX_MESSAGE_BYTES, create_app, dumps

REPO = Path(__file__).resolve().parents[2]
TASKS = ("poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1", "gen-poster", "gen-slide",
         "gen-mobile")
FINALIZE = {"action_type": "finalize"}


def move(element_id: str, dx: float) -> dict:
    return {"action_type": "move", "element_id": element_id, "dx": dx, "dy": 0.0}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_sessions=4)) as c:
        yield c


# --- HTTP ---------------------------------------------------------------------------------


def test_health_schema_metadata(client):
    assert client.get("/health").json() == {"status": "healthy"}
    schema = client.get("/schema").json()
    assert {"action", "observation", "state"} <= set(schema)
    action_types = {s["properties"]["action_type"]["const"]
                    for s in schema["action"]["$defs"].values() if "action_type" in s.get("properties", {})}
    assert {"move", "finalize", "swap_z"} <= action_types and len(action_types) == 11
    assert "last_action_error" in schema["observation"]["properties"]
    assert {"episode_id", "step_count"} <= set(schema["state"]["properties"])
    meta = client.get("/metadata").json()
    assert isinstance(meta["name"], str) and isinstance(meta["description"], str)
    assert "task_id" in meta["readme_content"]


def test_reset_shape_and_arguments(client):
    body = client.post("/reset", json={"task_id": "gen-poster", "seed": 7, "episode_id": "ep-1"}).json()
    assert set(body) >= {"observation", "reward", "done"}
    assert body["reward"] is None and body["done"] is False
    obs = body["observation"]
    assert "reward" not in obs and "done" not in obs  # OpenEnv puts them beside the observation
    assert obs["task_id"] == "gen-poster" and obs["seed"] == 7 and obs["elements"]
    assert obs["metadata"]["episode_id"] == "ep-1" == body["metadata"]["episode_id"]
    # An empty body (or none) is a reset to the default task with seed 0.
    assert client.post("/reset").json()["observation"]["seed"] == 0
    assert client.post("/reset", json={}).status_code == 200


def test_reset_rejects_bad_arguments_readably(client):
    for body, needle in (({"taskid": "gen-poster"}, "taskid"), ({"task_id": "nope"}, "gen-poster"),
                         ({"seed": -1}, "greater than"), ({"seed": "x"}, "integer")):
        r = client.post("/reset", json=body)
        assert r.status_code == 422, body
        assert needle in r.text


def test_http_is_stateless(client):
    """A fresh env per call: identical calls give identical answers, nothing accumulates."""
    first = client.post("/reset", json={"task_id": "poster_basic_v1", "seed": 2}).json()
    element = first["observation"]["elements"][0]["id"]
    request = {"action": move(element, 0.02), "task_id": "poster_basic_v1", "seed": 2}
    a, b = (client.post("/step", json=request).json() for _ in range(2))
    assert a["observation"]["step_count"] == b["observation"]["step_count"] == 1
    assert a["observation"]["elements"] == b["observation"]["elements"]
    assert a["reward"] == b["reward"] and isinstance(a["reward"], float)
    state = client.get("/state").json()
    assert state["step_count"] == 0 and state["episode_id"] is None


def test_http_step_invalid_action_is_a_recorded_step(client):
    """Not a 422: the policy gets an observation saying what was wrong, and a penalty."""
    for action in ({"action_type": "teleport"}, {"action_type": "move", "element_id": "title", "dx": 9},
                   "not json at all", [1, 2], None):
        r = client.post("/step", json={"action": action})
        assert r.status_code == 200, action
        obs = r.json()["observation"]
        assert obs["last_action_error"], action
        assert obs["invalid_actions"] == 1 and obs["step_count"] == 1
        assert r.json()["reward"] < 0
    # The raw model text of a valid action is parsed; OpenEnv's Action.metadata is ignored.
    for action in (json.dumps(FINALIZE), {**FINALIZE, "metadata": {}}):
        body = client.post("/step", json={"action": action}).json()
        assert body["observation"]["last_action_error"] is None and body["done"] is True


def test_http_step_envelope_errors(client):
    assert client.post("/step", json={}).status_code == 422  # no action
    assert client.post("/step", json={"action": FINALIZE, "bogus": 1}).status_code == 422
    r = client.post("/step", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_oversize_body_gets_413(client):
    big = {"action": {"action_type": "move", "element_id": "x" * (MAX_MESSAGE_BYTES + 10)}}
    r = client.post("/step", json=big)
    assert r.status_code == 413 and "limit" in r.json()["detail"]

    def chunks():  # no content-length: the limit is enforced while reading
        for _ in range(20):
            yield b" " * 8192
    r = client.post("/reset", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get("/health").status_code == 200


def test_dumps_never_writes_nan():
    assert dumps({"reward": float("nan"), "m": [float("inf"), 1.5]}) == '{"reward":null,"m":[null,1.5]}'


def test_manifest_parses_with_openenv():
    parser = pytest.importorskip("openenv.validation.parsers.openenv_yaml")
    manifest = parser.OpenEnvYamlParser().parse(REPO / "services" / "layout_env")
    assert manifest.name == "layout_env"


# --- WebSocket, in process -------------------------------------------------------------------


def send(ws, message) -> dict:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    return ws.receive_json()


def test_ws_episode(client):
    with client.websocket_connect("/ws") as ws:
        first = send(ws, {"type": "reset", "data": {"task_id": "gen-slide", "seed": 5}})
        assert first["type"] == "observation" and first["data"]["reward"] is None
        element = first["data"]["observation"]["elements"][0]["id"]
        step = send(ws, {"type": "step", "data": move(element, 0.01)})["data"]
        assert step["done"] is False and math.isfinite(step["reward"])
        bad = send(ws, {"type": "step", "data": {"action_type": "move", "element_id": "ghost"}})["data"]
        assert bad["observation"]["last_action_error"] and bad["reward"] < 0
        state = send(ws, {"type": "state"})
        assert state["type"] == "state" and state["data"]["step_count"] == 2
        assert state["data"]["task_id"] == "gen-slide" and state["data"]["invalid_actions"] == 1
        assert state["data"]["episode_id"] == first["data"]["metadata"]["episode_id"]
        last = send(ws, {"type": "step", "data": FINALIZE})["data"]
        assert last["done"] is True
        # A new reset on the same socket starts a new episode.
        again = send(ws, {"type": "reset", "data": {"seed": 1}})["data"]
        assert again["observation"]["step_count"] == 0 and again["done"] is False
        ws.send_text(json.dumps({"type": "close"}))
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


@pytest.mark.parametrize("frame, code, needle", [
    ("{not json", "INVALID_JSON", "Invalid JSON"),
    ('["reset"]', "VALIDATION_ERROR", "JSON object"),
    ('{"type": "teleport"}', "UNKNOWN_TYPE", "teleport"),
    ('{"data": {}}', "UNKNOWN_TYPE", "expected one of"),
    ('{"type": "reset", "data": {"seed": -3}}', "VALIDATION_ERROR", "seed"),
    ('{"type": "reset", "data": {"taskid": "gen-poster"}}', "VALIDATION_ERROR", "taskid"),
    ('{"type": "reset", "data": {"task_id": "nope"}}', "VALIDATION_ERROR", "known:"),
    ('{"type": "reset", "data": [1]}', "VALIDATION_ERROR", "reset"),
    ('{"type": "step"}', "VALIDATION_ERROR", "data"),
    ('{"type": "state", "extra": 1}', "VALIDATION_ERROR", "extra"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "VALIDATION_ERROR", "limit"),
])
def test_ws_protocol_errors_keep_the_session(client, frame, code, needle):
    with client.websocket_connect("/ws") as ws:
        reply = send(ws, frame)
        assert reply["type"] == "error" and reply["data"]["code"] == code
        assert needle in reply["data"]["message"]
        assert send(ws, {"type": "reset"})["type"] == "observation"  # still usable


def test_ws_binary_frames_and_step_before_reset(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_bytes(json.dumps({"type": "step", "data": FINALIZE}).encode())
        reply = ws.receive_json()  # the env resets itself to the default task first
        assert reply["type"] == "observation" and reply["data"]["done"] is True
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["data"]["code"] == "INVALID_JSON"


def test_ws_capacity_and_release():
    with TestClient(create_app(max_sessions=2)) as c:
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            for ws in (a, b):
                assert send(ws, {"type": "reset"})["type"] == "observation"
            with c.websocket_connect("/ws") as refused:
                reply = refused.receive_json()
                assert reply["data"]["code"] == "CAPACITY_REACHED"
                assert reply["data"]["max_sessions"] == 2
                with pytest.raises(WebSocketDisconnect):
                    refused.receive_json()
        with c.websocket_connect("/ws") as ws:  # slots come back when sockets close
            assert send(ws, {"type": "reset"})["type"] == "observation"
        assert c.app.state.sessions["active"] == 0


def test_ws_env_failure_is_execution_error(monkeypatch):
    def boom(self, action):
        raise RuntimeError("renderer fell over")

    with TestClient(create_app(max_sessions=1)) as c, c.websocket_connect("/ws") as ws:
        send(ws, {"type": "reset"})
        monkeypatch.setattr(LayoutEnv, "step", boom)
        reply = send(ws, {"type": "step", "data": FINALIZE})
        assert reply["data"]["code"] == "EXECUTION_ERROR" and "fell over" in reply["data"]["message"]
        monkeypatch.undo()
        assert send(ws, {"type": "state"})["type"] == "state"


def test_designgym_profile_is_served():
    with pytest.raises(ValueError, match="profile"):
        create_app(profile="nope")
    with TestClient(create_app(profile="designgym")) as c, c.websocket_connect("/ws") as ws:
        first = send(ws, {"type": "reset", "data": {"task_id": "dense_flyer_v1", "seed": 2}})["data"]
        assert first["observation"]["profile"] == "designgym"
        bad = send(ws, {"type": "step", "data": {"action_type": "teleport"}})["data"]
        assert bad["observation"]["last_action_error"] and bad["observation"]["invalid_actions"] == 1
        assert send(ws, {"type": "step", "data": FINALIZE})["data"]["done"] is True


def test_ws_idle_timeout():
    with TestClient(create_app(idle_timeout_s=0.2)) as c, c.websocket_connect("/ws") as ws:
        reply = ws.receive_json()
        assert reply["data"]["code"] == "SESSION_ERROR" and "idle" in reply["data"]["message"]


# --- the real server and the real openenv client ---------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.layout_env.app", "--host", "127.0.0.1", "--port", str(port),
         "--max-sessions", "80", "--log-level", "warning"],
        cwd=REPO, env={**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"server did not start:\n{proc.communicate()[0]}")
        time.sleep(0.1)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


SESSIONS = 64
MOVES = 4


async def _episode(url: str, index: int, barrier: asyncio.Barrier) -> dict:
    from designrl.tasks.layout.client import LayoutEnvClient

    task_id, seed = TASKS[index % len(TASKS)], 100 + index
    async with LayoutEnvClient(base_url=url) as env:
        result = await env.reset(task_id=task_id, seed=seed)
        assert result.reward is None and not result.done
        assert result.observation.task_id == task_id and result.observation.seed == seed
        await barrier.wait()  # all sessions are open at once here
        element = result.observation.elements[0].id
        rewards, steps = [], 0
        while not result.done:
            action = FINALIZE if steps >= MOVES else move(element, 0.01 if steps % 2 == 0 else -0.01)
            result = await env.step(action)
            steps += 1
            rewards.append(result.reward)
        state = await env.state()
        return {"rewards": rewards, "steps": steps, "last": result.observation, "state": state,
                "episode_id": result.observation.metadata["episode_id"]}


@pytest.mark.integration
def test_64_concurrent_sessions_with_the_openenv_client(server_url):
    async def main():
        barrier = asyncio.Barrier(SESSIONS)
        return await asyncio.gather(*(_episode(server_url, i, barrier) for i in range(SESSIONS)))

    start = time.perf_counter()
    results = asyncio.run(main())
    elapsed = time.perf_counter() - start
    print(f"\n{SESSIONS} concurrent sessions, {sum(r['steps'] for r in results)} steps: {elapsed:.2f} s")
    assert len({r["episode_id"] for r in results}) == SESSIONS
    for r in results:
        assert r["last"].done and 1 <= r["steps"] <= MOVES + 1
        assert all(isinstance(x, float) and math.isfinite(x) and -10 < x < 10 for x in r["rewards"])
        assert r["state"].step_count == r["steps"] and r["state"].done
        assert r["state"].episode_id == r["episode_id"]
    assert elapsed < 45


@pytest.mark.integration
def test_sync_client_and_errors_over_a_real_socket(server_url):
    from designrl.tasks.layout.actions import Finalize
    from designrl.tasks.layout.client import LayoutEnvClient

    with LayoutEnvClient(base_url=server_url).sync() as env:
        first = env.reset(task_id="gen-banner", seed=3)
        assert first.observation.elements and first.metadata["episode_id"]
        bad = env.step('{"action_type": "move", "element_id": ')  # truncated model output
        assert bad.observation.last_action_error and bad.reward < 0 and not bad.done
        with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
            env.reset(task_id="no-such-task")
        last = env.step(Finalize())  # the session survived the protocol error
        assert last.done and last.observation.last_action_error is None
        assert env.state().step_count == 2


@pytest.mark.integration
def test_raw_websocket_and_http_error_paths(server_url):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    ws_url = server_url.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as ws:
        for frame, code in (("{oops", "INVALID_JSON"), ('{"type": "render"}', "UNKNOWN_TYPE"),
                            ("1" * (MAX_MESSAGE_BYTES + 1), "VALIDATION_ERROR")):
            ws.send(frame)
            reply = json.loads(ws.recv(timeout=10))
            assert reply == {"type": "error", "data": reply["data"]} and reply["data"]["code"] == code
        ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
        assert json.loads(ws.recv(timeout=10))["type"] == "observation"
    with connect(ws_url, max_size=None) as ws:  # an absurd frame ends that socket, not the server
        ws.send("x" * (8 << 20))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1009  # message too big
    def chunks():  # a streamed (chunked) oversize body is refused while it is read
        for _ in range(100):
            yield b" " * 8192
    r = httpx.post(f"{server_url}/reset", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["detail"]
    assert httpx.get(f"{server_url}/health").json() == {"status": "healthy"}


@pytest.mark.integration
def test_openenv_runtime_validator_passes(server_url):
    validation = pytest.importorskip("openenv.cli._validation")
    report = validation.validate_running_environment(server_url)
    assert report["passed"], [c for c in report["criteria"] if not c["passed"]]
    assert report["mode"] == "simulation"


def test_the_server_follows_the_pure_python_setting():
    # As the API and the workers do: DESIGNRL_PURE_PYTHON (or --pure-python) scores layouts
    # without the C extension, for the app uvicorn loads by name and for main's.
    code = ("from services.layout_env.app import app; "
            "from designrl.tasks.layout import metrics; "
            "print(metrics.native_available(), metrics.native_active())")
    for value, active in (("1", "False"), ("0", None)):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "DESIGNRL_PURE_PYTHON": value}, check=True,
                             cwd=Path(__file__).resolve().parents[2], timeout=60)
        available, now = out.stdout.split()
        assert now == (active or available)
    from designrl.tasks.layout import metrics

    try:
        create_app(pure_python=True)
        assert not metrics.native_active()
    finally:
        metrics.use_native(True)
