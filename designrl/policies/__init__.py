"""Policies: heuristic layout policies now, language-model policies later."""

from __future__ import annotations

LAYOUT_POLICIES = ("random", "rule", "expert")


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
    raise ValueError(f"unknown layout policy {name!r}; known: {', '.join(LAYOUT_POLICIES)}")
