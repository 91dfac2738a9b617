"""Which shape nouns a drawn outline answers to: circle, ellipse, square, rectangle,
triangle and the other polygons, star, line; read off the geometry after transforms, so a
``<path>`` drawing a triangle is a triangle and a ``<rect>`` skewed into a diamond is not a
square. Used by ``facts`` for every shape it lists."""

from __future__ import annotations

import math

from designrl.tasks.svg.geometry import Matrix, Subpath, bbox

MAX_CLASSIFIED_POINTS = 2_000
"""Outlines with more points are not sorted into triangles, stars, ... (they are none)."""
_POLYGON_NAMES = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon", 8: "octagon"}


def classify(tag: str, world: list[Subpath], straight: list[bool], matrix: Matrix) -> set[str]:
    """Kinds from the drawn geometry: circles, squares, triangles, stars, lines."""
    kinds: set[str] = set()
    if tag in ("text", "image"):
        return kinds
    if tag == "rect":
        (a, b, c, _), _ = world[0]
        side1, side2 = math.dist(a, b), math.dist(b, c)
        if abs(side1 - side2) <= 0.05 * max(side1, side2):
            kinds.add("square")
        return kinds
    if tag == "circle":
        kinds.add("circle" if _round(world[0][0]) else "ellipse")
        return kinds
    if tag == "ellipse":
        if _round(world[0][0]):
            kinds.add("circle")
        return kinds
    if len(world) == 1 and straight[0] and len(world[0][0]) <= MAX_CLASSIFIED_POINTS:
        points, closed = world[0]
        corners = _corners(points)
        if not closed and len(corners) == 2:
            kinds.add("line")
        if closed or (len(points) > 3 and _near(points[0], points[-1])):
            kinds |= _polygon_kinds(corners)
    elif len(world) == 1 and tag == "path":
        points = world[0][0]
        if _near(points[0], points[-1]) or world[0][1]:
            if _round(points):
                kinds.add("circle")
            elif _elliptic(points):
                kinds.add("ellipse")
    return kinds


def _polygon_kinds(corners: list[tuple[float, float]]) -> set[str]:
    n = len(corners)
    if n < 3:
        return set()
    kinds = {"polygon"}
    if n in _POLYGON_NAMES:
        kinds.add(_POLYGON_NAMES[n])
    if n == 4 and _right_angles(corners):
        kinds.add("rectangle")
        a = math.dist(corners[0], corners[1])
        b = math.dist(corners[1], corners[2])
        if abs(a - b) <= 0.05 * max(a, b):
            kinds.add("square")
    if n >= 8 and n % 2 == 0:
        cx = sum(p[0] for p in corners) / n
        cy = sum(p[1] for p in corners) / n
        radii = [math.dist(p, (cx, cy)) for p in corners]
        outer, inner = radii[0::2], radii[1::2]
        if max(min(outer), min(inner)) > 0 and (max(inner) < 0.8 * min(outer)
                                                or max(outer) < 0.8 * min(inner)):
            kinds.add("star")
    return kinds


def _corners(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Vertices without repeats, the closing duplicate, or points in the middle of a side
    (one pass with a stack, then the seam where the outline closes)."""
    out: list[tuple[float, float]] = []
    for point in points:
        if out and _near(point, out[-1]):
            continue
        while len(out) >= 2 and _collinear(out[-2], out[-1], point):
            out.pop()
        out.append(point)
    if len(out) > 2 and _near(out[0], out[-1]):
        out.pop()
    while len(out) > 2 and _collinear(out[-2], out[-1], out[0]):
        out.pop()
    while len(out) > 2 and _collinear(out[-1], out[0], out[1]):
        out.pop(0)
    return out


def _collinear(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
    cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    span = math.dist(a, b) * math.dist(b, c)
    return span == 0 or abs(cross) <= 0.01 * span


def _right_angles(corners: list[tuple[float, float]]) -> bool:
    for i in range(4):
        a, b, c = corners[i - 1], corners[i], corners[(i + 1) % 4]
        v1 = (a[0] - b[0], a[1] - b[1])
        v2 = (c[0] - b[0], c[1] - b[1])
        norm = math.hypot(*v1) * math.hypot(*v2)
        if norm == 0 or abs(v1[0] * v2[0] + v1[1] * v2[1]) > 0.03 * norm:
            return False
    return True


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) <= 1e-6 * (1 + abs(a[0])) and abs(a[1] - b[1]) <= 1e-6 * (1 + abs(a[1]))


def _round(points: list[tuple[float, float]]) -> bool:
    x0, y0, x1, y1 = bbox(points)
    c = ((x0 + x1) / 2, (y0 + y1) / 2)
    radii = [math.dist(p, c) for p in points]
    mean = sum(radii) / len(radii)
    return mean > 0 and len(points) >= 8 and max(abs(r - mean) for r in radii) <= 0.04 * mean


def _elliptic(points: list[tuple[float, float]]) -> bool:
    x0, y0, x1, y1 = bbox(points)
    rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
    if rx <= 0 or ry <= 0 or len(points) < 8:
        return False
    cx, cy = x0 + rx, y0 + ry
    return all(abs(math.hypot((x - cx) / rx, (y - cy) / ry) - 1) <= 0.05 for x, y in points)
