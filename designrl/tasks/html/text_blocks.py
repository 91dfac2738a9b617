"""Design2Code's text-block metrics: match blocks, then score size, text, position, colour.

Blocks come from the DOM (``designrl.render``), one per element with visible
text. Matching is Design2Code's: a Hungarian assignment on the cost
``−SequenceMatcher(a, b).ratio()``, pairs whose similarity is below 0.5 dropped.
Over the matched pairs:

* ``block_match``: matched block area, both sides, over all block area;
* ``text``: mean text similarity;
* ``position``: mean ``max(0, 1 − max(|Δcx|, |Δcy|))`` with centres normalised
  by the page size of their own render (a block placed off the page scores 0);
* ``color``: mean ``max(0, 1 − CIEDE2000 / 100)`` between the text colours.

With no match at all every score is 0 (Design2Code then falls back to a fifth
of the visual score; ``reward`` does that).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np
from scipy.optimize import linear_sum_assignment
from skimage.color import deltaE_ciede2000, rgb2lab

MIN_SIMILARITY = 0.5
MAX_BLOCKS = 400  # a page with more text blocks is scored on its first 400 (keeps matching cheap)


@dataclass(frozen=True)
class BlockScores:
    block_match: float
    text: float
    position: float
    color: float
    matches: int

    def as_dict(self) -> dict[str, float]:
        return {"block_match": self.block_match, "text": self.text,
                "position": self.position, "color": self.color}


def text_similarity(a: str, b: str) -> float:
    """difflib's ratio on whitespace-normalised text (Design2Code's measure)."""
    return SequenceMatcher(None, " ".join(a.split()), " ".join(b.split()), autojunk=False).ratio()


def _area(block) -> float:
    return max(0.0, block.bbox[2]) * max(0.0, block.bbox[3])


def _centre(block, size: tuple[float, float]) -> tuple[float, float]:
    x, y, w, h = block.bbox
    return (x + w / 2) / max(size[0], 1.0), (y + h / 2) / max(size[1], 1.0)


def color_similarity(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> np.ndarray:
    """max(0, 1 − CIEDE2000 / 100) between paired RGB colours (0–255), one per pair."""
    lab_a = rgb2lab(np.asarray(a, dtype=float).reshape(-1, 1, 3) / 255.0)
    lab_b = rgb2lab(np.asarray(b, dtype=float).reshape(-1, 1, 3) / 255.0)
    return np.maximum(0.0, 1.0 - deltaE_ciede2000(lab_a, lab_b)[:, 0] / 100.0)


def match_blocks(reference: Sequence, candidate: Sequence) -> list[tuple[int, int, float]]:
    """Hungarian matching on text similarity: (reference index, candidate index, similarity)."""
    ref, cand = list(reference)[:MAX_BLOCKS], list(candidate)[:MAX_BLOCKS]
    if not ref or not cand:
        return []
    sim = np.array([[text_similarity(r.text, c.text) for c in cand] for r in ref])
    rows, cols = linear_sum_assignment(-sim)
    return [(int(i), int(j), float(sim[i, j])) for i, j in zip(rows, cols, strict=True)
            if sim[i, j] >= MIN_SIMILARITY]


def block_scores(reference: Sequence, candidate: Sequence, reference_size: tuple[float, float],
                 candidate_size: tuple[float, float]) -> BlockScores:
    """The four block scores of a candidate page's blocks against the reference's."""
    ref, cand = list(reference)[:MAX_BLOCKS], list(candidate)[:MAX_BLOCKS]
    pairs = match_blocks(ref, cand)
    if not pairs:
        return BlockScores(0.0, 0.0, 0.0, 0.0, 0)
    total_area = sum(_area(b) for b in ref) + sum(_area(b) for b in cand)
    matched_area = sum(_area(ref[i]) + _area(cand[j]) for i, j, _ in pairs)
    positions = []
    for i, j, _ in pairs:
        (rx, ry), (cx, cy) = _centre(ref[i], reference_size), _centre(cand[j], candidate_size)
        positions.append(max(0.0, 1.0 - max(abs(rx - cx), abs(ry - cy))))
    colors = color_similarity([ref[i].color for i, _, _ in pairs],
                              [cand[j].color for _, j, _ in pairs])
    return BlockScores(
        block_match=matched_area / total_area if total_area > 0 else 0.0,
        text=float(np.mean([s for _, _, s in pairs])), position=float(np.mean(positions)),
        color=float(np.mean(colors)), matches=len(pairs),
    )
