"""Pictures of layouts: an SVG string for reports and a PNG drawn with Pillow.

Both backends draw the same scene, a list of simple shapes worked out once in
pixels, so the SVG and the PNG of a layout always agree. Output is
deterministic: no randomness, fixed float formatting.
"""

from __future__ import annotations

import html
import io
import re
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from designrl.tasks.layout.spec import Brief, Layout, TaskSpec

# role -> (fill, ink): a soft tint for the box and a darker shade for lines and labels
PALETTE: dict[str, tuple[str, str]] = {
    "title": ("#E0E7FF", "#3730A3"),
    "subtitle": ("#EDE9FE", "#5B21B6"),
    "body": ("#F1F5F9", "#334155"),
    "image": ("#CCFBF1", "#0F766E"),
    "cta": ("#FFEDD5", "#C2410C"),
    "logo": ("#E0F2FE", "#0369A1"),
    "badge": ("#FFE4E6", "#BE123C"),
    "caption": ("#FEF3C7", "#92400E"),
}
FALLBACK = ("#F4F4F5", "#3F3F46")
ALIASES = {"headline": "title", "heading": "title", "masthead": "title", "button": "cta",
           "text": "body", "paragraph": "body", "photo": "image", "chart": "image",
           "price": "badge", "footer": "caption"}
BACKGROUND, BORDER, MARGIN_INK, BAR_INK = "#FBFAF7", "#CBD5E1", "#94A3B8", "#64748B"
# role -> (bar thickness at width 480, most lines, centred)
BARS = {"title": (9, 3, False), "subtitle": (6, 3, False), "body": (4, 12, False),
        "cta": (5, 1, True), "badge": (5, 2, True), "caption": (3.5, 3, False)}
FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _role_key(role: str) -> str:
    return ALIASES.get(role.lower(), role.lower())


def role_colors(role: str) -> tuple[str, str]:
    """(fill, ink) for a role; unknown roles get a neutral grey."""
    return PALETTE.get(_role_key(role), FALLBACK)


def _brief_regions(task: TaskSpec, brief) -> dict[str, str]:
    if brief is None:
        return {}
    if isinstance(brief, str):
        brief = next((b for b in task.briefs if b.brief_id == brief), None)
    if isinstance(brief, Brief):
        return dict(brief.required_regions)
    if isinstance(brief, dict):
        return dict(brief.get("required_regions") or {})
    return {}


def _scene(task: TaskSpec, layout: Layout, width: int, show_labels: bool, brief) -> tuple[int, int, list]:
    """The picture as ops: (kind, params) tuples in drawing order, in pixels."""
    W, H = width, max(1, round(width / (task.canvas_aspect or 1.0)))
    s = width / 480
    ops: list = [("rect", dict(x=0, y=0, w=W, h=H, fill=BACKGROUND, stroke=BORDER, sw=1))]
    m = task.safe_margin
    ops.append(("rect", dict(x=m * W, y=m * H, w=(1 - 2 * m) * W, h=(1 - 2 * m) * H,
                             stroke=MARGIN_INK, sw=max(1, s), dash=(4 * s, 3 * s), sop=0.8)))
    specs = {e.id: e for e in task.elements}
    region_names = _draw_regions(task, layout, brief, specs, W, H, s, ops)
    labels = []
    order = sorted(range(len(layout.elements)), key=lambda i: (layout.elements[i].z, i))
    for i in order:
        el = layout.elements[i]
        spec = specs.get(el.id)
        role = spec.role if spec else "unknown"
        fill, ink = role_colors(role)
        bx, by, bw, bh = (float(v) for v in el.bbox)
        x, y, w, h = bx * W, by * H, max(1.0, bw * W), max(1.0, bh * H)
        key = _role_key(role)
        rx = {"cta": min(h / 2, 10 * s), "badge": min(h / 2, 8 * s)}.get(key, 3 * s)
        items = [("rect", dict(x=x, y=y, w=w, h=h, fill=fill, fop=0.92, stroke=ink, sw=1.5 * s, rx=rx))]
        label_size = max(9.0, 10 * s)
        label_h = label_size * 1.5 if show_labels else 0
        items += _element_marks(spec, key, ink, (x, y, w, h), s, label_h)
        ops.append(("g", dict(id=el.id, role=role, title=f"{el.id} ({role})"), items))
        if show_labels:
            labels.append(("label", dict(x=x + 3 * s, y=y + 3 * s, size=label_size, h=label_h - 2 * s,
                                         text=_clip(el.id), ink=ink, W=W, H=H)))
    return W, H, ops + region_names + labels


def _draw_regions(task: TaskSpec, layout: Layout, brief, specs: dict, W: int, H: int, s: float,
                  ops: list) -> list:
    """Append the brief's regions to ``ops`` as dashed boxes; returns their name labels,
    placed in a corner no element box or other name covers (none where every corner is)."""
    seen: set[str] = set()
    region_names: list = []
    taken = [(e.bbox[0] * W, e.bbox[1] * H, e.bbox[2] * W, e.bbox[3] * H) for e in layout.elements]
    for element_id, region in _brief_regions(task, brief).items():
        box = task.region_boxes.get(region)
        if box is None or region in seen:
            continue
        seen.add(region)
        spec = specs.get(element_id)
        _, ink = role_colors(spec.role if spec else "")
        x, y, w, h = box[0] * W, box[1] * H, box[2] * W, box[3] * H
        ops.append(("rect", dict(x=x, y=y, w=w, h=h, fill=ink, fop=0.05, stroke=ink, sop=0.45,
                                 sw=max(1, s), dash=(2 * s, 3 * s), rx=4 * s, cls="region", name=region)))
        size = max(8, 9 * s)
        tw, th = 0.6 * size * len(region) + 2 * s, size + 2 * s
        for tx, ty in ((x + 3 * s, y + h - th - 2 * s), (x + w - tw - 3 * s, y + h - th - 2 * s),
                       (x + 3 * s, y + 2 * s), (x + w - tw - 3 * s, y + 2 * s)):
            if tw <= w and not any(_hits((tx, ty, tw, th), b) for b in taken):
                taken.append((tx, ty, tw, th))
                region_names.append(("text", dict(x=tx + s, y=ty + th - 3 * s, size=size, text=region,
                                                  fill=ink, op=0.9, halo=2.5 * s)))
                break
    return region_names


def _element_marks(spec, key: str, ink: str, box: tuple, s: float, label_h: float) -> list:
    """What is drawn inside an element's box: a logo mark, a picture, text bars, or stripes."""
    x, y, w, h = box
    kind = spec.type if spec else "shape"
    items: list = []
    if kind == "image" and key == "logo":
        r = 0.3 * min(w, h)
        items.append(("circle", dict(cx=x + w / 2, cy=y + h / 2, r=r, stroke=ink, sw=max(1, r * 0.22), sop=0.7)))
        items.append(("circle", dict(cx=x + w / 2, cy=y + h / 2, r=r * 0.38, fill=ink, fop=0.55)))
    elif kind == "image":
        p = 0.12 * min(w, h)
        x0, y0, iw, ih = x + p, y + p, w - 2 * p, h - 2 * p
        base = y0 + ih
        items.append(("circle", dict(cx=x0 + 0.78 * iw, cy=y0 + 0.24 * ih, r=0.11 * min(iw, ih), fill="#F59E0B", fop=0.75)))
        items.append(("poly", dict(pts=[(x0, base), (x0 + 0.38 * iw, y0 + 0.3 * ih), (x0 + 0.74 * iw, base)], fill=ink, fop=0.5)))
        items.append(("poly", dict(pts=[(x0 + 0.42 * iw, base), (x0 + 0.7 * iw, y0 + 0.52 * ih), (x0 + iw, base)], fill=ink, fop=0.32)))
    elif kind == "text" or (spec is not None and spec.content_len > 0):
        items += _text_bars(key, ink, box, s, label_h)
    else:  # decorative shape: a row of vertical stripes
        n = max(3, int(w // (6 * s)))
        p = 0.15 * min(w, h)
        step = (w - 2 * p) / n
        for k in range(n):
            sw_ = step * (0.55 if k % 3 else 0.3)
            items.append(("rect", dict(x=x + p + k * step, y=y + p, w=sw_, h=h - 2 * p, fill=ink, fop=0.4)))
    return items


def _text_bars(key: str, ink: str, box: tuple, s: float, label_h: float) -> list:
    """Text as bars: as many lines as fit (``BARS`` per role), centred for headline roles."""
    x, y, w, h = box
    items: list = []
    t, most, centred = BARS.get(key, (4, 6, False))
    t *= s
    pad = min(7 * s, h * 0.18, w * 0.08)
    top = y + pad + (label_h if not centred and h - 2 * pad >= label_h + 2 * t else 0)
    avail = y + h - pad - top
    pitch = t * 1.8
    n = min(most, int((avail + pitch - t) // pitch))
    if n < 1:
        n, t = 1, max(1.0, avail * 0.6)
    if centred:
        top = y + (h - (n * pitch - (pitch - t))) / 2
    widths = [1.0, 0.93, 0.97, 0.88]
    for k in range(n):
        frac = (0.62 if centred else 0.66) if (k == n - 1 and n > 1) else (0.7 if centred else widths[k % 4])
        bw_ = (w - 2 * pad) * frac
        bx_ = x + (w - bw_) / 2 if centred else x + pad
        items.append(("rect", dict(x=bx_, y=top + k * pitch, w=bw_, h=t, fill=ink if centred else BAR_INK,
                                   fop=0.6 if centred else 0.5, rx=t / 2)))
    return items


def _hits(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _clip(text: str, most: int = 24) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _esc(text: str) -> str:
    return html.escape(_BAD_XML.sub("", str(text)), quote=True)


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _svg_op(kind: str, a: dict, out: list[str]) -> None:
    paint = ""
    if "fill" in a:
        paint += f' fill="{a["fill"]}"' + (f' fill-opacity="{a["fop"]}"' if "fop" in a else "")
    else:
        paint += ' fill="none"'
    if "stroke" in a:
        paint += f' stroke="{a["stroke"]}" stroke-width="{_f(a["sw"])}"'
        paint += f' stroke-opacity="{a["sop"]}"' if "sop" in a else ""
        paint += f' stroke-dasharray="{_f(a["dash"][0])} {_f(a["dash"][1])}"' if "dash" in a else ""
    if kind == "rect":
        rx = f' rx="{_f(a["rx"])}"' if a.get("rx") else ""
        cls = f' class="{a["cls"]}" data-region="{_esc(a["name"])}"' if "cls" in a else ""
        out.append(f'<rect x="{_f(a["x"])}" y="{_f(a["y"])}" width="{_f(a["w"])}" height="{_f(a["h"])}"{rx}{paint}{cls}/>')
    elif kind == "circle":
        out.append(f'<circle cx="{_f(a["cx"])}" cy="{_f(a["cy"])}" r="{_f(a["r"])}"{paint}/>')
    elif kind == "poly":
        pts = " ".join(f"{_f(px)},{_f(py)}" for px, py in a["pts"])
        out.append(f'<polygon points="{pts}"{paint}/>')
    elif kind == "text":
        halo = (f' stroke="{BACKGROUND}" stroke-width="{_f(a["halo"])}" stroke-linejoin="round" paint-order="stroke"'
                if a.get("halo") else "")
        out.append(f'<text x="{_f(a["x"])}" y="{_f(a["y"])}" font-size="{_f(a["size"])}" fill="{a["fill"]}" '
                   f'fill-opacity="{a["op"]}"{halo}>{_esc(a["text"])}</text>')
    elif kind == "label":
        tw = 0.6 * a["size"] * len(a["text"]) + a["size"] * 0.8
        x, y = min(max(0, a["x"]), a["W"] - tw), min(max(0, a["y"]), a["H"] - a["h"])
        out.append(f'<g class="label"><rect x="{_f(x)}" y="{_f(y)}" width="{_f(tw)}" height="{_f(a["h"])}" '
                   f'rx="{_f(a["h"] / 2)}" fill="#FFFFFF" fill-opacity="0.9" stroke="{a["ink"]}" stroke-width="0.8"/>'
                   f'<text x="{_f(x + a["size"] * 0.4)}" y="{_f(y + a["h"] * 0.72)}" font-size="{_f(a["size"])}" '
                   f'font-weight="600" fill="{a["ink"]}">{_esc(a["text"])}</text></g>')


def layout_to_svg(task: TaskSpec, layout: Layout, *, width: int = 480, show_labels: bool = True, brief=None) -> str:
    """The layout as a standalone SVG document string."""
    W, H, ops = _scene(task, layout, width, show_labels, brief)
    name = _esc(f"Layout of {task.task_id}: {len(layout.elements)} elements")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           f'role="img" aria-label="{name}" font-family="{FONT_FAMILY}"><title>{name}</title>']
    for kind, a, *rest in ops:
        if kind == "g":
            out.append(f'<g class="el" data-id="{_esc(a["id"])}" data-role="{_esc(a["role"])}">'
                       f'<title>{_esc(a["title"])}</title>')
            for sub_kind, sub in rest[0]:
                _svg_op(sub_kind, sub, out)
            out.append("</g>")
        else:
            _svg_op(kind, a, out)
    out.append("</svg>")
    return "\n".join(out)


def _rgba(color: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), round(255 * opacity)


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # old Pillow or no FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _anchor(font, anchor: str) -> dict:
    return {"anchor": anchor} if isinstance(font, ImageFont.FreeTypeFont) else {}


def _dashed(d: ImageDraw.ImageDraw, x0, y0, x1, y1, dash, color, sw) -> None:
    on, off = dash
    for ax, ay, bx, by in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
        length = abs(bx - ax) + abs(by - ay)
        pos = 0.0
        while pos < length:
            e = min(pos + on, length)
            fx, fy = (bx - ax) / (length or 1), (by - ay) / (length or 1)
            d.line([(ax + fx * pos, ay + fy * pos), (ax + fx * e, ay + fy * e)], fill=color, width=max(1, round(sw)))
            pos += on + off


def _png_op(d: ImageDraw.ImageDraw, kind: str, a: dict, k: float) -> None:
    fill = _rgba(a["fill"], a.get("fop", 1.0)) if "fill" in a else None
    stroke = _rgba(a["stroke"], a.get("sop", 1.0)) if "stroke" in a else None
    sw = max(1, round(a.get("sw", 1) * k))
    if kind == "rect":
        x0, y0 = a["x"] * k, a["y"] * k
        x1, y1 = x0 + max(1, a["w"] * k) - 1, y0 + max(1, a["h"] * k) - 1
        if "dash" in a:
            if fill:
                d.rounded_rectangle([x0, y0, x1, y1], radius=a.get("rx", 0) * k, fill=fill)
            _dashed(d, x0, y0, x1, y1, (a["dash"][0] * k, a["dash"][1] * k), stroke, sw)
        else:
            d.rounded_rectangle([x0, y0, x1, y1], radius=min(a.get("rx", 0) * k, (x1 - x0) / 2, (y1 - y0) / 2),
                                fill=fill, outline=stroke, width=sw if stroke else 0)
    elif kind == "circle":
        cx, cy, r = a["cx"] * k, a["cy"] * k, max(0.5, a["r"] * k)
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=stroke, width=sw if stroke else 0)
    elif kind == "poly":
        d.polygon([(px * k, py * k) for px, py in a["pts"]], fill=fill)
    elif kind == "text":
        font = _font(round(a["size"] * k))
        d.text((a["x"] * k, a["y"] * k), a["text"], font=font, fill=_rgba(a["fill"], a["op"]),
               stroke_width=round(a.get("halo", 0) * k / 2), stroke_fill=_rgba(BACKGROUND),
               **_anchor(font, "ls"))
    elif kind == "label":
        font, h = _font(round(a["size"] * k)), a["h"] * k
        tw = d.textlength(a["text"], font=font) + a["size"] * 0.8 * k
        x, y = min(max(0, a["x"] * k), a["W"] * k - tw), min(max(0, a["y"] * k), a["H"] * k - h)
        d.rounded_rectangle([x, y, x + tw, y + h], radius=h / 2, fill=(255, 255, 255, 230),
                            outline=_rgba(a["ink"]), width=max(1, round(0.8 * k)))
        d.text((x + a["size"] * 0.4 * k, y + h / 2), a["text"], font=font, fill=_rgba(a["ink"]), **_anchor(font, "lm"))


def layout_to_png(task: TaskSpec, layout: Layout, *, width: int = 480, show_labels: bool = True, brief=None) -> bytes:
    """The same picture as layout_to_svg, drawn with Pillow at 2x and scaled down (anti-aliased)."""
    W, H, ops = _scene(task, layout, width, show_labels, brief)
    k = 2
    img = Image.new("RGB", (W * k, H * k), _rgba(BACKGROUND)[:3])
    d = ImageDraw.Draw(img, "RGBA")
    for kind, a, *rest in ops:
        for sub_kind, sub in rest[0] if kind == "g" else [(kind, a)]:
            _png_op(d, sub_kind, sub, k)
    buf = io.BytesIO()
    img.resize((W, H), Image.LANCZOS).save(buf, format="PNG", optimize=True)
    return buf.getvalue()
