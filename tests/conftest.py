"""Fixtures shared across test folders."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from json_handler import JsonHandler

# One thread per torch process, here and in every process a test starts (set before torch
# is imported). The tiny model's matrices are too small to share: beside the suite's
# browsers and servers, two threads spin-waiting on two cores made SFT steps 2.4-5 times
# slower than one thread, to the same losses.
os.environ.setdefault("OMP_NUM_THREADS", "1")


@dataclass
class ChatServer:
    """A real local HTTP endpoint speaking OpenAI's chat-completions JSON. The model name
    picks the reply from ``replies``; a reply of None answers HTTP 500, and a function of
    the request's body gives the reply (or None) per request."""

    url: str
    replies: dict[str, str | None | Callable[[dict], str | None]]
    requests: list[dict] = field(default_factory=list)


def _handler(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(JsonHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            server.requests.append({"path": self.path, "body": body,
                                    "auth": self.headers.get("Authorization")})
            reply = server.replies[body["model"]]
            if callable(reply):
                reply = reply(body)
            if reply is None:
                self._send(500, {"error": {"message": "boom", "type": "server_error"}})
                return
            self._send(200, {
                "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": reply}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            })

    return Handler


@pytest.fixture(scope="module")
def chat_server(request) -> Iterator[ChatServer]:
    """A chat endpoint answering with the test module's ``REPLIES``."""
    pytest.importorskip("openai")
    state = ChatServer(url="", replies=request.module.REPLIES)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> str:
    """The tiny test model (``designrl model tiny``), built once per test session."""
    pytest.importorskip("torch")
    from designrl.models.tiny import build_tiny_model

    return str(build_tiny_model(tmp_path_factory.mktemp("tiny-model"), seed=0))


@pytest.fixture(scope="session")
def sft_tiny_model(tiny_model, tmp_path_factory) -> str:
    """The tiny model after a short SFT on the expert's answers (posters, twelve seeds):
    greedy, its answers are valid actions; sampled, only some are, so sampled groups carry
    signal for GRPO."""
    from designrl.learner.sft import SFTSettings, train_sft
    from designrl.learner.sft_data import expert_examples, write_jsonl

    data = tmp_path_factory.mktemp("sft-data") / "sft.jsonl"
    write_jsonl(expert_examples(["gen-poster"], seeds=range(12)), data)
    out = tmp_path_factory.mktemp("sft-model")
    settings = SFTSettings(epochs=12, batch_size=8, learning_rate=5e-3)
    return str(train_sft(tiny_model, data, out, settings))


@pytest.fixture(scope="session")
def svg_sft_model(tiny_model, tmp_path_factory) -> str:
    """The tiny model fine-tuned on three gen-svg items (``svg_sft_support``): sampled, its
    completions are expert drawings, random ones or invalid SVG. Built once per session."""
    from svg_sft_support import train_svg_sft_model

    return train_svg_sft_model(tiny_model, tmp_path_factory.mktemp("svg-sft"),
                               tmp_path_factory.mktemp("svg-model"))


@pytest.fixture(scope="module")
def runner(request):
    """One browser pool per test module (1 browser); the module may set ``POOL_PAGES``
    (default 4) and the per-job limit ``POOL_TIMEOUT_S`` (default 10 s)."""
    from browser_support import PoolRunner, require_chromium

    require_chromium()
    runner = PoolRunner(run_timeout=120.0, browsers=1,
                        pages_per_browser=getattr(request.module, "POOL_PAGES", 4),
                        timeout_s=getattr(request.module, "POOL_TIMEOUT_S", 10.0))
    yield runner
    runner.close()
