"""A single-file HTML report of rollout episodes: summary table and per-episode cards.

The page is self-contained: inline CSS, no scripts, no external URLs; renders are
embedded as base64 ``data:`` URIs (layouts as SVG, render-family screenshots as PNG) so
``report.html`` can be mailed or attached to a CI run as one file. Layout episodes show
before and after; html, svg and webpage episodes show their renders and components,
with a table per family.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections import defaultdict
from pathlib import Path

SUMMARY_FIELDS = (  # (key, column header, decimals)
    ("start_score", "Start score", 3),
    ("final_score", "Final score", 3),
    ("delta", "Δ score", 3),
    ("instruction_score", "Instruction", 3),
    ("total_reward", "Reward", 3),
    ("steps", "Steps", 1),
    ("invalid_actions", "Invalid", 1),
    ("seconds", "Seconds", 2),
)

CSS = """
:root { --ink:#1e293b; --muted:#475569; --line:#cbd5e1; --bg:#f8fafc; --card:#ffffff;
  --accent:#3730a3; --up:#166534; --down:#b91c1c; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  color:var(--ink); background:var(--bg); }
main { max-width:72rem; margin:0 auto; padding:1.25rem 1rem 3rem; }
h1 { font-size:1.6rem; line-height:1.25; margin:.25rem 0 .25rem; }
h2 { font-size:1.25rem; margin:2rem 0 .75rem; }
h3 { font-size:1.05rem; margin:0; overflow-wrap:anywhere; }
.lede { color:var(--muted); margin:0 0 1rem; }
.table-wrap + .table-wrap { margin-top:1rem; }
.table-wrap { overflow-x:auto; background:var(--card); border:1px solid var(--line); border-radius:.5rem; }
.table-wrap:focus { outline:3px solid var(--accent); outline-offset:2px; }
table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; font-size:.9rem; }
caption { text-align:left; padding:.6rem .75rem; color:var(--muted); font-size:.85rem; }
th, td { padding:.45rem .75rem; border-top:1px solid var(--line); text-align:right; white-space:nowrap; }
th[scope=row], thead th:first-child, thead th:nth-child(2), td.text { text-align:left; }
thead th { background:#eef2ff; color:var(--ink); font-weight:600; }
.up { color:var(--up); } .down { color:var(--down); }
.cards { display:grid; gap:1rem; grid-template-columns:repeat(auto-fill,minmax(min(100%,24rem),1fr)); }
.card { background:var(--card); border:1px solid var(--line); border-radius:.6rem; padding:1rem;
  display:flex; flex-direction:column; gap:.75rem; min-width:0; }
.meta { color:var(--muted); font-size:.85rem; margin:.15rem 0 0; overflow-wrap:anywhere; }
.pair { display:grid; grid-template-columns:1fr 1fr; gap:.6rem; }
figure { margin:0; min-width:0; }
figure img { display:block; width:100%; height:auto; border:1px solid var(--line); border-radius:.35rem;
  background:#fbfaf7; }
figcaption { font-size:.8rem; color:var(--muted); margin-top:.3rem; text-align:center; }
.missing { aspect-ratio:1; display:grid; place-items:center; border:1px dashed var(--line);
  border-radius:.35rem; color:var(--muted); font-size:.85rem; }
dl { display:grid; grid-template-columns:repeat(auto-fill,minmax(7.5rem,1fr)); gap:.4rem .75rem; margin:0; }
dl div { min-width:0; } dt { font-size:.75rem; color:var(--muted); }
dd { margin:0; font-weight:600; font-variant-numeric:tabular-nums; overflow-wrap:anywhere; }
details { border-top:1px solid var(--line); padding-top:.5rem; }
summary { cursor:pointer; color:var(--accent); font-weight:600; }
summary:focus-visible { outline:3px solid var(--accent); outline-offset:2px; }
ol { margin:.5rem 0 0; padding-left:1.6rem; font-size:.8rem; max-height:18rem; overflow:auto; }
code { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; overflow-wrap:anywhere; }
"""


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _num(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _fmt(value, decimals: int = 3, signed: bool = False) -> str:
    v = _num(value)
    if v is None:
        return "—" if value is None or value == "" else _e(value)
    if decimals == 0 or (float(v).is_integer() and decimals == 1 and not signed):
        return f"{v:+.0f}" if signed else f"{v:.0f}"
    return f"{v:+.{decimals}f}" if signed else f"{v:.{decimals}f}"


def _delta(record: dict) -> float | None:
    a, b = _num(record.get("start_score")), _num(record.get("final_score"))
    return None if a is None or b is None else b - a


def _delta_cell(value, decimals: int = 3) -> str:
    v = _num(value)
    if v is None:
        return "—"
    cls = "up" if v > 0 else "down" if v < 0 else ""
    sign = f'<span aria-hidden="true">{"▲" if v > 0 else "▼"}</span> ' if v else ""
    return f'<span class="{cls}">{sign}{_fmt(v, decimals, signed=True)}</span>'


def _svg_uri(svg) -> str | None:
    if not isinstance(svg, str) or not svg.strip():
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _summary(results: list[dict]) -> str:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in results:
        groups[(str(r.get("policy", "?")), str(r.get("task_id", "?")))].append(r)
    head = "".join(f'<th scope="col">{_e(label)}</th>' for _, label, _ in SUMMARY_FIELDS)
    rows = []
    for (policy, task_id), recs in sorted(groups.items()):
        cells = []
        for key, _, decimals in SUMMARY_FIELDS:
            vals = [_delta(r) if key == "delta" else _num(r.get(key)) for r in recs]
            vals = [v for v in vals if v is not None]
            mean = sum(vals) / len(vals) if vals else None
            cells.append(f"<td>{_delta_cell(mean, decimals) if key == 'delta' else _fmt(mean, decimals)}</td>")
        rows.append(f'<tr><th scope="row">{_e(policy)}</th><td class="text">{_e(task_id)}</td>'
                    f'<td>{len(recs)}</td>{"".join(cells)}</tr>')
    return (
        '<div class="table-wrap" role="region" aria-labelledby="summary-heading" tabindex="0">'
        "<table><caption>Means over episodes for each policy and task. "
        "Δ score is final minus start score.</caption>"
        f'<thead><tr><th scope="col">Policy</th><th scope="col">Task</th><th scope="col">Episodes</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _figure(svg, which: str, label: str, score) -> str:
    uri = _svg_uri(svg)
    caption = f"{which} · score {_fmt(score)}"
    alt = f"{which} layout for {label}, score {_fmt(score)}"
    body = (f'<img src="{uri}" alt="{_e(alt)}" loading="lazy">' if uri
            else f'<div class="missing" role="img" aria-label="{_e(alt)} (no render)">No render</div>')
    return f"<figure>{body}<figcaption>{_e(caption)}</figcaption></figure>"


def _card(i: int, r: dict) -> str:
    policy, task_id = r.get("policy", "?"), r.get("task_id", "?")
    label = f"{policy} on {task_id}, seed {r.get('seed', '?')}"
    facts = [
        ("Start score", _fmt(r.get("start_score"))), ("Final score", _fmt(r.get("final_score"))),
        ("Δ score", _delta_cell(_delta(r))), ("Instruction", _fmt(r.get("instruction_score"))),
        ("Reward", _fmt(r.get("total_reward"))), ("Steps", _fmt(r.get("steps"), 0)),
        ("Invalid actions", _fmt(r.get("invalid_actions"), 0)), ("Seconds", _fmt(r.get("seconds"), 2)),
    ]
    dl = "".join(f"<div><dt>{_e(k)}</dt><dd>{v}</dd></div>" for k, v in facts)
    actions = r.get("actions")
    details = ""
    if isinstance(actions, list):
        items = "".join(
            f"<li><code>{_e(json.dumps(a, sort_keys=True, default=str) if not isinstance(a, str) else a)}</code></li>"
            for a in actions)
        details = (f"<details><summary>Actions ({len(actions)})</summary>"
                   f"{f'<ol>{items}</ol>' if items else '<p class=meta>No actions.</p>'}</details>")
    meta = " · ".join(f"{k} {_e(r[k])}" for k in ("family", "profile", "seed") if r.get(k) not in (None, ""))
    return (
        f'<article class="card" id="ep-{i}" aria-labelledby="ep-{i}-h">'
        f'<header><h3 id="ep-{i}-h">{_e(policy)} · {_e(task_id)}</h3><p class="meta">{meta}</p></header>'
        f'<div class="pair">{_figure(r.get("before_svg"), "Before", label, r.get("start_score"))}'
        f'{_figure(r.get("after_svg"), "After", label, r.get("final_score"))}</div>'
        f"<dl>{dl}</dl>{details}</article>"
    )


def _png_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _render_card(i: int, r: dict) -> str:
    """A render-family episode: its images, total, outcome and components."""
    policy, task_id = r.get("policy", "?"), r.get("task_id", "?")
    label = f"{policy} on {task_id}, item {r.get('item_key', '?')}"
    figures = "".join(
        f'<figure><img src="{_png_uri(png)}" alt="{_e(name)} render for {_e(label)}" '
        f'loading="lazy"><figcaption>{_e(name)}</figcaption></figure>'
        for name, png in sorted((r.get("pngs") or {}).items(), reverse=True))
    if not figures:
        figures = f'<div class="missing" role="img" aria-label="{_e(label)}: no render">No render</div>'
    facts = [("Reward", _fmt(r.get("total_reward"))), ("Outcome", _e(r.get("outcome"))),
             ("Seconds", _fmt(r.get("seconds"), 2)),
             *((k, _fmt(v)) for k, v in (r.get("components") or {}).items())]
    dl = "".join(f"<div><dt>{_e(k)}</dt><dd>{v}</dd></div>" for k, v in facts)
    error = f'<p class="meta">{_e(r["error"])}</p>' if r.get("error") else ""
    return (
        f'<article class="card" id="ep-{i}" aria-labelledby="ep-{i}-h">'
        f'<header><h3 id="ep-{i}-h">{_e(policy)} · {_e(task_id)}</h3>'
        f'<p class="meta">{_e(r.get("family"))} · item {_e(r.get("item_key"))}</p></header>'
        f'<div class="pair">{figures}</div><dl>{dl}</dl>{error}</article>'
    )


def _family_tables(rows: list[dict]) -> str:
    """One table per render family: means of the total and of each component."""
    out = []
    for family in dict.fromkeys(r["family"] for r in rows):
        mine = [r for r in rows if r["family"] == family]
        names = list(dict.fromkeys(c for r in mine for c in r["components"]))
        head = "".join(f'<th scope="col">{_e(n)}</th>' for n in names)
        body = "".join(
            f'<tr><th scope="row">{_e(r["policy"])}{" (oracle)" if r.get("oracle") else ""}'
            f'</th><td class="text">{_e(r["task_id"])}</td><td>{r["episodes"]}</td>'
            f'<td>{r["ok"]}</td><td>{_fmt(r["total_reward"])}</td>'
            + "".join(f"<td>{_fmt(r['components'].get(n))}</td>" for n in names)
            + f'<td>{_fmt(r["seconds"], 2)}</td></tr>' for r in mine)
        out.append(
            f'<div class="table-wrap" role="region" aria-label="{_e(family)} results" '
            f'tabindex="0"><table><caption>{_e(family)}: means over scored episodes</caption>'
            f'<thead><tr><th scope="col">Policy</th><th scope="col">Task</th>'
            f'<th scope="col">Episodes</th><th scope="col">ok</th><th scope="col">Reward</th>'
            f'{head}<th scope="col">Seconds</th></tr></thead><tbody>{body}</tbody></table></div>')
    return "".join(out)


def _figure_tables(rows: list[dict]) -> str:
    """One table per kind of family figures (svg: SVGBench's score): their headline."""
    out = []
    for title in dict.fromkeys(r["figures"]["title"] for r in rows if "figures" in r):
        mine = [r for r in rows if r.get("figures", {}).get("title") == title]
        names = list(mine[0]["figures"]["headline"])
        head = "".join(f'<th scope="col">{_e(n)}</th>' for n in names)
        body = "".join(
            f'<tr><th scope="row">{_e(r["policy"])}</th><td class="text">{_e(r["task_id"])}'
            "</td>" + "".join(f"<td>{_fmt(v) if isinstance(v, float) else _fmt(v, 0)}</td>"
                              for v in r["figures"]["headline"].values()) + "</tr>"
            for r in mine)
        out.append(
            f'<div class="table-wrap" role="region" aria-label="{_e(title)}" tabindex="0">'
            f"<table><caption>{_e(title)}</caption><thead><tr>"
            f'<th scope="col">Policy</th><th scope="col">Task</th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")
    return "".join(out)


def write_html_report(results: list[dict], out_dir: Path, *, title: str,
                      single_turn: list[dict] | None = None) -> Path:
    """Write ``out_dir/report.html`` for these episode records and return its path;
    ``single_turn`` are the render families' summary rows (a table per family)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    policies = sorted({str(r.get("policy", "?")) for r in results})
    tasks = sorted({str(r.get("task_id", "?")) for r in results})
    lede = (f"{len(results)} episode{'s' * (len(results) != 1)} · {len(policies)} "
            f"polic{'y' if len(policies) == 1 else 'ies'} · {len(tasks)} task{'s' * (len(tasks) != 1)}")
    cards = "".join(_card(i, r) if "profile" in r else _render_card(i, r)
                    for i, r in enumerate(results, 1))
    layout = [r for r in results if "profile" in r]
    tables = ((_summary(layout) if layout else "") + _family_tables(single_turn or [])
              + _figure_tables(single_turn or []))
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>"
        f'<h1>{_e(title)}</h1><p class="lede">{_e(lede)}</p>'
        f'<section aria-labelledby="summary-heading"><h2 id="summary-heading">Summary</h2>'
        f"{tables or '<p>No episodes.</p>'}</section>"
        f'<section aria-labelledby="episodes-heading"><h2 id="episodes-heading">Episodes</h2>'
        f'<div class="cards">{cards}</div></section>'
        "</main></body></html>\n"
    )
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
