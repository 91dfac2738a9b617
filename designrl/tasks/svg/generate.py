"""Procedural svg items: one seed, one small scene, one prompt and its requirement sentences.

Each seed draws a hidden scene on a 3 x 3 grid of cells: a background colour
and two to four groups of shapes (circles, squares, rectangles, ellipses,
triangles, stars, pentagons, hexagons, lines, quoted text labels), each group a
colour, a count and a cell, and sometimes a label or small shape inside another
group. The prompt describes the scene; the requirements are sentences that are
true of it and that ``parse_requirement`` reads into computed checks, so every
generated requirement is checked exactly, with no judge: the counts follow the
checker's nouns (a square is also a rectangle, a star also a polygon), and the
colours of one scene are never neighbours a checker could confuse (no red with
orange or pink, no brown with orange). The layout itself stays hidden, so a
policy must read the requirements, not copy a scene.

Seeds below ``TEST_SEED_START`` are the train split; seeds from it on are test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from designrl.tasks.layout.generate import TEST_SEED_START
from designrl.tasks.svg.spec import SvgItem

__all__ = ["TEST_SEED_START", "generate_item", "is_test_seed"]

MIN_REQUIREMENTS = 4
MAX_REQUIREMENTS = 9
MIN_SHAPES = 2
MAX_SHAPES = 6
GRID = 3

COLORS = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white", "gray",
          "brown", "pink")
"""Basic colour words; a scene uses only pairs that are not neighbours (``_CONFLICTS``)."""
_CONFLICTS = {frozenset(p) for p in (("red", "orange"), ("orange", "yellow"), ("red", "pink"),
                                     ("pink", "purple"), ("brown", "orange"), ("brown", "red"),
                                     ("brown", "black"), ("gray", "white"), ("gray", "black"))}
SHAPE_KINDS = ("circle", "square", "rectangle", "ellipse", "triangle", "star", "pentagon",
               "hexagon", "line")
_ANSWERS = {"circle": {"circle"}, "ellipse": {"ellipse"}, "square": {"square", "rectangle"},
            "rectangle": {"rectangle"}, "triangle": {"triangle", "polygon"},
            "star": {"star", "polygon"}, "pentagon": {"pentagon", "polygon"},
            "hexagon": {"hexagon", "polygon"}, "line": {"line"}, "text": {"text"}}
"""The nouns a shape of each kind answers to in a requirement (besides "shape")."""
CONTAINERS = ("circle", "square", "rectangle")
CONTAINED = ("circle", "star", "triangle", "square")
WORDS = ("SALE", "OPEN", "HELLO", "STOP", "JOIN", "PLAY", "NEW", "SHOP", "HOME", "MENU",
         "Hi", "Yes", "Go", "Relax", "Music", "Bloom", "Ocean", "Night", "Coffee", "Pixel")
THEMES = ("an abstract geometric composition", "a minimal poster", "a simple flat illustration",
          "a playful sticker sheet", "a tidy icon board", "a modern art print",
          "a clean infographic panel", "a small logo study")
CANVASES = ((400, 400), (400, 300), (300, 300), (500, 300), (300, 400))
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six")


@dataclass
class _Group:
    """Identical shapes in one cell: ``count`` of ``kind`` in ``color`` (text: one label)."""

    kind: str
    color: str
    count: int
    cell: tuple[int, int] | None = None
    text: str | None = None
    stroke: str | None = None
    parent: _Group | None = None
    children: list[_Group] = field(default_factory=list)

    def answers(self, noun: str) -> bool:
        return noun in _ANSWERS[self.kind] or (noun == "shape" and self.kind != "text")

    def phrase(self) -> str:
        """How a requirement names one of the group: "the red circle", "the text 'SALE'"."""
        if self.kind == "text":
            return f"the text '{self.text}'"
        return f"the {self.color} {self.kind}"


def is_test_seed(seed: int) -> bool:
    return seed >= TEST_SEED_START


def generate_item(seed: int) -> SvgItem:
    """The item for one seed: deterministic, with 4-9 requirements that all parse."""
    rng = random.Random(seed)
    canvas = rng.choice(CANVASES)
    background, groups = _draw_scene(rng)
    requirements = _write_requirements(rng, canvas, background, groups)
    return SvgItem(f"gen-svg-{seed}", _write_prompt(rng, background, groups), tuple(requirements))


def _draw_scene(rng: random.Random) -> tuple[str, list[_Group]]:
    background = rng.choice(COLORS)
    used = [background]
    groups: list[_Group] = []
    total = 0
    n_groups = rng.randint(2, 4)
    texts = 0
    while len(groups) < n_groups and total < MAX_SHAPES:
        color = _pick_color(rng, used)
        if color is None:
            break
        used.append(color)
        if texts == 0 and rng.random() < 0.3:
            word = rng.choice(WORDS)
            groups.append(_Group("text", color, 1, text=word))
            texts += 1
            total += 1
            continue
        kind = rng.choice(SHAPE_KINDS)
        count = 1 if rng.random() < 0.6 else rng.randint(2, 3)
        count = min(count, MAX_SHAPES - total)
        groups.append(_Group(kind, color, count))
        total += count
    cells = [(r, c) for r in range(GRID) for c in range(GRID)]
    rng.shuffle(cells)
    for group in groups:
        group.cell = cells.pop()
    _nest_one(rng, groups, used, total)
    if rng.random() < 0.25:
        candidates = [g for g in groups if g.kind in ("circle", "square", "rectangle", "star",
                                                      "triangle", "hexagon", "pentagon")]
        if candidates:
            group = rng.choice(candidates)
            group.stroke = _pick_color(rng, [group.color, background])
    return background, groups


def _nest_one(rng: random.Random, groups: list[_Group], used: list[str], total: int) -> None:
    """Sometimes put a label or a small shape inside a single-shape container group."""
    hosts = [g for g in groups if g.kind in CONTAINERS and g.count == 1]
    if not hosts or total >= MAX_SHAPES or rng.random() < 0.45:
        return
    host = rng.choice(hosts)
    color = _pick_color(rng, used)
    if color is None:
        return
    used.append(color)
    if rng.random() < 0.5 and not any(g.kind == "text" for g in groups):
        child = _Group("text", color, 1, text=rng.choice(WORDS))
    else:
        count = 1 if rng.random() < 0.7 else min(2, MAX_SHAPES - total)
        child = _Group(rng.choice(CONTAINED), color, count)
    child.cell, child.parent = host.cell, host
    host.children.append(child)
    groups.append(child)


def _pick_color(rng: random.Random, used: list[str]) -> str | None:
    free = [c for c in COLORS if c not in used
            and not any(frozenset((c, u)) in _CONFLICTS for u in used)]
    return rng.choice(free) if free else None


def _count(groups: list[_Group], noun: str, color: str | None = None) -> int:
    return sum(g.count for g in groups
               if g.answers(noun) and (color is None or g.color == color))


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _plural(kind: str, n: int) -> str:
    return kind if n == 1 else kind + "s"


def _number(rng: random.Random, n: int) -> str:
    return _NUMBER_WORDS[n] if rng.random() < 0.5 and n < len(_NUMBER_WORDS) else str(n)


def _presence(rng: random.Random, group: _Group) -> str:
    if group.kind == "text":
        return rng.choice((f"Contains the text '{group.text}'",
                           f"The word '{group.text}' must appear",
                           f"Include the label '{group.text}'"))
    name = f"{group.color} {group.kind}"
    if group.count == 1 and rng.random() < 0.6:
        return f"Include {_a(name)}"
    n = _number(rng, group.count)
    noun = f"{group.color} {_plural(group.kind, group.count)}"
    return rng.choice((f"Include exactly {n} {noun}", f"There must be exactly {n} {noun}",
                       f"The number of {group.color} {group.kind}s must be {n}"))


def _write_requirements(rng: random.Random, canvas: tuple[int, int], background: str,
                        groups: list[_Group]) -> list[str]:
    first = []
    if rng.random() < 0.85:
        first.append(rng.choice((f"The background must be {background}",
                                 f"Use {_a(background)} background",
                                 f"The background color should be {background}")))
    first += [_presence(rng, g) for g in groups]
    extras = _extra_sentences(rng, canvas, groups)
    rng.shuffle(extras)
    room = MAX_REQUIREMENTS - len(first)
    want = max(MIN_REQUIREMENTS - len(first), rng.randint(1, max(1, room)))
    return first + extras[:min(room, want)]


def _extra_sentences(rng: random.Random, canvas: tuple[int, int],
                     groups: list[_Group]) -> list[str]:
    out: list[str] = []
    top = [g for g in groups if g.parent is None]
    for a, b in _pairs(rng, top):
        out.append(_relation(rng, a, b))
    for group in rng.sample(top, k=min(2, len(top))):
        out.append(_placement(rng, group))
    for child in (g for g in groups if g.parent is not None):
        verb = "is" if child.count == 1 else "are"
        name = child.phrase() if child.count == 1 else f"the {child.color} {child.kind}s"
        out.append(f"{name[0].upper()}{name[1:]} {verb} inside {child.parent.phrase()}")
    kinds = sorted({g.kind for g in groups if g.kind != "text"})
    noun = rng.choice(kinds) if kinds else None
    if noun is not None:
        n = _count(groups, noun)
        out.append(rng.choice((f"Include exactly {_number(rng, n)} {_plural(noun, n)}",
                               f"The number of {noun}s must be {_number(rng, n)}")))
        colors = {g.color for g in groups if g.answers(noun)}
        if len(colors) == 1:
            out.append(f"All {noun}s must be {colors.pop()}")
    absent = [k for k in SHAPE_KINDS if _count(groups, k) == 0]
    if absent:
        kind = rng.choice(absent)
        out.append(rng.choice((f"There must be no {kind}s",
                               f"The drawing must not contain any {kind}s")))
    colors = list(dict.fromkeys(g.color for g in groups))
    if len(colors) >= 2:
        chosen = rng.sample(colors, k=min(len(colors), rng.randint(2, 3)))
        out.append("Use the colors " + ", ".join(chosen[:-1]) + f" and {chosen[-1]}")
    texts = [g for g in groups if g.kind == "text"]
    if len(texts) == 1 and rng.random() < 0.5:
        out.append(f"All text must be {texts[0].color}")
    for group in groups:
        if group.stroke is not None:
            out.append(f"The {group.color} {group.kind} has {_a(group.stroke)} outline")
    if rng.random() < 0.3:
        out.append(f"The canvas must be {canvas[0]}x{canvas[1]}")
    return out


def _pairs(rng: random.Random, groups: list[_Group]) -> list[tuple[_Group, _Group]]:
    pairs = [(a, b) for i, a in enumerate(groups) for b in groups[i + 1:]]
    rng.shuffle(pairs)
    return pairs[:3]


def _relation(rng: random.Random, a: _Group, b: _Group) -> str:
    assert a.cell is not None and b.cell is not None
    options = []
    if a.cell[0] != b.cell[0]:
        options.append("is above" if a.cell[0] < b.cell[0] else "is below")
    if a.cell[1] != b.cell[1]:
        options.append("is to the left of" if a.cell[1] < b.cell[1] else "is to the right of")
    first = a.phrase()
    return f"{first[0].upper()}{first[1:]} {rng.choice(options)} {b.phrase()}"


def _placement(rng: random.Random, group: _Group) -> str:
    assert group.cell is not None
    row, col = group.cell
    vertical = ("top", None, "bottom")[row]
    horizontal = ("left", None, "right")[col]
    name = group.phrase()
    name = name[0].upper() + name[1:]
    if vertical and horizontal:
        return f"{name} is in the {vertical} {horizontal} corner"
    if not vertical and not horizontal:
        return rng.choice((f"{name} is centered", f"{name} is in the center"))
    if vertical:
        return rng.choice((f"{name} is in the {vertical} half",
                           f"{name} is in the {vertical} part of the canvas"))
    return f"{name} is on the {horizontal} side"


def _describe(group: _Group) -> str:
    if group.kind == "text":
        return f"the word '{group.text}' in {group.color}"
    if group.count == 1:
        return _a(f"{group.color} {group.kind}")
    return f"{_NUMBER_WORDS[group.count]} {group.color} {group.kind}s"


def _write_prompt(rng: random.Random, background: str, groups: list[_Group]) -> str:
    top = [g for g in groups if g.parent is None]
    parts = [_describe(g) for g in top]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" and {parts[-1]}"
    prompt = f"Write `svg` code for {rng.choice(THEMES)} on {_a(background)} background with " \
             f"{listed}."
    for child in (g for g in groups if g.parent is not None):
        assert child.parent is not None
        prompt += f" Put {_describe(child)} inside the {child.parent.color} {child.parent.kind}."
    return prompt
