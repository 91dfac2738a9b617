"""axe-core in the page, and a score from its violations.

The axe-core script ships in the PyPI package ``axe-playwright-python``
(``axe.min.js``). It is evaluated in the render package's *isolated world* rather
than added with a ``<script>`` tag: the page's own scripts cannot replace
``axe.run`` or the DOM methods it measures with (a reward hack), a page's Content
Security Policy cannot block it, and the page's DOM is not touched. ``target-size``
(WCAG 2.2, 24 px targets) is enabled on top of axe's defaults.

``score_axe``: every violated rule adds ``impact weight x min(sqrt(nodes), 5)``
(critical 1.0, serious 0.6, moderate 0.3, minor 0.1; halved for rules tagged only
``best-practice``, which are advice rather than WCAG failures); the score is
``1 / (1 + W)``. One serious rule on one node gives 0.625; contrast failing on 25
nodes gives 0.25.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from designrl.render.isolated import ScriptFailed

if TYPE_CHECKING:
    from designrl.render.session import PageSession

AXE_PACKAGE = "axe_playwright_python"
AXE_OPTIONS = {"rules": {"target-size": {"enabled": True}}, "resultTypes": ["violations"]}
IMPACT_WEIGHTS = {"critical": 1.0, "serious": 0.6, "moderate": 0.3, "minor": 0.1}
UNKNOWN_IMPACT = 0.3
BEST_PRACTICE_FACTOR = 0.5
MAX_NODE_FACTOR = 5.0

RUN_AXE_JS = """(options) => axe.run(document, options).then(r => r.violations.map(v => ({
  id: v.id, impact: v.impact, tags: v.tags, nodes: v.nodes.length, help: v.help})))"""


@dataclass(frozen=True)
class AxeViolation:
    id: str
    impact: str | None
    nodes: int
    tags: tuple[str, ...] = ()
    help: str = ""

    @property
    def best_practice_only(self) -> bool:
        return "best-practice" in self.tags and not any(t.startswith("wcag") for t in self.tags)

    @property
    def weight(self) -> float:
        impact = IMPACT_WEIGHTS.get(self.impact or "", UNKNOWN_IMPACT)
        factor = BEST_PRACTICE_FACTOR if self.best_practice_only else 1.0
        return impact * factor * min(math.sqrt(max(self.nodes, 1)), MAX_NODE_FACTOR)


@lru_cache(maxsize=1)
def axe_source() -> str:
    """The axe-core script (read once); ``ModuleNotFoundError`` if the package is missing."""
    return resources.files(AXE_PACKAGE).joinpath("axe.min.js").read_text(encoding="utf-8")


def parse_violations(raw: Any) -> list[AxeViolation]:
    return [
        AxeViolation(id=str(v.get("id", "")), impact=v.get("impact"),
                     nodes=int(v.get("nodes", 0)), tags=tuple(v.get("tags") or ()),
                     help=str(v.get("help", ""))[:200])
        for v in (raw or []) if isinstance(v, dict)
    ]


def score_axe(violations: Sequence[AxeViolation]) -> tuple[float, dict]:
    weighted = sum(v.weight for v in violations)
    return 1.0 / (1.0 + weighted), {
        "weighted": round(weighted, 3),
        "violations": [{"id": v.id, "impact": v.impact, "nodes": v.nodes} for v in violations],
    }


async def run_axe(session: PageSession) -> list[AxeViolation]:
    """Load axe into the session's measuring world (once) and run it on the document.

    Raises (``ScriptFailed``, the session's ``TimeoutError``/``JobAborted``) when axe cannot
    run; the caller records that and leaves the component out.
    """
    if not await session.evaluate("() => typeof axe !== 'undefined'"):
        try:
            await session.add_script(axe_source())
        except ScriptFailed as exc:
            raise ScriptFailed("axe-core failed to load in the page") from exc
    return parse_violations(await session.evaluate(RUN_AXE_JS, AXE_OPTIONS))
