"""Procedural layout tasks: one seed, one task (elements, content, brief, canvas).

Families: poster, editorial, flyer, slide, banner, mobile. Each seed draws its
own canvas aspect, optional elements, content lengths, sample text, brief and a
messy starting layout. Brief regions are the same region boxes that
``anchor_to_region`` uses, and a brief is only issued when a layout that meets
it exists (checked at generation), so a perfect brief fit is reachable.

Seeds below ``TEST_SEED_START`` are the train split; seeds from it on are test.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import pairwise

from designrl.tasks.layout.spec import Brief, ElementSpec, TaskSpec

FAMILIES = ("poster", "editorial", "flyer", "slide", "banner", "mobile")
TEST_SEED_START = 1_000_000

# Region boxes as fractions (x, y, w, h) of the usable area inside the safe
# margin: the same table DesignGym's region function produces.
REGION_FRACTIONS = {
    "top_band": (0.0, 0.0, 1.0, 0.18),
    "hero_center": (0.12, 0.18, 0.58, 0.46),
    "left_column": (0.0, 0.18, 0.4, 0.58),
    "right_column": (0.6, 0.18, 0.28, 0.58),
    "upper_right": (0.68, 0.12, 0.24, 0.18),
    "middle_band": (0.08, 0.45, 0.6, 0.2),
    "lower_left": (0.08, 0.6, 0.44, 0.22),
    "lower_right": (0.54, 0.6, 0.3, 0.22),
    "footer_strip": (0.0, 0.86, 1.0, 0.1),
    "footer_left": (0.0, 0.84, 0.24, 0.12),
    "top_right": (0.72, 0.0, 0.2, 0.18),
    "safe_lower_right": (0.64, 0.66, 0.24, 0.2),
}

DEFAULT_WEIGHTS = {
    "overlap": 0.14, "alignment": 0.12, "spacing": 0.09, "balance": 0.08,
    "hierarchy": 0.14, "grouping": 0.07, "reading_order": 0.08, "aspect_ratio": 0.08,
    "occupancy": 0.08, "text_fit": 0.04, "negative_space": 0.04, "intent_fit": 0.04,
}

SAFE_MARGIN = 0.04
CHARS_PER_AREA = 900.0  # text capacity per unit of normalised area (DesignGym's constant)


@dataclass(frozen=True)
class Archetype:
    """An element a family may contain, with size ranges in normalised units."""

    id: str
    role: str
    type: str
    importance: float
    group: str
    min_size: tuple[float, float]
    max_size: tuple[float, float]
    regions: tuple[str, ...]
    aspect: tuple[float, ...] = ()  # locked pixel aspects to draw from; () = free
    optional: float = 0.0  # probability of being left out
    text_fill: float = 0.0  # share of the typical box's capacity the text fills


def _a(id, role, type, imp, group, mn, mx, regions, aspect=(), optional=0.0, fill=0.0):
    return Archetype(id, role, type, imp, group, mn, mx, tuple(regions), aspect, optional, fill)


BLUEPRINTS: dict[str, tuple[tuple[float, float], list[Archetype]]] = {
    # family: ((min canvas aspect, max canvas aspect), archetypes in precedence order)
    "poster": ((0.66, 0.8), [
        _a("title", "title", "text", 1.0, "headline", (0.3, 0.07), (0.86, 0.18), ["top_band"], fill=0.7),
        _a("subtitle", "subtitle", "text", 0.78, "headline", (0.25, 0.05), (0.75, 0.12), ["top_band", "middle_band"], optional=0.2, fill=0.7),
        _a("hero_image", "image", "image", 0.92, "hero", (0.3, 0.2), (0.84, 0.5), ["hero_center"], aspect=(1.0, 1.33, 1.6)),
        _a("body", "body", "text", 0.6, "content", (0.3, 0.07), (0.7, 0.2), ["middle_band", "lower_left"], optional=0.4, fill=0.6),
        _a("cta", "cta", "text", 0.86, "footer", (0.16, 0.05), (0.4, 0.11), ["safe_lower_right", "lower_right", "lower_left"], fill=0.6),
        _a("logo", "logo", "image", 0.55, "brand", (0.08, 0.06), (0.2, 0.14), ["top_right", "footer_left"], aspect=(1.0,)),
        _a("badge", "badge", "shape", 0.5, "support", (0.1, 0.05), (0.26, 0.14), ["right_column", "upper_right"], optional=0.5, fill=0.5),
    ]),
    "editorial": ((0.7, 0.78), [
        _a("masthead", "title", "text", 1.0, "header", (0.5, 0.08), (0.92, 0.16), ["top_band"], fill=0.5),
        _a("hero_image", "image", "image", 0.9, "hero", (0.4, 0.25), (0.9, 0.6), ["hero_center"], aspect=(0.8, 1.0, 1.33)),
        _a("headline_1", "title", "text", 0.85, "stories", (0.26, 0.06), (0.6, 0.14), ["lower_left", "left_column"], fill=0.7),
        _a("headline_2", "subtitle", "text", 0.7, "stories", (0.22, 0.05), (0.5, 0.1), ["lower_right", "middle_band"], fill=0.7),
        _a("headline_3", "subtitle", "text", 0.6, "stories", (0.22, 0.05), (0.5, 0.1), ["right_column"], optional=0.4, fill=0.7),
        _a("teaser", "badge", "text", 0.5, "support", (0.14, 0.06), (0.3, 0.16), ["right_column", "upper_right"], optional=0.5, fill=0.6),
        _a("date", "caption", "text", 0.35, "header", (0.12, 0.03), (0.3, 0.06), ["top_right"], optional=0.5, fill=0.6),
        _a("barcode", "caption", "shape", 0.3, "footer", (0.1, 0.05), (0.18, 0.1), ["footer_left", "footer_strip"], aspect=(1.5,)),
    ]),
    "flyer": ((0.68, 0.76), [
        _a("title", "title", "text", 1.0, "headline", (0.3, 0.07), (0.8, 0.14), ["top_band"], fill=0.7),
        _a("subtitle", "subtitle", "text", 0.75, "headline", (0.25, 0.04), (0.7, 0.1), ["top_band"], optional=0.3, fill=0.7),
        _a("image_1", "image", "image", 0.8, "visuals", (0.22, 0.14), (0.5, 0.34), ["hero_center", "left_column"], aspect=(1.33, 1.0)),
        _a("image_2", "image", "image", 0.62, "visuals", (0.18, 0.12), (0.4, 0.28), ["right_column"], aspect=(1.0, 1.33), optional=0.4),
        _a("body_1", "body", "text", 0.58, "content", (0.26, 0.07), (0.48, 0.18), ["middle_band", "lower_left"], fill=0.6),
        _a("body_2", "body", "text", 0.5, "content", (0.22, 0.06), (0.44, 0.16), ["lower_right"], optional=0.4, fill=0.6),
        _a("price", "badge", "shape", 0.7, "conversion", (0.12, 0.06), (0.26, 0.14), ["upper_right", "right_column"], fill=0.5),
        _a("cta", "cta", "text", 0.84, "conversion", (0.16, 0.05), (0.36, 0.1), ["safe_lower_right", "lower_right"], fill=0.6),
        _a("logo", "logo", "image", 0.5, "brand", (0.08, 0.06), (0.16, 0.12), ["top_right", "footer_left"], aspect=(1.0,)),
        _a("contact", "caption", "text", 0.3, "footer", (0.3, 0.03), (0.8, 0.07), ["footer_strip"], optional=0.3, fill=0.6),
    ]),
    "slide": ((1.6, 1.8), [
        _a("title", "title", "text", 1.0, "headline", (0.4, 0.09), (0.9, 0.17), ["top_band"], fill=0.6),
        _a("subtitle", "subtitle", "text", 0.7, "headline", (0.3, 0.06), (0.7, 0.12), ["top_band", "middle_band"], optional=0.5, fill=0.6),
        _a("body", "body", "text", 0.65, "content", (0.26, 0.2), (0.45, 0.5), ["left_column"], fill=0.35),
        _a("chart", "image", "image", 0.8, "visuals", (0.22, 0.25), (0.5, 0.56), ["right_column", "hero_center"], aspect=(1.33, 1.6)),
        _a("logo", "logo", "image", 0.4, "brand", (0.04, 0.07), (0.1, 0.16), ["top_right", "footer_left"], aspect=(1.0,)),
        _a("footer", "caption", "text", 0.25, "footer", (0.2, 0.04), (0.6, 0.08), ["footer_strip"], optional=0.3, fill=0.5),
    ]),
    "banner": ((3.0, 4.0), [
        _a("logo", "logo", "image", 0.6, "brand", (0.04, 0.2), (0.1, 0.45), ["left_column", "footer_left"], aspect=(1.0,)),
        _a("title", "title", "text", 1.0, "headline", (0.3, 0.2), (0.6, 0.4), ["hero_center", "top_band"], fill=0.5),
        _a("subtitle", "subtitle", "text", 0.7, "headline", (0.25, 0.12), (0.5, 0.25), ["middle_band"], optional=0.4, fill=0.5),
        _a("image", "image", "image", 0.8, "visuals", (0.12, 0.4), (0.26, 0.9), ["right_column"], aspect=(1.0, 1.33)),
        _a("cta", "cta", "text", 0.85, "conversion", (0.1, 0.14), (0.2, 0.3), ["lower_right", "safe_lower_right"], fill=0.5),
    ]),
    "mobile": ((0.46, 0.52), [
        _a("nav", "caption", "shape", 0.3, "chrome", (0.6, 0.04), (0.92, 0.07), ["top_band"], fill=0.4),
        _a("title", "title", "text", 1.0, "headline", (0.5, 0.05), (0.9, 0.1), ["top_band", "middle_band"], fill=0.7),
        _a("hero_image", "image", "image", 0.85, "hero", (0.5, 0.14), (0.9, 0.32), ["hero_center"], aspect=(1.33, 1.6)),
        _a("body", "body", "text", 0.6, "content", (0.5, 0.08), (0.9, 0.2), ["middle_band", "lower_left"], fill=0.6),
        _a("cta", "cta", "text", 0.9, "conversion", (0.4, 0.05), (0.8, 0.08), ["footer_strip", "lower_left"], fill=0.6),
        _a("logo", "logo", "image", 0.45, "brand", (0.12, 0.05), (0.24, 0.1), ["top_right"], aspect=(1.0,), optional=0.3),
    ]),
}

GOALS = {
    "poster": "Make the title and hero image dominant and keep the call to action easy to find.",
    "editorial": "Keep the masthead dominant and build a headline stack that reads in order.",
    "flyer": "Fit dense content into a clear grid with an obvious price and call to action.",
    "slide": "One idea per slide: a clear title, readable body, and the chart beside it.",
    "banner": "Read left to right in one glance: brand, message, image, action.",
    "mobile": "A scannable single column with the primary action within thumb reach.",
}

WORDS = (
    "design studio summer launch bold new fresh light open city night market coffee "
    "music festival week edition story guide future craft local modern classic free "
    "event offer today join learn more series issue special report gallery"
).split()


def region_boxes(safe_margin: float = SAFE_MARGIN) -> dict[str, list[float]]:
    """Region boxes in canvas coordinates for a usable area inside the margin."""
    span = 1.0 - 2 * safe_margin
    return {
        name: [safe_margin + fx * span, safe_margin + fy * span, fw * span, fh * span]
        for name, (fx, fy, fw, fh) in REGION_FRACTIONS.items()
    }


def is_test_seed(seed: int) -> bool:
    return seed >= TEST_SEED_START


def generate_task(family: str, seed: int) -> TaskSpec:
    """The task for one (family, seed): deterministic, valid at reset."""
    if family not in BLUEPRINTS:
        raise ValueError(f"unknown layout family {family!r}; known: {', '.join(FAMILIES)}")
    rng = random.Random(f"designrl-layout:{family}:{seed}")
    (lo, hi), archetypes = BLUEPRINTS[family]
    aspect = round(rng.uniform(lo, hi), 3)
    chosen = [a for a in archetypes if a.optional == 0.0 or rng.random() >= a.optional]
    specs = [_element_spec(a, i + 1, aspect, rng) for i, a in enumerate(chosen)]
    regions = region_boxes()
    intents = {a.id: rng.choice(_fitting(a, s, regions)) for a, s in zip(chosen, specs, strict=True) if _fitting(a, s, regions)}
    brief = _brief(family, seed, specs, intents, regions, rng)
    draft = _draft_layout(specs, aspect, rng)
    texts = [s for s in specs if s.type == "text"]
    reading = [(a.id, b.id) for a, b in pairwise(texts)]
    return TaskSpec(
        task_id=f"gen-{family}",
        family=family,
        instance_id=f"{family}-{seed}",
        description=f"Generated {family} layout (seed {seed}).",
        difficulty="generated",
        max_steps=max(8, 2 * len(specs)),
        canvas_aspect=aspect,
        safe_margin=SAFE_MARGIN,
        elements=specs,
        templates={"draft": draft, "stack": _stack_template(specs)},
        reset_template="draft",
        reading_order=reading,
        occupancy_target=round(rng.uniform(0.45, 0.6), 3),
        occupancy_tolerance=0.2,
        init_noise=0.0,
        intent_regions=intents,
        weights=dict(DEFAULT_WEIGHTS),
        briefs=[brief],
        seeded_defects=[],
        region_boxes=regions,
    )


def _element_spec(a: Archetype, z: int, aspect: float, rng: random.Random) -> ElementSpec:
    (min_w, min_h), (max_w, max_h) = a.min_size, a.max_size
    ratio = rng.choice(a.aspect) if a.aspect else None
    if ratio is not None:
        # Lock the box to a pixel aspect: normalised w/h = ratio / canvas aspect.
        k = ratio / aspect
        min_w, max_w = min_h * k, max_h * k
        if max_w > 0.92:
            max_w, max_h = 0.92, 0.92 / k
    typical_area = ((min_w + max_w) / 2) * ((min_h + max_h) / 2)
    content_len = int(a.text_fill * CHARS_PER_AREA * typical_area * rng.uniform(0.7, 1.2))
    return ElementSpec(
        id=a.id, role=a.role, type=a.type, importance=a.importance, group=a.group,
        content_len=content_len,
        min_size=(round(min_w, 4), round(min_h, 4)),
        max_size=(round(max_w, 4), round(max_h, 4)),
        aspect_ratio=ratio, precedence=z, z=z,
        text=_sample_text(content_len, rng) if content_len else None,
    )


def _sample_text(length: int, rng: random.Random) -> str:
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < length:
        words.append(rng.choice(WORDS))
    text = " ".join(words)
    if len(text) > length and " " in text[:length]:
        text = text[:length].rsplit(" ", 1)[0]
    return text.capitalize()


def _fitting(a: Archetype, spec: ElementSpec, regions: dict) -> list[str]:
    """Candidate regions that can hold the element at its minimum size."""
    return [r for r in a.regions if spec.min_size[0] <= regions[r][2] and spec.min_size[1] <= regions[r][3]]


def _brief(family, seed, specs, intents, regions, rng) -> Brief:
    """Require regions for a few elements, only where all can be met together."""
    candidates = [s for s in specs if s.id in intents]
    rng.shuffle(candidates)
    placed: dict[str, list[float]] = {}
    required: dict[str, str] = {}
    for spec in candidates[: rng.randint(3, 5)]:
        region = intents[spec.id]
        box = _place_min_in_region(spec, regions[region], list(placed.values()))
        if box is not None:
            placed[spec.id] = box
            required[spec.id] = region
    order = [s.id for s in specs if s.id in required]
    return Brief(
        brief_id=f"{family}-{seed}",
        primary_goal=GOALS[family],
        required_regions={k: required[k] for k in order},
        preferences={"hierarchy": "strong", "whitespace": rng.choice(["medium", "high"])},
    )


def _place_min_in_region(spec, region, taken) -> list[float] | None:
    """A min-size box inside the region that overlaps none of ``taken`` (or None)."""
    w, h = spec.min_size
    rx, ry, rw, rh = region
    for fx in (0.5, 0.0, 1.0):
        for fy in (0.5, 0.0, 1.0):
            box = [rx + fx * (rw - w), ry + fy * (rh - h), w, h]
            if all(not _overlaps(box, t) for t in taken):
                return box
    return None


def _overlaps(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _stack_template(specs: list[ElementSpec]) -> dict[str, list[float]]:
    """A plain single-column stack in precedence order (a valid, dull layout)."""
    usable = 1 - 2 * SAFE_MARGIN
    heights = [s.min_size[1] for s in specs]
    gap = max(0.0, (usable - sum(heights)) / (len(specs) + 1))
    y, boxes = SAFE_MARGIN + gap, {}
    for s, h in zip(specs, heights, strict=True):
        w = s.min_size[0]
        boxes[s.id] = [SAFE_MARGIN + (usable - w) / 2, min(y, 1 - SAFE_MARGIN - h), w, h]
        y += h + gap
    return boxes


def _draft_layout(specs: list[ElementSpec], aspect: float, rng: random.Random) -> dict[str, list[float]]:
    """A messy but valid first draft: rough sizes, jittered positions."""
    boxes = {}
    for s in specs:
        t = rng.uniform(0.2, 0.8)
        w = s.min_size[0] + t * (s.max_size[0] - s.min_size[0])
        h = s.min_size[1] + t * (s.max_size[1] - s.min_size[1])
        if s.aspect_ratio is None:
            h = s.min_size[1] + rng.uniform(0.1, 0.9) * (s.max_size[1] - s.min_size[1])
        x = rng.uniform(SAFE_MARGIN, 1 - SAFE_MARGIN - w)
        y = rng.uniform(SAFE_MARGIN, 1 - SAFE_MARGIN - h)
        boxes[s.id] = [round(x, 4), round(y, 4), round(w, 4), round(h, 4)]
    return boxes


def pixel_aspect(bbox, canvas_aspect: float) -> float:
    """Width / height of a box in pixels."""
    return (bbox[2] / bbox[3]) * canvas_aspect if bbox[3] > 0 else math.inf


__all__ = [
    "FAMILIES", "TEST_SEED_START", "generate_task", "region_boxes", "is_test_seed",
    "pixel_aspect",
]
