"""The web UI in real Chromium: one stack for the session (the API process and one worker
on a fresh Postgres schema and a private queue), one browser, and a page per test at a
desktop (1280×800) or phone (390×844) viewport with the API key already entered.

Screenshots land in ``artifacts/ui/`` (``DESIGNRL_UI_ARTIFACTS`` moves them); a page that
throws, logs a console error or breaks the CSP fails its test.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_support import require_chromium
from db_support import postgres_schema
from learner_run_support import (
    COMPLETIONS,
    write_adapter_store,
    write_drawn_run,
    write_learner_run,
    write_samples,
)
from llm_episode_support import store_llm_episode
from redis import Redis
from stack_support import Stack
from ui_support import open_context, watch_errors

from designrl.store import upgrade

BENCH = {"kind": "benchmark", "tasks": ["gen-poster", "gen-slide"],
         "seeds": [1_000_000, 1_000_001], "policies": ["rule", "random"]}
# every family: a layout task, generated pages and drawings (seeds), the shipped svg and
# webpage prompts (the first two items), each with its model-free policies (22 episodes)
FAMILIES_BENCH = {"kind": "benchmark",
                  "tasks": ["gen-poster", "gen-html", "gen-svg", "svg-prompts", "webpage-prompts"],
                  "seeds": [1_000_000, 1_000_001], "item_range": {"start": 0, "stop": 2},
                  "policies": ["rule", "expert", "random", "reference", "blank", "template",
                               "plain"]}


@dataclass
class UiStack:
    stack: Stack
    learner_data: Path | None = None  # runs/ (one run, grpo-tiny) and adapters/
    _bench: str | None = field(default=None, repr=False)
    _families: str | None = field(default=None, repr=False)
    _llm: str | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return self.stack.api_url

    @property
    def key(self) -> str:
        return self.stack.key

    def client(self):
        return self.stack.client()

    def bench_job(self) -> str:
        """A finished benchmark job (submitted over REST once per session)."""
        if self._bench is None:
            with self.client() as client:
                job = client.post("/v1/jobs", json=BENCH).json()
            assert self.stack.wait_for(job["id"], timeout=120).status == "completed"
            self._bench = job["id"]
        return self._bench

    def families_job(self) -> str:
        """A finished benchmark job over all four families (submitted once per session)."""
        if self._families is None:
            with self.client() as client:
                reply = client.post("/v1/jobs", json=FAMILIES_BENCH)
                assert reply.status_code == 202, reply.text
            assert self.stack.wait_for(reply.json()["id"], timeout=240).status == "completed"
            self._families = reply.json()["id"]
        return self._families

    def llm_episode(self) -> dict:
        """A language model's layout episode (stored once per session), in full."""
        if self._llm is None:
            self._llm = store_llm_episode(self.stack.sessions)
        with self.client() as client:
            return client.get(f"/v1/episodes/{self._llm}").json()

    def first_episode(self, job_id: str) -> dict:
        with self.client() as client:
            return client.get(f"/v1/jobs/{job_id}/episodes", params={"limit": 1}).json()["items"][0]

    def episodes(self, job_id: str) -> list[dict]:
        """Every episode of a job, each in full (``GET /v1/episodes/{id}``)."""
        with self.client() as client:
            listed = client.get(f"/v1/jobs/{job_id}/episodes", params={"limit": 500}).json()
            return [client.get(e["links"]["self"]).json() for e in listed["items"]]

    def family_episode(self, family: str, policy: str | None = None) -> dict:
        """The first episode of ``family`` (by ``policy``) in the four-family job, in full."""
        with self.client() as client:
            listed = client.get(f"/v1/jobs/{self.families_job()}/episodes",
                                params={"limit": 500}).json()["items"]
            found = next(e for e in listed if e["family"] == family
                         and policy in (None, e["policy"]))
            return client.get(found["links"]["self"]).json()


@pytest.fixture(scope="session")
def ui_stack(tmp_path_factory) -> Iterator[UiStack]:
    require_chromium()
    data = tmp_path_factory.mktemp("learner")
    write_learner_run(data / "runs" / "grpo-tiny", updates=8, summary=True)
    # one sample of version 5 is not stored but keeps its completions: its layout replays
    write_samples(data / "runs" / "grpo-tiny", [(5, "embedded-5")], COMPLETIONS)
    write_drawn_run(data / "runs")  # svg, html and webpage samples drawn from their text
    write_adapter_store(data / "adapters")
    version_key = f"test-version-{uuid.uuid4().hex[:8]}"
    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    redis.set(version_key, 3)
    with postgres_schema() as url:
        upgrade(url)
        stack = Stack(url, DESIGNRL_RECONCILE_EVERY_S="0",
                      DESIGNRL_TRAINING_RUNS_DIR=str(data / "runs"),
                      DESIGNRL_ADAPTER_STORE=str(data / "adapters"),
                      DESIGNRL_VERSION_KEY=version_key)
        try:
            stack.start_worker("ui-worker")
            stack.start_api()
            yield UiStack(stack, learner_data=data)
        finally:
            stack.close()
            redis.delete(version_key)
            redis.close()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    require_chromium()
    from playwright.sync_api import sync_playwright

    from designrl.render.chromium import find_chromium

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=find_chromium(),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        yield browser
        browser.close()


@pytest.fixture
def viewport() -> str:
    """``desktop``; a test parametrizes ``viewport`` to run on the phone too."""
    return "desktop"


@pytest.fixture
def page(browser, ui_stack, viewport):
    """A page at the test's viewport, with the API key entered."""
    context = open_context(browser, ui_stack, viewport)
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors.messages, errors.messages
