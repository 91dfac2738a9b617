"""SVGBench's score of a benchmark's svg episodes, computed and judged, and how far they agree.

SVGBench scores a drawing as the share of its N requirements a judge finds fulfilled
(count / N) and passes it at a score of at least ``PASS_AT`` = 0.5. Here every prompt
gets that score twice where it can:

* **computed**: the reward's own verdicts (``reward.check_requirements``); a requirement
  the checks left undecided is never fulfilled, so the computed score is passed / N, a
  floor, and ``coverage`` says how much of it was decided;
* **judged**: the judge's fulfilled / N, when a judge was configured and answered.

With no judge the SVGBench score is the computed one. A judge that failed on a prompt (an
HTTP error, an unreadable reply: the episode's ``judge_error``) gives that prompt no judge
score: an infrastructure failure is never a score. It is counted, and the judge's means
are over the prompts it answered. A completion with no drawing (no SVG, unsafe, not
rendered) fulfils nothing: 0 by both, as SVGBench scores a reply it cannot render; the
judge is not asked, and its verdicts do not enter the agreement. An episode with no
reward (``error``, ``infra_error``) has no score at all and is counted as unscored.

Agreement, over requirements both decided (computed pass or fail, and a judge's verdict):
the share agreeing, and the two ways they differ; per prompt, computed − judged.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from designrl.tasks.svg.reward import PASS_AT

ANSWERED, FAILED, NOT_DRAWN, NOT_CONFIGURED = "answered", "failed", "not drawn", "not configured"


def computed_verdict(requirement: dict[str, Any]) -> str:
    """``pass``, ``fail`` or ``undecided``: a recorded requirement's verdict by the computed
    checks alone (a verdict the judge gave, ``source`` ``judge``, was undecided by them; a
    failed drawing's requirements, no source, all fail)."""
    if requirement.get("source") == "judge" or requirement["verdict"] == "unchecked":
        return "undecided"
    return requirement["verdict"]


def prompt_figures(row: dict[str, Any], judged: bool) -> dict[str, Any] | None:
    """One episode's SVGBench figures (see the module docstring); None when it has no
    reward."""
    if row.get("total_reward") is None:
        return None
    details = row.get("details") or {}
    requirements = details.get("requirements") or []
    n = len(requirements)
    verdicts = [computed_verdict(r) for r in requirements]
    drawn = (row.get("components") or {}).get("validity") == 1.0
    out: dict[str, Any] = {
        "item_id": row.get("item_key"), "outcome": row.get("outcome"), "requirements": n,
        "drawn": drawn, "computed_passed": verdicts.count("pass"),
        "computed_failed": verdicts.count("fail"), "undecided": verdicts.count("undecided"),
        "computed_score": verdicts.count("pass") / n if n else 0.0,
    }
    out["computed_pass"] = out["computed_score"] >= PASS_AT
    out.update(_judge_figures(requirements, verdicts, details, drawn, judged))
    return out


def _judge_figures(requirements: Sequence[dict], verdicts: Sequence[str], details: dict,
                   drawn: bool, judged: bool) -> dict[str, Any]:
    """The judge's side of one prompt: its status, score, and agreement with ``verdicts``."""
    n = len(requirements)
    opinions = [r.get("judge") for r in requirements]
    out: dict[str, Any] = {"judge": NOT_CONFIGURED, "judge_error": None, "judge_fulfilled": None,
                           "judge_score": None, "judge_pass": None, "score_difference": None,
                           "both_decided": 0, "agree": 0, "computed_pass_judge_fail": 0,
                           "computed_fail_judge_pass": 0}
    if not judged:
        return out
    if not drawn:
        return {**out, "judge": NOT_DRAWN, "judge_fulfilled": 0, "judge_score": 0.0,
                "judge_pass": False}
    if details.get("judge_error") or not n or any(o is None for o in opinions):
        return {**out, "judge": FAILED,
                "judge_error": details.get("judge_error") or "no verdict recorded"}
    fulfilled = sum(bool(o) for o in opinions)
    pairs = [(v, o) for v, o in zip(verdicts, opinions, strict=True) if v != "undecided"]
    score = fulfilled / n
    computed = verdicts.count("pass") / n
    return {**out, "judge": ANSWERED, "judge_fulfilled": fulfilled, "judge_score": score,
            "judge_pass": score >= PASS_AT, "score_difference": computed - score,
            "both_decided": len(pairs), "agree": sum((v == "pass") == o for v, o in pairs),
            "computed_pass_judge_fail": sum(v == "pass" and not o for v, o in pairs),
            "computed_fail_judge_pass": sum(v == "fail" and o for v, o in pairs)}


def svgbench_figures(rows: Sequence[dict[str, Any]], judged: bool) -> dict[str, Any]:
    """SVGBench's figures over one task × policy's episode rows: the score (the judge's
    when ``judged``, else the computed one), the computed score and its coverage, the
    judge's score and failures, their agreement, every prompt's figures, and ``headline``:
    the columns a table shows."""
    prompts = [p for p in (prompt_figures(r, judged) for r in rows) if p is not None]
    computed = {"mean": _mean(p["computed_score"] for p in prompts),
                "pass_rate": _mean(p["computed_pass"] for p in prompts),
                "prompts": len(prompts), **_coverage(prompts)}
    judge = _judge_summary(prompts) if judged else None
    agreement = _agreement(prompts) if judged else None
    score = ({"by": "judge", "mean": judge["mean"], "pass_rate": judge["pass_rate"],
              "prompts": judge["prompts"]} if judge is not None else
             {"by": "computed", "mean": computed["mean"], "pass_rate": computed["pass_rate"],
              "prompts": computed["prompts"]})
    return {
        "title": "svg: SVGBench's score (fulfilled / N, pass at ≥ 0.5), "
                 + ("by the judge, beside the computed checks" if judged
                    else "by the computed checks (no judge configured)"),
        "judge": "configured" if judged else NOT_CONFIGURED,
        "episodes": len(rows), "unscored": len(rows) - len(prompts),
        "score": score, "computed": computed, "judged": judge, "agreement": agreement,
        "prompts": prompts, "headline": _headline(score, computed, judge, agreement),
    }


def _coverage(prompts: Sequence[dict]) -> dict[str, Any]:
    """Of the requirements of drawings that rendered, the share the computed checks decided."""
    drawn = [p for p in prompts if p["drawn"]]
    total = sum(p["requirements"] for p in drawn)
    decided = total - sum(p["undecided"] for p in drawn)
    return {"requirements": total, "decided": decided, "coverage": decided / total if total
            else None}


def _judge_summary(prompts: Sequence[dict]) -> dict[str, Any]:
    scored = [p for p in prompts if p["judge_score"] is not None]
    return {"mean": _mean(p["judge_score"] for p in scored),
            "pass_rate": _mean(p["judge_pass"] for p in scored), "prompts": len(scored),
            "answered": sum(p["judge"] == ANSWERED for p in prompts),
            "not_drawn": sum(p["judge"] == NOT_DRAWN for p in prompts),
            "failures": sum(p["judge"] == FAILED for p in prompts)}


def _agreement(prompts: Sequence[dict]) -> dict[str, Any]:
    both = [p for p in prompts if p["judge"] == ANSWERED]
    decided = sum(p["both_decided"] for p in both)
    differences = [p["score_difference"] for p in both]
    return {"requirements": decided,
            "agree": sum(p["agree"] for p in both) / decided if decided else None,
            "computed_pass_judge_fail": sum(p["computed_pass_judge_fail"] for p in both),
            "computed_fail_judge_pass": sum(p["computed_fail_judge_pass"] for p in both),
            "prompts": len(both), "mean_difference": _mean(differences),
            "mean_abs_difference": _mean(abs(d) for d in differences)}


def _headline(score: dict, computed: dict, judge: dict | None,
              agreement: dict | None) -> dict[str, Any]:
    """The columns of a summary table, in order (None: not measured); the judge's only
    when one was configured."""
    columns = {"score": score["mean"], "pass rate": score["pass_rate"],
               "scored by": score["by"], "prompts": score["prompts"],
               "computed": computed["mean"], "computed pass": computed["pass_rate"],
               "coverage": computed["coverage"]}
    if judge is None or agreement is None:
        return columns
    return {**columns, "judge fails": judge["failures"], "agree": agreement["agree"],
            "c pass j fail": agreement["computed_pass_judge_fail"],
            "c fail j pass": agreement["computed_fail_judge_pass"],
            "c - j": agreement["mean_difference"]}


def _mean(values) -> float | None:
    values = [float(v) for v in values]
    return statistics.fmean(values) if values else None
