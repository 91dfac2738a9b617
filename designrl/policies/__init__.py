"""Policies: heuristic layout policies, and language models through an inference backend.

``make_layout_policy("llm:PATH")`` is a language model loaded in process from the
checkpoint directory PATH (greedy, compact prompt).
"""

from __future__ import annotations

from functools import cache

LAYOUT_POLICIES = ("random", "rule", "expert")
LLM_PREFIX = "llm:"


def is_layout_policy(name: str) -> bool:
    return name in LAYOUT_POLICIES or (name.startswith(LLM_PREFIX) and len(name) > len(LLM_PREFIX))


@cache
def _local_backend(path: str):
    from designrl.inference.transformers_backend import TransformersBackend

    return TransformersBackend(path)


def make_layout_policy(name: str, seed: int = 0):
    """A layout policy by name; deterministic for a given seed."""
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
        return LLMLayoutPolicy(_local_backend(name[len(LLM_PREFIX):]), seed=seed, name=name)
    raise ValueError(f"unknown layout policy {name!r}; known: {', '.join(LAYOUT_POLICIES)}, "
                     f"or {LLM_PREFIX}<model directory>")
