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


def element_outline(element: Element, tag: str, style: dict[str, str],
                    max_points: int) -> tuple[list[Subpath], list[bool], set[str]] | None:
    """Local-space subpaths, which are straight, and kinds known from the tag alone."""
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
        size = parse_length(style.get("font-size"), default=16.0)
        content = " ".join("".join(element.itertext()).split())
        if not content:
            return None
        xs, ys = parse_numbers(get("x")), parse_numbers(get("y"))
        x, y = (xs[0] if xs else 0.0), (ys[0] if ys else 0.0)
        width = 0.58 * size * len(content)
        anchor = style.get("text-anchor", "start")
        x -= width / 2 if anchor == "middle" else width if anchor == "end" else 0
        return [(rect_points(x, y - 0.8 * size, width, size), True)], [True], {"text"}
    return None
