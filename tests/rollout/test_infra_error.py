"""An infrastructure failure is never a reward, against the running Postgres and a real
Chromium: an svg episode whose browser will not start ends ``infra_error`` with no
reward (embedded), is run again by a worker while attempts are left (its group waits
for it), and, recorded on the last attempt, is left out of its scored group."""

from __future__ import annotations

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.bench import summarize_single_turn
from designrl.render.chromium import kill_browser
from designrl.render.types import InfrastructureError
from designrl.rollout.episode import EpisodeSpec, run_episode_spec
from designrl.rollout.groups import scored_group
from designrl.rollout.single_turn import EpisodeContext
from designrl.rollout.stored import run_stored_episode
from designrl.store.jobs import EpisodePlan, create_job, job_progress, list_episodes
from designrl.store.models import Episode, Group

pytestmark = pytest.mark.integration

SPEC = EpisodeSpec(family="svg", task_id="gen-svg", policy="expert", seed=3, item_key="3")


@pytest.fixture(scope="module")
def runner():
    require_chromium()
    runner = PoolRunner(run_timeout=120.0, browsers=1, pages_per_browser=2, timeout_s=10.0)
    yield runner
    runner.close()


@pytest.fixture
def broken(runner):
    """Breaks the pool's browser (a launch that fails, every time) until ``fix()``."""
    pool = runner.pool
    executable = pool.executable_path

    class Breaker:
        def __call__(self):
            pool.executable_path = "/bin/false"
            kill_browser(pool._handles[0].marker)

        def fix(self):
            pool.executable_path = executable

    breaker = Breaker()
    yield breaker
    breaker.fix()


def svg_group(sessions, size: int = 2) -> list[str]:
    plans = [EpisodePlan(family="svg", task_id="gen-svg", item_key="3", seed=3,
                         policy="expert", group=0) for _ in range(size)]
    with sessions() as session:
        job = create_job(session, kind="rollout", spec={"temperature": 1.0}, plans=plans)
        return [e.id for e in list_episodes(session, job.id)]


def test_embedded_an_episode_whose_browser_is_lost_is_infra_error_with_no_reward(
        runner, broken):
    context = EpisodeContext(browser=lambda: runner)
    healthy = run_episode_spec(SPEC, context=context)
    assert healthy.outcome == "ok" and healthy.total_reward > 0.5
    broken()
    lost = run_episode_spec(SPEC, context=context)
    assert lost.outcome == "infra_error" and lost.total_reward is None and not lost.rewards
    assert "browser was lost on each of 3 tries" in lost.error
    rows = [{"family": "svg", "task_id": "gen-svg", "policy": "expert", "outcome": r.outcome,
             "total_reward": r.total_reward, "components": r.rewards, "seconds": r.seconds}
            for r in (healthy, lost)]
    (mean,) = summarize_single_turn(rows)  # the lost episode is not a 0 in the mean
    assert mean["total_reward"] == healthy.total_reward
    assert mean["outcomes"] == {"infra_error": 1, "ok": 1}


def test_a_worker_runs_an_infra_error_again_and_its_group_waits(sessions, runner, broken):
    first, second = svg_group(sessions)
    context = EpisodeContext(browser=lambda: runner)
    published = []
    run = lambda episode_id: run_stored_episode(  # noqa: E731 - the worker's call
        sessions, episode_id, worker="w:1", publish=published.append, context=context,
        passes=(InfrastructureError,))
    assert run(second).record.outcome == "ok"
    broken()
    with pytest.raises(InfrastructureError):  # attempts left: the caller's retry re-runs it
        run(first)
    with sessions() as session:
        assert session.get(Episode, first).status == "running"
        group_id = session.get(Episode, first).group_id
        assert session.get(Group, group_id).completed_at is None and not published
    broken.fix()
    assert run(first).record.outcome == "ok"
    assert published == [group_id]
    with sessions() as session:
        group = scored_group(session, group_id)
    assert [s.outcome for s in group.samples] == ["ok", "ok"]


def test_on_the_last_attempt_infra_error_is_recorded_and_left_out_of_the_group(
        sessions, runner, broken):
    first, second = svg_group(sessions)
    context = EpisodeContext(browser=lambda: runner)
    published = []
    run = lambda episode_id: run_stored_episode(  # noqa: E731 - the worker's call
        sessions, episode_id, worker="w:1", publish=published.append, context=context,
        passes=(InfrastructureError,), max_attempts=2)
    assert run(second).record.outcome == "ok"
    broken()
    with pytest.raises(InfrastructureError):
        run(first)
    last = run(first)  # the second of two attempts: recorded
    assert last.outcome == "done" and last.record.outcome == "infra_error"
    with sessions() as session:
        episode = session.get(Episode, first)
        assert (episode.status, episode.outcome, episode.total_reward) == (
            "completed", "infra_error", None)
        assert job_progress(session, episode.job_id)["failed"] == 1
        group = scored_group(session, episode.group_id)
    assert published == [group.group_id]
    assert [s.episode_id for s in group.samples] == [second]  # the learner never sees it
