"""Groups of single-turn episodes (``gen-svg``) sampled in-process for embedded GRPO.

Each group is one item answered ``group_size`` times in one batched generation, every
answer scored by the family's reward in the process's browser pool, and kept with its
token ids and behaviour logprobs, the shape ``designrl.learner.batch`` trains on (the
same as a worker's single-turn episode). A scoring the browser could not finish is
recorded with no reward (``infra_error`` or ``timeout``): never a score, so the learner
leaves it out of the group's advantages.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from designrl.inference.types import Backend, Completion
from designrl.policies.completion import Turn
from designrl.render.types import InfrastructureError
from designrl.rollout.groups import Sample, ScoredGroup
from designrl.rollout.single_turn import SCORE_TIMEOUT_S


def check_text_only(task_id: str) -> None:
    """``ValueError`` unless ``task_id`` is a generated single-turn task whose prompt is
    text alone (an html prompt shows a screenshot the in-process backend cannot read)."""
    from designrl.tasks import TASKS, get_family

    task = TASKS.get(task_id)
    if task is None or task.generate is None or get_family(task.family).multi_turn:
        raise ValueError(f"{task_id!r} is not a generated single-turn task")
    if get_family(task.family).reference is not None:
        raise ValueError(f"{task_id} prompts show a screenshot; the in-process backend "
                         f"reads text only")


def sample_single_turn_groups(backend: Backend, pairs: Sequence[tuple[str, int]], *,
                              group_size: int, temperature: float, max_tokens: int,
                              sample_seed: int, version: int, runner) -> list[ScoredGroup]:
    """One scored group per (task, seed) in ``pairs``, sampled by ``backend`` as
    ``policy-v{version}`` and scored in ``runner``'s pool."""
    from designrl.tasks import family_of, find_item, get_family

    families = [get_family(family_of(task_id)) for task_id, _ in pairs]
    items = [find_item(task_id, seed) for task_id, seed in pairs]
    conversations = [family.messages(item, None) for family, item in zip(families, items,
                                                                          strict=True)]
    answers = backend.complete(conversations, n=group_size, temperature=temperature,
                               max_tokens=max_tokens, seed=sample_seed)
    groups = []
    for (task_id, seed), family, item, messages, row in zip(
            pairs, families, items, conversations, answers, strict=True):
        scorer = family.scorer(runner.pool)
        samples = [_scored(scorer, runner, item, messages, done, version) for done in row]
        groups.append(ScoredGroup(group_id=uuid.uuid4().hex, job_id="embedded",
                                  task_id=task_id, item_key=str(seed),
                                  policy=f"policy-v{version}", policy_version=version,
                                  samples=samples))
    return groups


def _scored(scorer, runner, item, messages, done: Completion, version: int) -> Sample:
    turn = Turn(done.text, messages, list(done.token_ids), list(done.logprobs),
                done.prompt_tokens, done.finish_reason, done.seconds)
    try:
        scored = runner.run(scorer.score_item(item, done.text), SCORE_TIMEOUT_S)
    except (InfrastructureError, TimeoutError) as exc:
        outcome = "timeout" if isinstance(exc, TimeoutError) else "infra_error"
        return Sample(episode_id=uuid.uuid4().hex, outcome=outcome, reward=None,
                      completion=done.text, turns=turn.stats()["turns"],
                      policy_version=version)
    valid = scored.outcome != "invalid_output"
    reward = None if scored.outcome == "error" else scored.total
    return Sample(episode_id=uuid.uuid4().hex, outcome=scored.outcome, reward=reward,
                  components={k: v for k, v in scored.components.items() if v is not None},
                  completion=done.text, turns=turn.stats(valid)["turns"],
                  policy_version=version)
