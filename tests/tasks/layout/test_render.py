"""Layout renders: well-formed, escaped, deterministic SVG and a real PNG."""

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from designrl.tasks.layout.generate import generate_task
from designrl.tasks.layout.render import layout_to_png, layout_to_svg
from designrl.tasks.layout.spec import Element, ElementSpec, Layout, designgym_task

NS = "{http://www.w3.org/2000/svg}"


def draft(task, template=None):
    boxes = task.templates[template or task.reset_template]
    return Layout([Element(e.id, list(boxes[e.id]), e.z) for e in task.elements])


def element_groups(svg: str):
    root = ET.fromstring(svg)
    return root, [g for g in root.iter(f"{NS}g") if g.get("class") == "el"]


@pytest.mark.parametrize("task_id", ["poster_basic_v1", "editorial_cover_v1", "dense_flyer_v1"])
def test_svg_parses_with_one_group_and_box_per_element(task_id):
    task = designgym_task(task_id)
    layout = draft(task, "draft")
    svg = layout_to_svg(task, layout, brief=task.briefs[0])
    root, groups = element_groups(svg)
    assert root.tag == f"{NS}svg" and root.get("width") == "480" and root.get("height") == "480"
    assert [g.get("data-id") for g in groups] == [
        e.id for e in sorted(layout.elements, key=lambda e: e.z)
    ]
    for g in groups:
        assert g.find(f"{NS}rect") is not None  # the element's box comes first
    regions = {r.get("data-region") for r in root.iter(f"{NS}rect") if r.get("class") == "region"}
    assert regions == set(task.briefs[0].required_regions.values())
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert {e.id for e in task.elements} <= set(labels)


def test_svg_is_deterministic_and_labels_optional():
    task = designgym_task("poster_basic_v1")
    layout = draft(task)
    assert layout_to_svg(task, layout) == layout_to_svg(task, layout)
    plain = layout_to_svg(task, layout, show_labels=False)
    root, groups = element_groups(plain)
    assert len(groups) == len(task.elements)
    assert not [g for g in root.iter(f"{NS}g") if g.get("class") == "label"]


def test_svg_escapes_ids_and_roles_from_data():
    nasty = '<script>alert("x")</script>&'
    task = designgym_task("poster_basic_v1").model_copy(deep=True)
    spec = task.elements[0]
    task.elements[0] = ElementSpec(**{**spec.model_dump(), "id": nasty, "role": "<b>"})
    layout = draft(designgym_task("poster_basic_v1"))
    layout.elements[0].id = nasty
    svg = layout_to_svg(task, layout, brief={"required_regions": {nasty: "top_band"}})
    assert "<script" not in svg and "<b>" not in svg
    root, groups = element_groups(svg)  # still well-formed XML
    assert nasty in [g.get("data-id") for g in groups]
    assert any(t.text and t.text.startswith("<script>") for t in root.iter(f"{NS}text"))


def test_wide_canvas_and_odd_boxes():
    task = generate_task("banner", 3)
    layout = draft(task)
    layout.elements[0].bbox = [0.9, 0.9, 0.0, 0.0]  # degenerate
    layout.elements[-1].bbox = [-0.2, -0.1, 1.5, 1.4]  # off canvas
    root, groups = element_groups(layout_to_svg(task, layout, width=600))
    assert int(root.get("height")) == round(600 / task.canvas_aspect)
    assert len(groups) == len(task.elements)
    png = Image.open(io.BytesIO(layout_to_png(task, layout, width=600)))
    assert png.size == (600, round(600 / task.canvas_aspect))


@pytest.mark.parametrize("width", [480, 240])
def test_png_decodes_to_expected_size_and_is_not_flat(width):
    task = designgym_task("poster_basic_v1")
    data = layout_to_png(task, draft(task, "draft"), width=width)
    assert data.startswith(b"\x89PNG")
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.size == (width, width)
    colors = img.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 20
    assert layout_to_png(task, draft(task, "draft"), width=width) == data


def test_png_for_tall_generated_task():
    task = generate_task("mobile", 5)
    img = Image.open(io.BytesIO(layout_to_png(task, draft(task), brief=task.briefs[0])))
    assert img.size == (480, round(480 / task.canvas_aspect))
    lo, hi = img.convert("L").getextrema()
    assert hi - lo > 50
