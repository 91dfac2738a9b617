"""DOM structure similarity: overlap of 1-height subtrees (after TreeBLEU).

A 1-height subtree is a node's tag with the ordered tags of its children.
TreeBLEU is the share of the reference's subtrees that the candidate also has
(recall). Recall alone pays a candidate for piling on markup, so the score is
the F1 of the two multisets: recall against the reference and precision
against the candidate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def subtrees(elements: Sequence) -> Counter:
    """Multiset of (tag, child tags) over the elements that have children. ``elements``
    carry ``tag`` and ``parent`` (index into the same list, −1 for the root)."""
    children: dict[int, list[str]] = {}
    for element in elements:
        if element.parent >= 0:
            children.setdefault(element.parent, []).append(element.tag.lower())
    return Counter((elements[i].tag.lower(), tuple(tags)) for i, tags in children.items()
                   if 0 <= i < len(elements))


def tree_bleu(reference: Sequence, candidate: Sequence) -> float:
    """TreeBLEU: share of the reference's 1-height subtrees found in the candidate."""
    ref = subtrees(reference)
    if not ref:
        return 0.0
    return sum((ref & subtrees(candidate)).values()) / sum(ref.values())


def structure_similarity(reference: Sequence, candidate: Sequence) -> float:
    """F1 of the two pages' 1-height subtree multisets (1 for identical trees)."""
    ref, cand = subtrees(reference), subtrees(candidate)
    if not ref or not cand:
        return 0.0
    common = sum((ref & cand).values())
    recall, precision = common / sum(ref.values()), common / sum(cand.values())
    return 0.0 if common == 0 else 2 * recall * precision / (recall + precision)
