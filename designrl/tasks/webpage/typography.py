"""Type-scale hierarchy: a few distinct font sizes, larger for headings, steps near a modular scale.

``score_type_scale`` is the mean of four parts, each in [0, 1]:

* ``levels``: distinct sizes (sizes within 4 % merged) carrying at least 2 % of the
  text. 2-6 levels: 1; one level: 0.4 (no hierarchy); more than 6: ``6 / n``.
* ``headings``: share of heading units (``h1``-``h6``, ``role=heading``) set larger
  than the body size (the size carrying the most characters) by at least 10 %,
  or, when the page marks no headings, whether its largest level is at least 1.2x
  the body size (some hierarchy shown by size alone).
* ``ratios``: each step between neighbouring levels scores 1 inside a modular
  scale's range [1.125, 1.75] (major second to beyond golden), falling linearly to
  0 at 1.0 (sizes too close to tell apart) and at 2.5 (a jump with no middle);
  the mean over steps (1 with a single level: no step to judge).
* ``body``: body size in [14, 20] px: 1, else falling linearly to 0 at 9 px and 32 px.
"""

from __future__ import annotations

from collections.abc import Sequence

from designrl.tasks.webpage.facts import TextUnit

MERGE = 1.04
MIN_SHARE = 0.02
MAX_LEVELS = 6
ONE_LEVEL = 0.4
HEADING_STEP = 1.1
SIZE_STEP = 1.2
RATIO_LOW, RATIO_HIGH, RATIO_FLAT, RATIO_JUMP = 1.125, 1.75, 1.0, 2.5
BODY_LOW, BODY_HIGH, BODY_MIN, BODY_MAX = 14.0, 20.0, 9.0, 32.0


def size_levels(units: Sequence[TextUnit]) -> list[tuple[float, int]]:
    """(size, characters) per distinct size level, ascending; sizes within 4 % merged."""
    chars: dict[float, int] = {}
    for u in units:
        if u.font_size > 0 and u.chars > 0:
            size = round(u.font_size, 1)
            chars[size] = chars.get(size, 0) + u.chars
    levels: list[list[float]] = []  # [size weighted by chars, chars]
    for size in sorted(chars):
        if levels and size <= levels[-1][0] * MERGE:
            total = levels[-1][1] + chars[size]
            levels[-1][0] = (levels[-1][0] * levels[-1][1] + size * chars[size]) / total
            levels[-1][1] = total
        else:
            levels.append([size, chars[size]])
    return [(float(s), int(c)) for s, c in levels]


def _ramp(value: float, zero_low: float, one_low: float, one_high: float, zero_high: float) -> float:
    if one_low <= value <= one_high:
        return 1.0
    if value < one_low:
        return max(0.0, (value - zero_low) / (one_low - zero_low))
    return max(0.0, (zero_high - value) / (zero_high - one_high))


def score_type_scale(units: Sequence[TextUnit]) -> tuple[float, dict]:
    levels = size_levels(units)
    if not levels:
        return 0.0, {"levels": 0}
    total_chars = sum(c for _, c in levels)
    used = [(s, c) for s, c in levels if c >= MIN_SHARE * total_chars]
    n = len(used)
    body = max(levels, key=lambda level: level[1])[0]
    levels_part = ONE_LEVEL if n == 1 else (1.0 if n <= MAX_LEVELS else MAX_LEVELS / n)
    headings = [u for u in units if u.heading and u.chars > 0]
    if headings:
        headings_part = sum(u.font_size >= HEADING_STEP * body for u in headings) / len(headings)
    else:
        headings_part = float(used[-1][0] >= SIZE_STEP * body)
    steps = [b[0] / a[0] for a, b in zip(used, used[1:], strict=False)]
    ratios_part = (sum(_ramp(r, RATIO_FLAT, RATIO_LOW, RATIO_HIGH, RATIO_JUMP) for r in steps)
                   / len(steps)) if steps else 1.0
    body_part = _ramp(body, BODY_MIN, BODY_LOW, BODY_HIGH, BODY_MAX)
    score = (levels_part + headings_part + ratios_part + body_part) / 4
    return score, {"levels": [round(s, 1) for s, _ in used], "body_px": round(body, 1),
                   "parts": {"levels": levels_part, "headings": headings_part,
                             "ratios": round(ratios_part, 3), "body": round(body_part, 3)}}
