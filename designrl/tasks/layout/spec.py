"""Typed layout task data: element specs, briefs, task specs and layout state.

Coordinates are normalised to the canvas: a bbox is ``[x, y, w, h]`` with the
origin at the top left and the canvas spanning ``[0, 1]`` on both axes. A
canvas that is not square keeps normalised coordinates and records its pixel
aspect in ``canvas`` (width / height), which aspect-ratio checks account for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

Bbox = list[float]  # [x, y, w, h]

REGION_IDS = (
    "top_band",
    "hero_center",
    "left_column",
    "right_column",
    "upper_right",
    "middle_band",
    "lower_left",
    "lower_right",
    "footer_strip",
    "footer_left",
    "top_right",
    "safe_lower_right",
)


class ElementSpec(BaseModel):
    """One element of a task: what it is and the limits on its box."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    role: str  # title, subtitle, body, image, cta, logo, badge, caption, ...
    type: str  # text, image, shape
    importance: float
    group: str
    content_len: int = 0
    min_size: tuple[float, float]
    max_size: tuple[float, float]
    aspect_ratio: float | None = None  # locked w/h in canvas pixels, or None
    precedence: int
    movable: bool = True
    resizable: bool = True
    z: int = 1
    text: str | None = None  # sample content for renders (generated tasks)


class Brief(BaseModel):
    """What the client asked for: where required elements should sit."""

    model_config = ConfigDict(extra="allow")

    brief_id: str
    primary_goal: str = ""
    required_regions: dict[str, str] = {}
    preferences: dict[str, str] = {}


class SeededDefect(BaseModel):
    element_id: str
    field: str  # x, y, w or h
    delta: float


class TaskSpec(BaseModel):
    """Everything an env needs to reset a layout task."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    family: str
    instance_id: str = ""
    description: str = ""
    difficulty: str = ""
    max_steps: int
    canvas_aspect: float = 1.0  # width / height in pixels
    safe_margin: float = 0.04
    elements: list[ElementSpec]
    templates: dict[str, dict[str, Bbox]]
    reset_template: str = "draft"
    reading_order: list[tuple[str, str]] = []
    occupancy_target: float
    occupancy_tolerance: float
    init_noise: float = 0.0
    text_density_target: float = 0.7
    intent_regions: dict[str, str] = {}
    weights: dict[str, float]
    briefs: list[Brief]
    seeded_defects: list[SeededDefect] = []
    region_boxes: dict[str, Bbox]

    def element(self, element_id: str) -> ElementSpec | None:
        for spec in self.elements:
            if spec.id == element_id:
                return spec
        return None


@dataclass
class Element:
    """An element's current box and stacking order. Mutable and cheap to copy."""

    id: str
    bbox: list[float]
    z: int

    def copy(self) -> Element:
        return Element(self.id, list(self.bbox), self.z)


@dataclass
class Layout:
    """The elements of one layout, in the task's element order."""

    elements: list[Element] = field(default_factory=list)

    def copy(self) -> Layout:
        return Layout([e.copy() for e in self.elements])

    def by_id(self) -> dict[str, Element]:
        return {e.id: e for e in self.elements}

    def to_json(self) -> list[dict]:
        return [{"id": e.id, "bbox": list(e.bbox), "z": e.z} for e in self.elements]

    @classmethod
    def from_json(cls, items: list[dict]) -> Layout:
        return cls([Element(str(i["id"]), [float(v) for v in i["bbox"]], int(i["z"])) for i in items])


DESIGNGYM_TASK_IDS = ("poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1")


@cache
def designgym_data() -> dict:
    """DesignGym 2.0's task data (values extracted from its env; see README)."""
    text = resources.files(__package__).joinpath("data/designgym_tasks.json").read_text()
    return json.loads(text)


@cache
def designgym_task(task_id: str) -> TaskSpec:
    """One of DesignGym's three tasks as a TaskSpec."""
    data = designgym_data()
    raw = data["tasks"][task_id]
    return TaskSpec(
        task_id=task_id,
        family={"poster_basic_v1": "poster", "editorial_cover_v1": "editorial"}.get(
            task_id, "flyer"
        ),
        instance_id=raw["instance_id"],
        description=raw["description"],
        difficulty=raw["difficulty"],
        max_steps=raw["max_steps"],
        safe_margin=raw["safe_margin"][0],
        elements=[ElementSpec(**e) for e in raw["elements"]],
        templates=raw["templates"],
        reset_template=raw["reset_template"],
        reading_order=[tuple(p) for p in raw["reading_order"]],
        occupancy_target=raw["occupancy_target"],
        occupancy_tolerance=raw["occupancy_tolerance"],
        init_noise=raw["init_noise"],
        text_density_target=raw["text_density_target"],
        intent_regions=raw["intent_regions"],
        weights=raw["weights"],
        briefs=[Brief(**b) for b in raw["briefs"]],
        seeded_defects=[SeededDefect(**d) for d in raw["seeded_defects"]],
        region_boxes=data["region_boxes"],
    )
