"""Live steps in Redis: published in order, read back after an index, started afresh by a
retried episode, steps taken faster than anyone watches sent together, and never an error
for the episode when Redis is away."""

from __future__ import annotations

import time
import uuid

import pytest
from db_support import REDIS_URL
from redis import Redis

from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.rollout.live import LIVE_TTL_S, LiveSteps, live_client, live_key, read_live_steps

pytestmark = pytest.mark.integration

SPEC = EpisodeSpec(family="layout", task_id="gen-slide", seed=5, policy="random", step_limit=6)


@pytest.fixture
def redis():
    client = Redis.from_url(REDIS_URL)
    episode_id = f"test-live-{uuid.uuid4().hex[:8]}"
    yield client, episode_id
    client.delete(live_key(episode_id))
    client.close()


def test_steps_are_published_as_taken_and_read_back_after_an_index(redis):
    client, episode_id = redis
    with LiveSteps(client, episode_id) as on_step:
        record = run_episode_spec(SPEC, on_step=on_step)
    published = read_live_steps(client, episode_id)
    assert [s["index"] for s in published] == list(range(len(record.steps)))
    assert [{k: v for k, v in s.items() if k != "index"} for s in published] == [
        s.model_dump(mode="json") for s in record.steps]
    assert read_live_steps(client, episode_id, after=3) == published[4:]
    assert 0 < client.ttl(live_key(episode_id)) <= LIVE_TTL_S
    # a second attempt replaces the first's steps rather than adding to them
    with LiveSteps(client, episode_id) as on_step:
        run_episode_spec(SPEC.model_copy(update={"step_limit": 2}), on_step=on_step)
    assert [s["index"] for s in read_live_steps(client, episode_id)] == [0, 1]
    assert read_live_steps(client, "no-such-episode") == []


def test_the_first_step_goes_at_once_and_quick_ones_together(redis):
    client, episode_id = redis
    record = run_episode_spec(SPEC)
    with LiveSteps(client, episode_id, every_s=0.2) as on_step:
        on_step(record.steps[0])
        assert [s["index"] for s in read_live_steps(client, episode_id)] == [0]
        for step in record.steps[1:4]:
            on_step(step)
        assert [s["index"] for s in read_live_steps(client, episode_id)] == [0]
        time.sleep(0.25)  # a step taken later than every_s goes as it is taken
        on_step(record.steps[4])
        assert [s["index"] for s in read_live_steps(client, episode_id)] == [0, 1, 2, 3, 4]
        on_step(record.steps[5])
    assert [s["index"] for s in read_live_steps(client, episode_id)] == list(range(6))


def test_a_redis_that_is_away_turns_the_live_view_off_not_the_episode():
    away = live_client("redis://127.0.0.1:1")  # nothing listens on port 1
    publisher = LiveSteps(away, "any")
    record = run_episode_spec(SPEC, on_step=publisher)
    assert record.outcome == "ok" and len(record.steps) == SPEC.step_limit
    assert not publisher.on and publisher.index == SPEC.step_limit
