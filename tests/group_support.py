"""Scored groups for learner tests, built from real episodes without waiting for a trained model.

Each group is one (task, seed) played by the expert, the rule and the random policy in
turn, so its returns vary; every assistant turn is the action as compact JSON,
tokenised by the tiny model's tokenizer, with the tiny model's log-probabilities of
those tokens (teacher-forced) as the behaviour log-probabilities.
"""

from __future__ import annotations

import json
import uuid

from designrl.inference.transformers_backend import chat_prompt_ids
from designrl.policies import make_layout_policy
from designrl.rollout.groups import Sample, ScoredGroup
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.prompt import layout_messages

POLICIES = ("expert", "rule", "random", "random")


class TurnScorer:
    """Token ids and the model's log-probabilities of an answer to chat messages."""

    def __init__(self, model_dir: str):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForCausalLM.from_pretrained(model_dir).eval()

    def turn(self, messages, answer: str) -> dict:
        torch = self.torch
        prompt = chat_prompt_ids(self.tokenizer, messages)
        completion = self.tokenizer.encode(answer) + [self.tokenizer.eos_token_id]
        ids = torch.tensor([prompt + completion])
        with torch.no_grad():
            logits = self.model(ids).logits[0, len(prompt) - 1:-1]
        logprobs = torch.log_softmax(logits.float(), -1).gather(
            1, torch.tensor(completion)[:, None]).squeeze(1)
        return {"messages": messages, "completion": answer, "token_ids": completion,
                "logprobs": logprobs.tolist(), "finish_reason": "stop", "ran": "model",
                "error": None}


def layout_group(scorer: TurnScorer, task_id: str, seed: int, *, policy_version: int = 0,
                 step_limit: int = 4, group_id: str | None = None) -> ScoredGroup:
    samples = []
    for n, name in enumerate(POLICIES):
        env = LayoutEnv()
        policy = make_layout_policy(name, seed=seed + n)
        obs = env.reset(task_id, seed=seed)
        turns, total = [], 0.0
        while not obs.done and len(turns) < step_limit:
            messages = layout_messages(obs)
            action = policy.act(env, obs)
            turns.append(scorer.turn(messages, json.dumps(action, separators=(",", ":"))))
            obs = env.step(action)
            total += obs.reward or 0.0
        samples.append(Sample(episode_id=uuid.uuid4().hex, outcome="ok", reward=total,
                              turns=turns))
    return ScoredGroup(group_id=group_id or uuid.uuid4().hex, job_id="test", task_id=task_id,
                       item_key=str(seed), policy="llm:test", policy_version=policy_version,
                       samples=samples)
