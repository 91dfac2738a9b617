"""A language model's layout episode stored as a worker stores one, without a model: a
scripted backend answers each turn (prose, then JSON the env rejects), through the real
``LLMLayoutPolicy``, env and record, so its turns, prompt and tokens are authentic."""

from __future__ import annotations

from designrl.inference.types import Completion
from designrl.policies.llm.layout_policy import LLMLayoutPolicy
from designrl.rollout.layout_episode import run_episode
from designrl.rollout.record import EpisodeRecord
from designrl.store.jobs import (
    EpisodePlan,
    claim_episode,
    create_job,
    finish_episode,
)
from designrl.store.reads import only_episode
from designrl.tasks.layout.env import LayoutEnv

ANSWERS = ("I would move the headline up so it reads first, then enlarge the photo.",
           '{"action_type": "move", "element_id": "no-such-element", "x": 10, "y": 10}')
TASK, SEED = "gen-poster", 1_000_000


class ScriptedBackend:
    name = "scripted"

    def __init__(self) -> None:
        self.turn = 0

    def complete(self, conversations, *, n=1, temperature=0.0, max_tokens=128, seed=None):
        text = ANSWERS[self.turn % len(ANSWERS)]
        self.turn += 1
        ids = list(range(100, 100 + len(text) // 4))
        return [[Completion(text, ids, [-0.5] * len(ids), prompt_tokens=321)]]


def store_llm_episode(sessions) -> str:
    """Run and store the episode; returns its id."""
    policy = LLMLayoutPolicy(ScriptedBackend(), name="llm:scripted")
    record = run_episode(LayoutEnv(), policy, TASK, SEED, step_limit=len(ANSWERS))
    with sessions() as session:
        job = create_job(session, kind="benchmark", spec={"tasks": [TASK], "seeds": [SEED],
                                                          "policies": ["llm:scripted"]},
                         plans=[EpisodePlan(family="layout", task_id=TASK, item_key=str(SEED),
                                            policy="llm:scripted", seed=SEED,
                                            profile="default")])
        episode_id = only_episode(session, job.id).id
        claim_episode(session, episode_id, "test")
        finish_episode(session, episode_id, EpisodeRecord.from_layout(record))
    return episode_id

