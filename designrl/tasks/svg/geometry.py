"""Geometry of SVG shapes: lengths, transforms, and outlines as point lists.

Every shape becomes a list of subpaths (points, closed) in the root's user
space, with its transforms applied; curves and arcs are flattened into a few
segments each. That is enough for bounding boxes, centres, vertex counts and a
rough raster, which is all the requirement checks need.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
"""SVG's ``matrix(a b c d e f)``: x' = a·x + c·y + e, y' = b·x + d·y + f."""
Subpath = tuple[list[Point], bool]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CURVE_STEPS = 8
ARC_STEPS = 16
CIRCLE_STEPS = 32

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LENGTH = re.compile(rf"^\s*({_NUMBER})\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$")
_UNITS = {None: 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54,
          "in": 96.0, "em": 16.0, "ex": 8.0}
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def parse_length(value: str | None, reference: float = 0.0, default: float = 0.0) -> float:
    """A length in user units; percentages are of ``reference``; junk gives ``default``."""
    if value is None:
        return default
    found = _LENGTH.match(value)
    if not found:
        return default
    number, unit = float(found.group(1)), found.group(2)
    if unit == "%":
        return number / 100 * reference
    result = number * _UNITS[unit]
    return result if math.isfinite(result) else default


def parse_numbers(text: str | None) -> list[float]:
    return [float(x) for x in re.findall(_NUMBER, text or "")]


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The transform that applies ``n`` first, then ``m``."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def parse_transform(text: str | None) -> Matrix:
    """The matrix of a ``transform`` attribute; unknown or malformed parts are skipped."""
    result = IDENTITY
    for name, args in _TRANSFORM.findall(text or ""):
        v = parse_numbers(args)
        step: Matrix | None = None
        if name == "matrix" and len(v) == 6:
            step = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and len(v) in (1, 2):
            step = (1, 0, 0, 1, v[0], v[1] if len(v) == 2 else 0.0)
        elif name == "scale" and len(v) in (1, 2):
            step = (v[0], 0, 0, v[1] if len(v) == 2 else v[0], 0, 0)
        elif name == "rotate" and len(v) in (1, 3):
            cos, sin = math.cos(math.radians(v[0])), math.sin(math.radians(v[0]))
            step = (cos, sin, -sin, cos, 0, 0)
            if len(v) == 3:
                step = multiply(multiply((1, 0, 0, 1, v[1], v[2]), step), (1, 0, 0, 1, -v[1], -v[2]))
        elif name == "skewX" and len(v) == 1:
            step = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        elif name == "skewY" and len(v) == 1:
            step = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        if step is not None:
            result = multiply(result, step)
    return result


def apply(m: Matrix, point: Point) -> Point:
    x, y = point
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def scale_factor(m: Matrix) -> float:
    """How much the transform scales lengths (square root of the area factor)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def ellipse_points(cx: float, cy: float, rx: float, ry: float,
                   steps: int = CIRCLE_STEPS) -> list[Point]:
    return [(cx + rx * math.cos(2 * math.pi * i / steps), cy + ry * math.sin(2 * math.pi * i / steps))
            for i in range(steps)]


def rect_points(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def bbox(points: list[Point]) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of non-empty ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


class _Scanner:
    """Reads numbers and arc flags from path data (flags may be run together: ``a1 1 0 0110 10``)."""

    _NUM = re.compile(r"[\s,]*(" + _NUMBER + ")")
    _FLAG = re.compile(r"[\s,]*([01])")
    _CMD = re.compile(r"[\s,]*([MmLlHhVvCcSsQqTtAaZz])")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def command(self) -> str | None:
        found = self._CMD.match(self.text, self.pos)
        if not found:
            return None
        self.pos = found.end()
        return found.group(1)

    def has_number(self) -> bool:
        return self._NUM.match(self.text, self.pos) is not None

    def number(self) -> float:
        found = self._NUM.match(self.text, self.pos)
        if not found:
            raise ValueError(f"number expected at {self.pos}")
        self.pos = found.end()
        return float(found.group(1))

    def flag(self) -> bool:
        found = self._FLAG.match(self.text, self.pos)
        if not found:
            raise ValueError(f"arc flag expected at {self.pos}")
        self.pos = found.end()
        return found.group(1) == "1"

    def numbers(self, count: int) -> list[float]:
        return [self.number() for _ in range(count)]


_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


@dataclass
class _Pen:
    """Where a path's pen is, where its subpath started, and the last command with its
    control point (which a smooth curve reflects)."""

    x: float = 0.0
    y: float = 0.0
    start: Point = (0.0, 0.0)
    ctrl: Point | None = None
    cmd: str = ""


def path_subpaths(d: str, max_points: int = 200_000) -> tuple[list[Subpath], list[bool]]:
    """Flattened subpaths of path data, and for each whether it is made of straight segments.

    Malformed data ends the path where it breaks, as browsers do.
    """
    scan = _Scanner(d)
    subpaths: list[Subpath] = []
    straight: list[bool] = []
    points: list[Point] = []
    is_straight = True
    pen = _Pen()
    total = 0

    def flush(closed: bool) -> None:
        nonlocal points, is_straight
        if len(points) > 1 or (points and closed):
            subpaths.append((points, closed))
            straight.append(is_straight)
        points, is_straight = [], True

    try:
        cmd = scan.command()
        while cmd is not None:
            upper, rel = cmd.upper(), cmd.islower()
            repeat = True
            while repeat:
                if upper == "Z":
                    if points:
                        flush(True)
                    pen.x, pen.y = pen.start
                    pen.ctrl, pen.cmd = None, "Z"
                    break
                args = scan.numbers(_ARGS[upper]) if upper != "A" else [
                    scan.number(), scan.number(), scan.number(), float(scan.flag()),
                    float(scan.flag()), scan.number(), scan.number()]
                if upper == "M":
                    flush(False)
                    ox, oy = (pen.x, pen.y) if rel else (0.0, 0.0)
                    pen.x, pen.y = pen.start = (ox + args[0], oy + args[1])
                    new, ctrl = [pen.start], None
                    upper = "L"  # further pairs are line-tos
                else:
                    if not points:
                        points.append((pen.x, pen.y))  # drawing on after Z starts where it did
                    new, ctrl = _draw(pen, upper, rel, args)
                    is_straight = is_straight and upper in ("L", "H", "V")
                points.extend(new)
                total += len(new)
                if total > max_points:
                    raise ValueError("too many points")
                pen.ctrl, pen.cmd = ctrl, upper
                repeat = scan.has_number()
            cmd = scan.command()
    except (ValueError, ZeroDivisionError, OverflowError):
        pass
    flush(False)
    return subpaths, straight


def _draw(pen: _Pen, upper: str, rel: bool, args: list[float]) -> tuple[list[Point], Point | None]:
    """The points one drawing command (not M or Z) adds, and its last control point; moves
    the pen to the command's end."""
    here = (pen.x, pen.y)
    ox, oy = here if rel else (0.0, 0.0)
    if upper in ("L", "H", "V"):  # H takes an x alone, V a y alone
        if upper != "V":
            pen.x = ox + args[0]
        if upper != "H":
            pen.y = oy + args[-1]
        return [(pen.x, pen.y)], None
    if upper in ("C", "S"):
        if upper == "C":
            c1, rest = (ox + args[0], oy + args[1]), args[2:]
        else:
            c1 = _reflect(pen.ctrl, here) if pen.cmd in ("C", "S") else here
            rest = args
        c2, end = (ox + rest[0], oy + rest[1]), (ox + rest[2], oy + rest[3])
        pen.x, pen.y = end
        return _cubic(here, c1, c2, end), c2
    if upper in ("Q", "T"):
        if upper == "Q":
            c1, end = (ox + args[0], oy + args[1]), (ox + args[2], oy + args[3])
        else:
            c1 = _reflect(pen.ctrl, here) if pen.cmd in ("Q", "T") else here
            end = (ox + args[0], oy + args[1])
        pen.x, pen.y = end
        return _cubic(here, *_quad_to_cubic(here, c1, end), end), c1
    end = (ox + args[5], oy + args[6])  # A
    pen.x, pen.y = end
    return _arc(here, args[0], args[1], args[2], bool(args[3]), bool(args[4]), end), None


def _reflect(ctrl: Point | None, about: Point) -> Point:
    if ctrl is None:
        return about
    return (2 * about[0] - ctrl[0], 2 * about[1] - ctrl[1])


def _quad_to_cubic(p0: Point, c: Point, p1: Point) -> tuple[Point, Point]:
    return ((p0[0] + 2 / 3 * (c[0] - p0[0]), p0[1] + 2 / 3 * (c[1] - p0[1])),
            (p1[0] + 2 / 3 * (c[0] - p1[0]), p1[1] + 2 / 3 * (c[1] - p1[1])))


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = CURVE_STEPS) -> list[Point]:
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                    u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1]))
    return out


def _arc(p0: Point, rx: float, ry: float, angle: float, large: bool, sweep: bool,
         p1: Point) -> list[Point]:
    """Points along an elliptical arc (SVG's endpoint parameterisation, spec appendix B.2.4)."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0 or p0 == p1:
        return [p1]
    phi = math.radians(angle % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1 = cos * dx + sin * dy
    y1 = -sin * dx + cos * dy
    lam = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if lam > 1:
        rx, ry = rx * math.sqrt(lam), ry * math.sqrt(lam)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cx1, cy1 = coef * rx * y1 / ry, -coef * ry * x1 / rx
    cx = cos * cx1 - sin * cy1 + (p0[0] + p1[0]) / 2
    cy = sin * cx1 + cos * cy1 + (p0[1] + p1[1]) / 2
    theta = math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
    end = math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx)
    delta = end - theta
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    out = []
    for i in range(1, ARC_STEPS + 1):
        t = theta + delta * i / ARC_STEPS
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        out.append((cos * ex - sin * ey + cx, sin * ex + cos * ey + cy))
    out[-1] = p1
    return out


def transform_subpaths(m: Matrix, subpaths: list[Subpath]) -> Iterator[Subpath]:
    for points, closed in subpaths:
        yield [apply(m, p) for p in points], closed
