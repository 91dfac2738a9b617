"""The static aesthetics of a rendered page: every named component in [0, 1] and their mean.

``static_components`` runs each pure check (``layout``, ``typography``, ``colour``,
``space``, ``axe``) on one render; ``static_score`` is their weighted mean over
the components present (``axe`` is absent when axe-core could not run, and the
weights of the rest are renormalised):

======================  ======  ==============================================
component               weight  what
======================  ======  ==============================================
``axe``                 2.0     axe-core violations (contrast, target size, ...)
``contrast``            1.5     WCAG contrast of text against the drawn pixels
``overlap``             2.0     text boxes drawn over each other
``text_fit``            1.5     clipped / overflowing text, horizontal scroll
``alignment``           1.0     text snapping to shared edges and centres
``type_scale``          1.0     few sizes, larger headings, modular steps
``whitespace``          1.0     empty share in a band, balanced left/right
``color_harmony``       1.0     few dominant colours, hues in classic schemes
======================  ======  ==============================================

Accessibility and legibility (axe, contrast, overlap, text_fit) carry 7 of the 11
weights: a page that cannot be read is not well designed however balanced it looks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from designrl.render.types import RenderResult
from designrl.tasks.webpage.axe import AxeViolation, score_axe
from designrl.tasks.webpage.colour import score_contrast, score_harmony
from designrl.tasks.webpage.facts import LayoutFacts
from designrl.tasks.webpage.layout import score_alignment, score_overlap, score_text_fit
from designrl.tasks.webpage.space import score_whitespace
from designrl.tasks.webpage.typography import score_type_scale

STATIC_WEIGHTS: dict[str, float] = {
    "axe": 2.0,
    "contrast": 1.5,
    "overlap": 2.0,
    "text_fit": 1.5,
    "alignment": 1.0,
    "type_scale": 1.0,
    "whitespace": 1.0,
    "color_harmony": 1.0,
}


def static_components(render: RenderResult, image: np.ndarray, facts: LayoutFacts,
                      violations: Sequence[AxeViolation] | None = None
                      ) -> tuple[dict[str, float], dict[str, dict]]:
    """(components, details) of one render; ``violations`` None leaves ``axe`` out."""
    checks = {
        "contrast": score_contrast(render.text_blocks, image),
        "overlap": score_overlap(facts),
        "text_fit": score_text_fit(facts),
        "alignment": score_alignment(facts),
        "type_scale": score_type_scale(facts.units),
        "whitespace": score_whitespace(image),
        "color_harmony": score_harmony(image),
    }
    if violations is not None:
        checks = {"axe": score_axe(violations), **checks}
    components = {name: float(min(1.0, max(0.0, value))) for name, (value, _) in checks.items()}
    details = {name: info for name, (_, info) in checks.items()}
    return components, details


def static_score(components: Mapping[str, float],
                 weights: Mapping[str, float] = STATIC_WEIGHTS) -> float:
    """Weighted mean of the static components present (0 when none is)."""
    present = [(weights[name], components[name]) for name in weights if name in components]
    total = sum(w for w, _ in present)
    return sum(w * v for w, v in present) / total if total > 0 else 0.0
