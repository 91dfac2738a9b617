"""The outline of one drawn element (circle, ellipse, rect, image, line, polyline,
polygon, path, text) as local-space subpaths, for ``facts``."""

from __future__ import annotations

from xml.etree.ElementTree import Element

from designrl.tasks.svg.geometry import (
    Subpath,
    ellipse_points,
    parse_length,
    parse_numbers,
    path_subpaths,
    rect_points,
)
from designrl.tasks.svg.parse import XLINK_NS, local_name


def element_outline(element: Element, tag: str, style: dict[str, str], max_points: int,
                    ids: dict[str, Element] | None = None
                    ) -> tuple[list[Subpath], list[bool], set[str]] | None:
    """Local-space subpaths, which are straight, and kinds known from the tag alone;
    ``ids``: the document's elements by id (a ``<textPath>``'s path)."""
    get = element.get
    if tag == "circle":
        r = parse_length(get("r"))
        if r <= 0:
            return None
        return [(ellipse_points(parse_length(get("cx")), parse_length(get("cy")), r, r), True)], \
            [False], set()
    if tag == "ellipse":
        rx, ry = parse_length(get("rx"), default=-1), parse_length(get("ry"), default=-1)
        rx, ry = (ry if rx < 0 else rx), (rx if ry < 0 else ry)
        if rx <= 0 or ry <= 0:
            return None
        points = ellipse_points(parse_length(get("cx")), parse_length(get("cy")), rx, ry)
        return [(points, True)], [False], {"ellipse"}
    if tag in ("rect", "image"):
        w, h = parse_length(get("width")), parse_length(get("height"))
        if w <= 0 or h <= 0:
            return None
        points = rect_points(parse_length(get("x")), parse_length(get("y")), w, h)
        return [(points, True)], [True], {"image"} if tag == "image" else {"rectangle"}
    if tag == "line":
        points = [(parse_length(get("x1")), parse_length(get("y1"))),
                  (parse_length(get("x2")), parse_length(get("y2")))]
        return [(points, False)], [True], {"line"}
    if tag in ("polyline", "polygon"):
        values = parse_numbers(get("points"))
        points = list(zip(values[0::2], values[1::2], strict=False))
        if len(points) < 2:
            return None
        return [(points, tag == "polygon")], [True], {tag}
    if tag == "path":
        subpaths, straight = path_subpaths(get("d") or "", max_points)
        return (subpaths, straight, {"path"}) if subpaths else None
    if tag == "text":
        return _text_outline(element, style, ids or {}, max_points)
    return None


def _text_outline(element: Element, style: dict[str, str], ids: dict[str, Element],
                  max_points: int) -> tuple[list[Subpath], list[bool], set[str]] | None:
    """A text's box: set along the path its ``<textPath>`` follows (letters curving over
    a badge), else from its own or its first ``<tspan>``'s position, sized by its letters."""
    size = parse_length(style.get("font-size"), default=16.0)
    content = " ".join("".join(element.itertext()).split())
    if not content:
        return None
    along = _followed_path(element, ids, max_points)
    if along is not None:
        (x0, y0), (x1, y1) = along
        return [(rect_points(x0, y0 - 0.8 * size, x1 - x0, y1 - y0 + size), True)], [True], \
            {"text"}
    placed = element
    if not element.get("x") and not element.get("y"):
        placed = next((e for e in element.iter() if local_name(e.tag) == "tspan"
                       and (e.get("x") or e.get("y"))), element)
    xs, ys = parse_numbers(placed.get("x")), parse_numbers(placed.get("y"))
    x, y = (xs[0] if xs else 0.0), (ys[0] if ys else 0.0)
    width = 0.58 * size * len(content)
    anchor = style.get("text-anchor", "start")
    x -= width / 2 if anchor == "middle" else width if anchor == "end" else 0
    return [(rect_points(x, y - 0.8 * size, width, size), True)], [True], {"text"}


def _followed_path(element: Element, ids: dict[str, Element],
                   max_points: int) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The corners of the box of the path a ``<textPath>`` inside ``element`` follows."""
    for child in element.iter():
        if local_name(child.tag) != "textPath":
            continue
        href = child.get("href") or child.get(f"{{{XLINK_NS}}}href") or ""
        target = ids.get(href[1:]) if href.startswith("#") else None
        if target is None or local_name(target.tag) != "path":
            return None
        subpaths, _ = path_subpaths(target.get("d") or "", max_points)
        points = [p for points, _ in subpaths for p in points]
        if not points:
            return None
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (min(xs), min(ys)), (max(xs), max(ys))
    return None
