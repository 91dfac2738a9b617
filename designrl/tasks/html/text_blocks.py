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


def similarity_matrix(reference: Sequence[str], candidate: Sequence[str]) -> np.ndarray:
    """``text_similarity`` of every pair, with the pairs whose cheap upper bounds are below
    ``MIN_SIMILARITY`` (they could never be kept) left at 0 rather than measured."""
    ref = [" ".join(t.split()) for t in reference]
    cand = [" ".join(t.split()) for t in candidate]
    sim = np.zeros((len(ref), len(cand)))
    matcher = SequenceMatcher(None, autojunk=False)
    for j, b in enumerate(cand):
        matcher.set_seq2(b)  # the expensive index is built once per candidate text
        for i, a in enumerate(ref):
            if a == b:
                sim[i, j] = 1.0
                continue
            matcher.set_seq1(a)
            if matcher.real_quick_ratio() >= MIN_SIMILARITY and \
                    matcher.quick_ratio() >= MIN_SIMILARITY:
                sim[i, j] = matcher.ratio()
    return sim


def match_blocks(reference: Sequence, candidate: Sequence) -> list[tuple[int, int, float]]:
    """Hungarian matching on text similarity: (reference index, candidate index, similarity)."""
    ref, cand = list(reference)[:MAX_BLOCKS], list(candidate)[:MAX_BLOCKS]
    if not ref or not cand:
        return []
    sim = similarity_matrix([r.text for r in ref], [c.text for c in cand])
    rows, cols = linear_sum_assignment(-sim)
    return [(int(i), int(j), float(sim[i, j])) for i, j in zip(rows, cols, strict=True)
            if sim[i, j] >= MIN_SIMILARITY]


def block_scores(reference: Sequence, candidate: Sequence, reference_size: tuple[float, float],
                 candidate_size: tuple[float, float],
                 pairs: list[tuple[int, int, float]] | None = None) -> BlockScores:
    """The four block scores of a candidate page's blocks against the reference's
    (``pairs``: their ``match_blocks``, when already made)."""
    ref, cand = list(reference)[:MAX_BLOCKS], list(candidate)[:MAX_BLOCKS]
    pairs = match_blocks(ref, cand) if pairs is None else pairs
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


# The reward's block terms: every block counts, by its length, so a candidate that
# matches a few blocks well does not score as if it matched the page.

@dataclass(frozen=True)
class TextScores:
    """Block terms weighted by text length over all blocks of both pages: unmatched text
    scores 0. ``text`` is the F1 of similarity-weighted matched characters (recall over
    the reference's, precision over the candidate's); ``position``, ``color`` and
    ``font`` average their pair scores over every character of both pages."""

    text: float
    position: float
    color: float
    font: float
    recall: float
    precision: float
    matches: int

    def as_dict(self) -> dict[str, float]:
        return {"text": self.text, "position": self.position, "color": self.color,
                "font": self.font}


POSITION_SPAN = 0.25  # a block this far off (a share of the page width) scores 0 on position


def _length(block) -> int:
    return max(1, len(" ".join(block.text.split())))


def position_similarity(ref_block, cand_block, width: float) -> float:
    """1 at the same place, falling linearly to 0 at ``POSITION_SPAN`` of the page width
    away (centres, the larger of the two offsets); both pages share the viewport."""
    (rx, ry), (cx, cy) = _centre(ref_block, (1, 1)), _centre(cand_block, (1, 1))
    off = max(abs(rx - cx), abs(ry - cy)) / max(width, 1.0)
    return max(0.0, 1.0 - off / POSITION_SPAN)


def font_similarity(ref_block, cand_block) -> float:
    """Ratio of the smaller to the larger font size, times 0.8 + 0.2 · weight agreement."""
    a, b = max(ref_block.font_size, 0.1), max(cand_block.font_size, 0.1)
    weight = 1.0 - min(1.0, abs(ref_block.font_weight - cand_block.font_weight) / 600)
    return min(a, b) / max(a, b) * (0.8 + 0.2 * weight)


def text_scores(reference: Sequence, candidate: Sequence, width: float,
                pairs: list[tuple[int, int, float]] | None = None) -> TextScores:
    """``TextScores`` of the candidate's blocks against the reference's (``width``: the
    shared viewport width in CSS px; ``pairs``: their ``match_blocks``, if made)."""
    ref, cand = list(reference)[:MAX_BLOCKS], list(candidate)[:MAX_BLOCKS]
    pairs = match_blocks(ref, cand) if pairs is None else pairs
    ref_total = sum(_length(b) for b in ref)
    cand_total = sum(_length(b) for b in cand)
    if not pairs or not ref_total or not cand_total:
        return TextScores(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0)
    recall = sum(s * _length(ref[i]) for i, _, s in pairs) / ref_total
    precision = sum(s * _length(cand[j]) for _, j, s in pairs) / cand_total
    text = 0.0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)
    weights = np.array([_length(ref[i]) + _length(cand[j]) for i, j, _ in pairs], dtype=float)
    total = ref_total + cand_total
    colors = color_similarity([ref[i].color for i, _, _ in pairs],
                              [cand[j].color for _, j, _ in pairs])
    positions = np.array([position_similarity(ref[i], cand[j], width) for i, j, _ in pairs])
    fonts = np.array([font_similarity(ref[i], cand[j]) for i, j, _ in pairs])
    return TextScores(
        text=float(text), position=float((weights * positions).sum() / total),
        color=float((weights * colors).sum() / total), font=float((weights * fonts).sum() / total),
        recall=float(recall), precision=float(precision), matches=len(pairs))
