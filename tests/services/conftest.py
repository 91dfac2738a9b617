"""The ``api`` fixture: the API app in process (``TestClient``) against a fresh Postgres
schema reached through a proxy a test can cut, a private Redis queue, and four keys
(alice and bob: users; root: admin; viewer: reader); ``served``: a real OpenAI-compatible
server the API checks ``vllm:`` policies against (it serves ``policy`` and ``policy-v2``)."""

from __future__ import annotations

import uuid

import pytest
from db_support import REDIS_URL, postgres_schema
from fastapi.testclient import TestClient
from inference_support import ModelServer
from redis import Redis
from sqlalchemy.engine import make_url
from tcp_proxy import TcpProxy

from designrl.store import make_engine, make_sessionmaker, upgrade
from designrl.store.keys import create_api_key
from services.api.main import create_app
from services.api.settings import ApiSettings


class Api:
    def __init__(self, client: TestClient, keys: dict[str, str], sessions, redis: Redis,
                 queue: str, proxy: TcpProxy) -> None:
        self.client, self.keys, self.sessions = client, keys, sessions
        self.redis, self.queue, self.proxy = redis, queue, proxy

    def call(self, method: str, path: str, key: str | None = "alice", headers=None, **kwargs):
        headers = {**({"X-API-Key": self.keys[key]} if key else {}), **(headers or {})}
        return self.client.request(method, path, headers=headers, **kwargs)


@pytest.fixture
def api():
    with postgres_schema() as url:
        upgrade(url)
        target = make_url(url)
        proxy = TcpProxy((target.host, target.port or 5432))
        proxied = target.set(port=proxy.port).render_as_string(hide_password=False)
        sessions = make_sessionmaker(make_engine(url))
        with sessions() as session:
            keys = {name: create_api_key(session, name, role) for name, role in
                    (("alice", "user"), ("bob", "user"), ("root", "admin"),
                     ("viewer", "reader"))}
        queue = f"test-api-{uuid.uuid4().hex[:8]}"
        settings = ApiSettings(database_url=proxied, redis_url=REDIS_URL, queue=queue,
                               reconcile_every_s=0, max_body_bytes=20_000,
                               key_jobs_per_minute=100_000)  # quota tests lower it
        redis = Redis.from_url(REDIS_URL)
        try:
            with TestClient(create_app(settings)) as client:
                yield Api(client, keys, sessions, redis, queue, proxy)
        finally:
            redis.delete(queue)
            redis.close()
            proxy.close()
            sessions.kw["bind"].dispose()


@pytest.fixture
def served(api):
    with ModelServer(["policy", "policy-v2"]) as server:
        api.client.app.state.settings.inference_url = server.url
        api.client.app.state.served_models = None  # no list cached from before
        yield server
