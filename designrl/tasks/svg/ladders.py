"""The svg reward's ladders: for a few packaged prompts, five completions from best to worst
(correct, one requirement missing, wrong colours, nothing but the background, unparseable),
which the reward must score in that order. ``bench/reward_validity.py`` and
``tests/tasks/svg`` run them through ``FAMILY.scorer(pool).score_item``."""

from __future__ import annotations

from designrl.tasks.integrity import Ladder
from designrl.tasks.svg.dataset import load_prompts

NS = 'xmlns="http://www.w3.org/2000/svg"'
RUNGS = ("correct", "one requirement missing", "wrong colours", "background only",
         "unparseable")


def fenced(svg: str) -> str:
    return f"```svg\n{svg.strip()}\n```"


def ladders() -> list[Ladder]:
    """One ladder per prompt in ``LADDER_SVGS``, each rung a fenced SVG, best first."""
    items = {item.id: item for item in load_prompts()}
    return [Ladder("svg-prompts", items[prompt_id],
                   tuple((name, fenced(svg)) for name, svg in zip(RUNGS, svgs, strict=True)))
            for prompt_id, svgs in LADDER_SVGS.items()]


LADDER_SVGS: dict[str, list[str]] = {
    "traffic-light": [
        f"""<svg {NS} viewBox="0 0 200 300" width="200" height="300">
  <rect width="200" height="300" fill="white"/>
  <rect x="60" y="20" width="80" height="260" rx="12" fill="#333333"/>
  <circle cx="100" cy="70" r="30" fill="red"/>
  <circle cx="100" cy="150" r="30" fill="#ffd700"/>
  <circle cx="100" cy="230" r="30" fill="green"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 200 300" width="200" height="300">
  <rect width="200" height="300" fill="white"/>
  <rect x="60" y="20" width="80" height="260" rx="12" fill="#333333"/>
  <circle cx="100" cy="70" r="30" fill="red"/>
  <circle cx="100" cy="150" r="30" fill="#ffd700"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 200 300" width="200" height="300">
  <rect width="200" height="300" fill="white"/>
  <rect x="60" y="20" width="80" height="260" rx="12" fill="#8b4513"/>
  <circle cx="100" cy="70" r="30" fill="blue"/>
  <circle cx="100" cy="150" r="30" fill="purple"/>
  <circle cx="100" cy="230" r="30" fill="pink"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 200 300" width="200" height="300">
  <rect width="200" height="300" fill="white"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 200 300"><rect width="200" height="300" fill="white">
  <circle cx="100" cy="70" r="30" fill="red"></rect></svg>""",
    ],
    "house": [
        f"""<svg {NS} viewBox="0 0 400 400">
  <rect x="0" y="0" width="400" height="400" fill="#add8e6"/>
  <rect x="100" y="200" width="200" height="150" fill="#8b4513"/>
  <polygon points="80,200 200,100 320,200" fill="#cc0000"/>
  <rect x="130" y="230" width="50" height="50" fill="blue"/>
  <rect x="220" y="270" width="40" height="80" fill="#5a2d0c"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 400">
  <rect x="0" y="0" width="400" height="400" fill="#add8e6"/>
  <rect x="100" y="200" width="200" height="150" fill="#8b4513"/>
  <polygon points="80,200 200,100 320,200" fill="#cc0000"/>
  <rect x="220" y="270" width="40" height="80" fill="#5a2d0c"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 400">
  <rect x="0" y="0" width="400" height="400" fill="#222222"/>
  <rect x="100" y="200" width="200" height="150" fill="#7fff00"/>
  <polygon points="80,200 200,100 320,200" fill="#00bfff"/>
  <rect x="130" y="230" width="50" height="50" fill="yellow"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 400">
  <rect x="0" y="0" width="400" height="400" fill="#add8e6"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 400"><rect x="0" y="0" width="400" height="400" fill="#add8e6"/>
  <polygon points="80,200 200,100 320,200" fill="#cc0000"</svg>""",
    ],
    "stop-sign": [
        f"""<svg {NS} viewBox="0 0 300 300">
  <polygon points="100,40 200,40 260,100 260,200 200,260 100,260 40,200 40,100" fill="#d00000"/>
  <text x="150" y="168" font-size="56" font-weight="bold" text-anchor="middle"
        fill="white">STOP</text>
</svg>""",
        f"""<svg {NS} viewBox="0 0 300 300">
  <polygon points="100,40 200,40 260,100 260,200 200,260 100,260 40,200 40,100" fill="#d00000"/>
</svg>""",
        f"""<svg {NS} viewBox="0 0 300 300">
  <rect width="300" height="300" fill="black"/>
  <polygon points="100,40 200,40 260,100 260,200 200,260 100,260 40,200 40,100" fill="#1e90ff"/>
  <text x="150" y="168" font-size="56" text-anchor="middle" fill="#ffd700">STOP</text>
</svg>""",
        f"""<svg {NS} viewBox="0 0 300 300"><rect width="300" height="300" fill="#fff"/></svg>""",
        """<svg viewBox="0 0 300 300"><text>STOP &nbsp;</text></svg>""",
    ],
    "night-sky": [
        f"""<svg {NS} viewBox="0 0 400 300">
  <defs>
    <polygon id="star" points="0,-10 2.9,-4 9.5,-3.1 4.8,1.5 5.9,8.1 0,5 -5.9,8.1 -4.8,1.5 -9.5,-3.1 -2.9,-4"/>
  </defs>
  <rect width="400" height="300" fill="#0b1a4a"/>
  <circle cx="330" cy="60" r="30" fill="white"/>
  <g fill="yellow">
    <use href="#star" x="50" y="50"/><use href="#star" x="120" y="100"/>
    <use href="#star" x="200" y="40"/><use href="#star" x="80" y="200"/>
    <use href="#star" x="250" y="180"/><use href="#star" x="340" y="240"/>
  </g>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 300">
  <defs>
    <polygon id="star" points="0,-10 2.9,-4 9.5,-3.1 4.8,1.5 5.9,8.1 0,5 -5.9,8.1 -4.8,1.5 -9.5,-3.1 -2.9,-4"/>
  </defs>
  <rect width="400" height="300" fill="#0b1a4a"/>
  <g fill="yellow">
    <use href="#star" x="50" y="50"/><use href="#star" x="120" y="100"/>
    <use href="#star" x="200" y="40"/><use href="#star" x="80" y="200"/>
    <use href="#star" x="250" y="180"/><use href="#star" x="340" y="240"/>
  </g>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 300">
  <defs>
    <polygon id="star" points="0,-10 2.9,-4 9.5,-3.1 4.8,1.5 5.9,8.1 0,5 -5.9,8.1 -4.8,1.5 -9.5,-3.1 -2.9,-4"/>
  </defs>
  <rect width="400" height="300" fill="#ffcc88"/>
  <circle cx="330" cy="60" r="30" fill="#ff4500"/>
  <g fill="#9932cc">
    <use href="#star" x="50" y="50"/><use href="#star" x="120" y="100"/>
    <use href="#star" x="200" y="40"/><use href="#star" x="80" y="200"/>
    <use href="#star" x="250" y="180"/><use href="#star" x="340" y="240"/>
  </g>
</svg>""",
        f"""<svg {NS} viewBox="0 0 400 300"><rect width="400" height="300" fill="#0b1a4a"/></svg>""",
        """Here is your night sky: <svg viewBox="0 0 400 300"><rect width="400" height="300"
  fill="#0b1a4a"/><circle cx="330" cy="60" r="30" fill="white"></svg>""",
    ],
}
"""Prompt id -> the bare SVGs of its rungs, in ``RUNGS`` order."""
