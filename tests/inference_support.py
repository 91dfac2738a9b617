"""A tiny real OpenAI-compatible server for tests: ``GET /v1/models`` lists ``models``,
and ``POST /v1/chat/completions`` answers as vLLM does for a model it does not serve
(404, ``NotFoundError``), so the OpenAI client raises ``openai.NotFoundError``."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from json_handler import JsonHandler


class ModelServer:
    def __init__(self, models: list[str]) -> None:
        self.models = list(models)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ModelServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(JsonHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                if self.path != "/v1/models":
                    self._send(404, {"detail": "Not Found"})
                    return
                self._send(200, {"object": "list", "data": [
                    {"id": m, "object": "model", "owned_by": "vllm"} for m in server.models]})

            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                self._send(404, {"object": "error", "type": "NotFoundError", "code": 404,
                                 "message": f"The model `{body.get('model')}` does not exist."})

        return Handler
