"""Training curves as a PNG: reward, valid-action rate, KL, staleness and learner idle
fraction per policy version, from the learner's ``curves.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

PANELS = (  # (curve row key, title)
    ("group_reward_mean", "mean group reward (episode return)"),
    ("valid_action_rate", "valid-action rate (turns that parse)"),
    ("kl", "KL to the starting weights"),
    ("staleness_mean", "staleness (versions behind)"),
    ("idle_fraction", "learner idle fraction (per update)"),
    ("entropy", "token entropy"),
)


def read_curves(path: str | Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def plot_curves(rows: list[dict], out: str | Path, title: str = "GRPO") -> Path:
    """Write one PNG with a panel per curve (panels with no data say so)."""
    import matplotlib

    matplotlib.use("Agg")  # files only; no display
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 3, figsize=(13, 6.5), constrained_layout=True)
    for ax, (key, label) in zip(axes.flat, PANELS, strict=True):
        points = [(r["version"], r[key]) for r in rows if r.get(key) is not None]
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("policy version")
        ax.grid(alpha=0.3)
        if points:
            ax.plot(*zip(*points, strict=True), marker="o", markersize=3, linewidth=1.2)
        else:
            ax.text(0.5, 0.5, "not recorded", ha="center", va="center", transform=ax.transAxes)
    figure.suptitle(title)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=100)
    plt.close(figure)
    return out
