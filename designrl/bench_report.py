"""What a benchmark run reports: layout means per (profile, task, policy), render-family
means per (family, task, policy), and the files (``results.json``, ``report.html``)."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from designrl.tasks import FAMILIES


def summarize(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Layout means per (profile, task, policy), in the order they first appear."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        if "profile" in r:  # a layout row (its "family" is the generated family)
            groups[(r["profile"], r["task_id"], r["policy"])].append(r)
    rows = []
    for (profile, task_id, policy), rs in groups.items():
        rows.append({
            "family": "layout", "profile": profile, "task_id": task_id, "policy": policy,
            "episodes": len(rs),
            **{k: statistics.fmean(r[k] for r in rs) for k in (
                "start_score", "final_score", "instruction_score", "total_reward", "steps",
                "invalid_actions", "seconds")},
            # default profile: Φ gain (what its return measures); designgym: score gain
            "potential_gain": (statistics.fmean(_gain(r) for r in rs)
                               if rs[0]["start_potential"] is not None else None),
            "worse_than_start": sum(_gain(r) < -1e-12 for r in rs),
            **_llm_means(rs),
        })
    return rows


def summarize_single_turn(results: list[dict[str, Any]],
                          judged: bool = False) -> list[dict[str, Any]]:
    """Render-family means per (family, task, policy): total, each component, outcomes,
    and the family's own ``figures`` where it has some (svg: SVGBench's score; ``judged``:
    a judge was configured). Means are over scored episodes; ``error`` episodes (no
    reward) are only counted."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        if "profile" not in r:
            groups[(r["family"], r["task_id"], r["policy"])].append(r)
    rows = []
    for (family, task_id, policy), rs in groups.items():
        scored = [r for r in rs if r["total_reward"] is not None]
        names = [c for c in FAMILIES[family].components
                 if any(c in r["components"] for r in scored)]
        rows.append({
            "family": family, "task_id": task_id, "policy": policy, "episodes": len(rs),
            "oracle": policy in FAMILIES[family].oracles,
            "total_reward": statistics.fmean(r["total_reward"] for r in scored) if scored
            else None,
            "components": {c: statistics.fmean(r["components"][c] for r in scored
                                               if c in r["components"]) for c in names},
            "ok": sum(r["outcome"] == "ok" for r in rs),
            "outcomes": dict(sorted(_count(r["outcome"] for r in rs).items())),
            "seconds": statistics.fmean(r["seconds"] or 0.0 for r in rs),
        })
        if FAMILIES[family].figures is not None:
            rows[-1]["figures"] = FAMILIES[family].figures(rs, judged)
    return rows


def _count(values) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for v in values:
        out[v] += 1
    return out


LLM_STATS = ("valid_json_rate", "model_valid_action_rate", "steer_rate", "prompt_tokens",
             "completion_tokens", "llm_seconds")


def _llm_means(rs: list[dict[str, Any]]) -> dict[str, float]:
    """Per-episode means of a language-model policy's stats (none for heuristics)."""
    stats = [r["policy_stats"] for r in rs if r.get("policy_stats")]
    if not stats:
        return {}
    return {k: statistics.fmean(s[k] for s in stats) for k in LLM_STATS}


def _gain(r: dict[str, Any]) -> float:
    """How much better the episode left the layout, by its profile's own measure."""
    if r["start_potential"] is not None:
        return r["final_potential"] - r["start_potential"]
    return r["final_score"] - r["start_score"]


def write_outputs(results: list[dict[str, Any]], out_dir: Path, report: bool = True,
                  database_url: str | None = None,
                  judge: dict[str, Any] | None = None) -> dict[str, Path]:
    """results.json and (unless ``report`` is False) report.html: layout before/after
    renders, and every render episode's images (read back from ``database_url``).
    ``judge``: the judge the run was scored with (``JudgeConfig.public()``; None: none)."""
    from designrl.report import write_html_report
    from designrl.tasks.layout.env import load_task
    from designrl.tasks.layout.render import layout_to_svg
    from designrl.tasks.layout.spec import Layout

    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / "results.json"
    single_turn = summarize_single_turn(results, judge is not None)
    json_path.write_text(json.dumps({"summary": summarize(results), "single_turn": single_turn,
                                     "judge": judge, "episodes": results}, indent=1))
    if not report:
        return {"json": json_path}
    images = _stored_images(database_url, results) if database_url else {}
    cards = []
    for r in results:
        if "profile" in r:
            task = load_task(r["task_id"], r["seed"])
            cards.append({**r, "before_svg": layout_to_svg(task, Layout.from_json(r["before"])),
                          "after_svg": layout_to_svg(task, Layout.from_json(r["after"])),
                          "actions": [s["action"] for s in r["actions"]]})
        else:
            cards.append({**r, "pngs": images.get(r["episode_id"], {})})
    path = write_html_report(cards, out_dir, title="designrl benchmark",
                             single_turn=single_turn)
    return {"json": json_path, "html": path}


def _stored_images(database_url: str, results: list[dict[str, Any]]) -> dict[str, dict]:
    from sqlalchemy import select

    from designrl.store.engine import shared_sessionmaker
    from designrl.store.models import Artifact

    ids = [r["episode_id"] for r in results if r.get("episode_id") and r.get("images")]
    out: dict[str, dict[str, bytes]] = defaultdict(dict)
    with shared_sessionmaker(database_url)() as session:
        for row in session.scalars(select(Artifact).where(Artifact.episode_id.in_(ids))):
            out[row.episode_id][row.name] = row.data
    return out
