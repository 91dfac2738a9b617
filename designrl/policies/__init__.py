"""Policies: heuristic layout policies, each single-turn family's model-free policies, and
language models through an inference backend.

``make_layout_policy("llm:PATH")`` is a language model loaded in process from the
checkpoint directory PATH, asked in the prompt style it was trained on. ``vllm:MODEL``
is the model MODEL on an OpenAI-compatible inference server (vLLM in the stack);
``vllm:latest`` is the newest policy version the learner published (``policy-vN``;
the served base model before the first). Both are greedy unless given a temperature.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from designrl.policies.completion import PredictionLookup

LAYOUT_POLICIES = ("random", "rule", "expert")
LLM_PREFIX = "llm:"
VLLM_PREFIX = "vllm:"
LATEST_POLICY = "vllm:latest"
PREDICTIONS_PREFIX = "predictions:"


@dataclass(frozen=True)
class InferenceServer:
    """Where ``vllm:`` policies sample: an OpenAI-compatible server."""

    base_url: str
    base_model: str = "policy"  # the served name of the weights the learner started from
    api_key: str = "EMPTY"
    prompt_style: str = "compact"  # the layout prompt the served model was trained on



def check_model_dir(path: str) -> str:
    """``path`` when it holds a model (a checkpoint folder with ``config.json``), else a
    ``ValueError`` saying there is no model there: a user's typo, before any load."""
    if not (Path(path) / "config.json").is_file():
        raise ValueError(f"no model at {path} (a model is a checkpoint directory with a "
                         "config.json)")
    return path


@cache
def _local_backend(path: str):
    from designrl.inference.transformers_backend import TransformersBackend

    return TransformersBackend(check_model_dir(path))


def make_layout_policy(name: str, seed: int = 0, *, temperature: float = 0.0,
                       server: InferenceServer | None = None, version: int | None = None,
                       max_tokens: int | None = None):
    """A layout policy by name; deterministic for a given seed. Language models sample at
    ``temperature`` up to ``max_tokens`` an action (None: ``LLMLayoutPolicy``'s default);
    ``vllm:`` ones on ``server``, ``vllm:latest`` as policy ``version``."""
    if name == "random":
        from designrl.policies.layout_random import RandomLayoutPolicy
        return RandomLayoutPolicy(seed)
    if name == "rule":
        from designrl.policies.layout_rule import RuleLayoutPolicy
        return RuleLayoutPolicy()
    if name == "expert":
        from designrl.policies.layout_expert import ExpertLayoutPolicy
        return ExpertLayoutPolicy()
    if name.startswith(LLM_PREFIX) and len(name) > len(LLM_PREFIX):
        from designrl.policies.llm.layout_policy import LLMLayoutPolicy
        return LLMLayoutPolicy(_local_backend(name[len(LLM_PREFIX):]), seed=seed, name=name,
                               temperature=temperature, **_budget(max_tokens))
    if name.startswith(VLLM_PREFIX) and len(name) > len(VLLM_PREFIX):
        from designrl.policies.llm.layout_policy import LLMLayoutPolicy

        return LLMLayoutPolicy(_served_backend(name, server, version), seed=seed, name=name,
                               temperature=temperature, **_budget(max_tokens))
    raise ValueError(f"unknown layout policy {name!r}; known: {', '.join(LAYOUT_POLICIES)}, "
                     f"{LLM_PREFIX}<model directory>, {VLLM_PREFIX}<served model> or "
                     f"{LATEST_POLICY}")


def _served_backend(name: str, server: InferenceServer | None, version: int | None):
    """The OpenAI-compatible backend a ``vllm:`` policy samples on."""
    from designrl.inference.openai_backend import OpenAIBackend
    from designrl.inference.vllm_server import version_name

    if server is None:
        raise ValueError(f"{name}: no inference server is configured to sample from")
    model = name[len(VLLM_PREFIX):]
    if name == LATEST_POLICY:
        model = server.base_model if version is None else version_name(version)
    return OpenAIBackend(server.base_url, model, api_key=server.api_key,
                         prompt_style=server.prompt_style)


def policy_names(family, *, served: bool = False) -> list[str]:
    """What a family's policy may be called, for errors and the catalog; ``served``: on a
    server, where no model is loaded from a local directory (no ``llm:``)."""
    return [*family.policies, *(() if served else (f"{LLM_PREFIX}<model directory>",)),
            f"{VLLM_PREFIX}<served model>", LATEST_POLICY,
            *(() if family.multi_turn else (f"{PREDICTIONS_PREFIX}<set>",))]


def _budget(max_tokens: int | None) -> dict[str, int]:
    return {} if max_tokens is None else {"max_tokens": max_tokens}


def accepts_policy(family, name: str) -> bool:
    """Whether ``family`` runs a policy called ``name`` (its shape, not that it exists)."""
    prefixes = (LLM_PREFIX, VLLM_PREFIX) + (() if family.multi_turn else (PREDICTIONS_PREFIX,))
    return name in family.policies or any(
        name.startswith(p) and len(name) > len(p) for p in prefixes)


def make_completion_policy(family, name: str, seed: int = 0, *, temperature: float = 0.0,
                           server: InferenceServer | None = None, version: int | None = None,
                           predictions: PredictionLookup | None = None,
                           max_tokens: int | None = None):
    """A single-turn family's policy by name (``designrl.policies.completion``); a language
    model answers in at most ``max_tokens`` (None: the family's budget)."""
    from designrl.policies.completion import ModelFreePolicy, ModelPolicy, PredictionsPolicy

    if name in family.policies:
        return ModelFreePolicy(name, family.policies[name], seed)
    if name.startswith(PREDICTIONS_PREFIX) and len(name) > len(PREDICTIONS_PREFIX):
        if predictions is None:
            raise ValueError(f"{name}: no prediction sets are available here")
        return PredictionsPolicy(name, predictions)
    if name.startswith(LLM_PREFIX) and len(name) > len(LLM_PREFIX):
        return ModelPolicy(name, _local_backend(name[len(LLM_PREFIX):]), temperature,
                           max_tokens or family.max_tokens, seed)
    if name.startswith(VLLM_PREFIX) and len(name) > len(VLLM_PREFIX):
        return ModelPolicy(name, _served_backend(name, server, version), temperature,
                           max_tokens or family.max_tokens, seed)
    raise ValueError(f"unknown {family.name} policy {name!r}; known: "
                     f"{', '.join(policy_names(family))}")
