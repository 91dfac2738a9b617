"""The page an SVG is rendered on, and where on that page the SVG lands.

The SVG is re-serialised from the parsed tree (so the browser draws exactly what
was checked), given a ``viewBox`` if it has none and the page's size, and shown
as an ``<img>`` from a ``data:`` URL on a white page of fixed size. As an image,
an SVG runs no script and loads nothing from outside, whatever it contains;
its ``viewBox`` is scaled to fit the page as ``preserveAspectRatio`` says.
"""

from __future__ import annotations

import base64
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape, quoteattr

from designrl.tasks.svg.facts import SvgFacts
from designrl.tasks.svg.parse import SVG_NS, XLINK_NS, local_name, namespace

PAGE_SIZE = 512
XML_NS = "http://www.w3.org/XML/1998/namespace"

_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>
html, body {{ margin: 0; padding: 0; background: #fff; overflow: hidden;
  width: {size}px; height: {size}px; }}
img {{ display: block; width: {size}px; height: {size}px; }}
</style></head><body><img alt="" width="{size}" height="{size}" src="data:image/svg+xml;base64,{data}"></body></html>
"""


def svg_markup(root: Element, facts: SvgFacts, size: int = PAGE_SIZE) -> str:
    """The SVG as it is rendered: namespaced, with a ``viewBox``, sized ``size`` x ``size``.

    Elements without a namespace are taken as SVG (models often leave out ``xmlns``);
    comments and processing instructions are dropped.
    """
    x0, y0, x1, y1 = facts.canvas
    overrides = {"viewBox": f"{_num(x0)} {_num(y0)} {_num(x1 - x0)} {_num(y1 - y0)}",
                 "width": str(size), "height": str(size)}
    prefixes = {XLINK_NS: "xlink", XML_NS: "xml"}
    for element in root.iter():
        for name in (element.tag, *element.attrib) if isinstance(element.tag, str) else ():
            uri = namespace(name)
            if uri and uri != SVG_NS and uri not in prefixes:
                prefixes[uri] = f"ns{len(prefixes)}"
    declarations = "".join(f" xmlns:{p}={quoteattr(uri)}" for uri, p in prefixes.items()
                           if p != "xml")
    out: list[str] = []
    _write(root, out, prefixes, overrides, f' xmlns="{SVG_NS}"{declarations}')
    return "".join(out)


def _write(element: Element, out: list[str], prefixes: dict[str, str],
           overrides: dict[str, str] | None, declarations: str = "") -> None:
    name = _qualified(element.tag, prefixes)
    attrs = {_qualified(k, prefixes): v for k, v in element.attrib.items()
             if not k.startswith("xmlns")}
    attrs.update(overrides or {})
    out.append(f"<{name}{declarations}")
    out.extend(f" {k}={quoteattr(v)}" for k, v in attrs.items())
    out.append(">")
    out.append(escape(element.text or ""))
    for child in element:
        if isinstance(child.tag, str):
            _write(child, out, prefixes, None)
        out.append(escape(child.tail or ""))
    out.append(f"</{name}>")


def _qualified(name: str, prefixes: dict[str, str]) -> str:
    uri = namespace(name)
    if uri in ("", SVG_NS):
        return local_name(name)
    return f"{prefixes[uri]}:{local_name(name)}"


def svg_page(markup: str, size: int = PAGE_SIZE) -> str:
    """An HTML page showing ``markup`` as an image, ``size`` x ``size`` CSS px, on white."""
    data = base64.b64encode(markup.encode("utf-8")).decode("ascii")
    return _PAGE.format(size=size, data=data)


def content_box(facts: SvgFacts, size: int = PAGE_SIZE) -> tuple[float, float, float, float]:
    """Where the canvas is drawn on the page, (x0, y0, x1, y1) in page pixels."""
    scale_x, scale_y, off_x, off_y = canvas_transform(facts, size)
    w, h = facts.canvas_size
    return (max(0.0, off_x), max(0.0, off_y),
            min(float(size), off_x + w * scale_x), min(float(size), off_y + h * scale_y))


def canvas_transform(facts: SvgFacts, size: int = PAGE_SIZE) -> tuple[float, float, float, float]:
    """(scale_x, scale_y, offset_x, offset_y): page px = offset + (user - canvas origin) · scale."""
    w, h = facts.canvas_size
    if w <= 0 or h <= 0:
        return (1.0, 1.0, 0.0, 0.0)
    par = facts.preserve_aspect_ratio.split()
    align = par[0] if par else "xMidYMid"
    if align == "none":
        return (size / w, size / h, 0.0, 0.0)
    slice_ = len(par) > 1 and par[1] == "slice"
    scale = max(size / w, size / h) if slice_ else min(size / w, size / h)
    free_x, free_y = size - w * scale, size - h * scale
    fx = 0.0 if "xMin" in align else 1.0 if "xMax" in align else 0.5
    fy = 0.0 if "YMin" in align else 1.0 if "YMax" in align else 0.5
    return (scale, scale, free_x * fx, free_y * fy)


def _num(value: float) -> str:
    return f"{value:.6g}"
