"""Colours: parse SVG/CSS colour values, and decide whether a colour is "red" or "light blue".

Parsing covers the forms SVG allows (the 148 CSS named colours, ``#rgb``,
``#rgba``, ``#rrggbb``, ``#rrggbbaa``, ``rgb()``/``rgba()`` in numbers or
percentages, ``hsl()``/``hsla()``, ``transparent``). Naming is by hue bands in
HSL with overlapping edges, so a colour a person could call either orange or
red answers to both: requirements are written by people, and a checker that
splits hairs on hue boundaries would fail correct drawings.
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass, replace

from designrl.tasks.svg.survey import survey_says

RGB = tuple[int, int, int]

_NAMED = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b
darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9
darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc
darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f
darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff
dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0
forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700
goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0
hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa
lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080
lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3
lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899
lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32
linen faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd
mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee
mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585 midnightblue 191970
mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6
olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa
palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9
peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 rebeccapurple 663399
red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460
seagreen 2e8b57 seashell fff5ee sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue 6a5acd
slategray 708090 slategrey 708090 snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c
teal 008080 thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee wheat f5deb3
white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32
"""
_pairs = _NAMED.split()
CSS_COLORS: dict[str, RGB] = {
    name: (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    for name, h in zip(_pairs[::2], _pairs[1::2], strict=True)
}

FAMILIES = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "magenta", "pink",
            "brown", "black", "white", "gray")
"""The basic colour words a colour can be called; ``colour_families`` returns a subset."""

SYNONYMS = {"grey": "gray", "violet": "purple", "aqua": "cyan", "turquoise": "cyan",
            "fuchsia": "magenta", "lime": "green", "gold": "yellow", "golden": "yellow",
            "silver": "gray", "navy": "blue", "teal": "cyan", "maroon": "red",
            "beige": "white", "tan": "brown", "crimson": "red",
            "scarlet": "red", "indigo": "purple", "lavender": "purple", "olive": "green"}
"""Words that name a family loosely; used only when a word is not a CSS colour itself."""

EVERYDAY = {"violet": ("purple", None), "lavender": ("purple", "light")}
"""CSS names whose everyday sense is a family, not the CSS shade: a rainbow's violet band
is #8e24aa, far from CSS violet (238, 130, 238); CSS lavender is nearly white."""

EXTRA_RGB: dict[str, RGB] = {"cream": (255, 253, 208), "charcoal": (54, 69, 79)}
"""Colour words that are not CSS names but name one colour closely."""

MODIFIERS = ("light", "dark", "pale", "bright", "deep", "pastel", "vivid", "medium")
DESCRIPTIVE = ("baby", "neon", "off", "jet", "pure", "sky", "navy", "forest", "lime", "hot",
               "royal", "steel", "sea", "spring", "slate", "midnight", "dodger", "cornflower",
               "powder", "cadet", "dim", "saddle", "sandy", "rosy", "indian", "fire", "lemon",
               "lawn", "mint", "misty", "brick", "burnt", "electric", "emerald", "blood",
               "charcoal", "dusty", "warm", "cool", "soft", "rich", "golden", "olive", "ice")
"""First words of two-word colour names ("sky blue", "neon green"): a CSS name when joined,
else the second word's colour."""

_HUE_BANDS = {  # degrees, inclusive; neighbouring bands overlap by a few degrees
    "red": ((0, 18), (340, 360)),
    "orange": ((12, 48),),
    "yellow": ((42, 72),),
    "green": ((66, 170),),
    "cyan": ((160, 200),),
    "blue": ((190, 258),),
    "purple": ((250, 300),),
    "magenta": ((285, 335),),
}

WHITE_CHROMA = 12 / 255
"""The most a colour may lean to a hue and still be white (pale pink and pale blue are not)."""
NEAR_HUE = 12
"""Degrees past a family's hue band that still count as loosely that colour."""

_HEX = re.compile(r"#([0-9a-f]{3,8})$")
_FUNC = re.compile(r"(rgba?|hsla?)\(([^)]*)\)$")


@dataclass(frozen=True)
class Color:
    """A parsed colour value: RGB and alpha in [0, 1]."""

    rgb: RGB
    alpha: float = 1.0


def parse_color(value: str | None) -> Color | None:
    """A CSS/SVG colour value, or None for ``none``, ``transparent`` and anything unparseable."""
    if value is None:
        return None
    text = value.strip().lower()
    if not text or text in ("none", "transparent"):
        return None
    if text in CSS_COLORS:
        return Color(CSS_COLORS[text])
    if found := _HEX.match(text):
        return _parse_hex(found.group(1))
    if found := _FUNC.match(text):
        return _parse_function(found.group(1), found.group(2))
    return None


def _parse_hex(digits: str) -> Color | None:
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits)
    if len(digits) not in (6, 8):
        return None
    rgb = (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    alpha = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
    return Color(rgb, alpha)


def _parse_function(kind: str, args: str) -> Color | None:
    parts = [p for p in re.split(r"[\s,/]+", args.strip()) if p]
    if len(parts) not in (3, 4):
        return None
    try:
        alpha = _fraction(parts[3]) if len(parts) == 4 else 1.0
        if kind.startswith("rgb"):
            channels = [_fraction(p) * 255 if p.endswith("%") else float(p) for p in parts[:3]]
            rgb = tuple(round(_clamp(c, 0, 255)) for c in channels)
        else:
            hue = float(parts[0].removesuffix("deg")) % 360 / 360
            sat, light = (_fraction(p, percent_scale=True) for p in parts[1:3])
            r, g, b = colorsys.hls_to_rgb(hue, _clamp(light, 0, 1), _clamp(sat, 0, 1))
            rgb = (round(r * 255), round(g * 255), round(b * 255))
    except ValueError:
        return None
    return Color(rgb, _clamp(alpha, 0.0, 1.0))  # type: ignore[arg-type]


def _fraction(token: str, percent_scale: bool = False) -> float:
    """``50%`` -> 0.5; a bare number as is (or /100 when it is on a percent scale)."""
    if token.endswith("%"):
        return float(token[:-1]) / 100
    value = float(token)
    return value / 100 if percent_scale and value > 1 else value


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def hsl(rgb: RGB) -> tuple[float, float, float]:
    """(hue in degrees, saturation, lightness), each of the last two in [0, 1]."""
    h, light, s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return h * 360, s, light


def colour_families(rgb: RGB) -> frozenset[str]:
    """The basic colour words (``FAMILIES``) a person might use for ``rgb``."""
    hue, sat, light = hsl(rgb)
    chroma = (max(rgb) - min(rgb)) / 255
    names: set[str] = set()
    tinted = light > 0.86 and chroma > WHITE_CHROMA  # pale pink, pale blue: not white
    if (chroma < 0.12 or sat < 0.1) and not tinted:
        if light < 0.22:
            names.add("black")
        if 0.18 < light < 0.95:  # #eee and #e4e6e9 are what people call light grey
            names.add("gray")
        if light > 0.86:
            names.add("white")
        return frozenset(names)
    if light < 0.1:
        names.add("black")
    for family, bands in _HUE_BANDS.items():
        if any(lo <= hue <= hi for lo, hi in bands):
            names.add(family)
    if (hue <= 50 or hue >= 345) and light < 0.45:
        names.add("brown")
        if light < 0.3:  # dark orange and dark yellow are brown, not orange or yellow
            names -= {"orange", "yellow"}
    if (hue >= 290 or hue <= 8) and light >= 0.62:
        names.add("pink")
    if 310 <= hue <= 345 and light >= 0.45:
        names.add("pink")
    if 270 <= hue <= 330 and light < 0.4:
        names.add("purple")  # CSS purple (#800080) is a dark magenta
    return frozenset(names)


@dataclass(frozen=True)
class ColorSpec:
    """A colour as a requirement names it: ``"red"``, ``"light blue"``, ``"navy"``, ``"#ff8800"``.

    ``family`` with optional ``modifier`` for basic words; ``rgb`` for CSS names and
    literal values (matched by distance, with the family as a fallback).
    """

    text: str
    family: str | None = None
    modifier: str | None = None
    rgb: RGB | None = None
    qualified: bool = False
    """Narrowed by a word the reader does not know ("wheat brown", "sandy yellow"): the
    shade meant may be outside the named one, so it is never called absent outright."""

    def matches(self, rgb: RGB) -> bool:
        if survey_says(self.text, rgb):
            return True  # what people call this name, whatever the rules below say
        if self.family is not None:
            if _pale_shade(self.family, self.modifier, rgb):
                return True
            if self.rgb is not None and _distance(self.rgb, rgb) <= 60:
                return True  # an everyday name's own CSS shade ("lavender" itself)
            if self.family not in colour_families(rgb):
                return False
            return _modifier_ok(self.modifier, rgb)
        assert self.rgb is not None
        if self.modifier in ("dark", "deep", "light", "pale", "pastel"):
            return _toned(self, rgb)
        if _distance(self.rgb, rgb) <= 60:
            return True
        if self.text.startswith("#") or self.text.startswith("rgb"):
            return False
        mine = colour_families(self.rgb)
        hue_a, _, light_a = hsl(self.rgb)
        hue_b, _, light_b = hsl(rgb)
        if _distance(self.rgb, rgb) <= 90 and min(abs(hue_a - hue_b), 360 - abs(hue_a - hue_b)) \
                <= 10 and abs(light_a - light_b) <= 0.15:
            return True  # a named colour's shades ("gold" for a #e0b040 tassel)
        return bool(mine & colour_families(rgb)) and abs(light_a - light_b) <= 0.2


    def near(self, rgb: RGB) -> bool:
        """Loosely: a colour someone could still call this (neighbouring hues, any shade).
        A colour that is not even ``near`` is surely not this colour."""
        if self.matches(rgb):
            return True
        families = {self.family} if self.family else set(colour_families(self.rgb))
        return any(_near_family(f, rgb) for f in families)


def _near_family(family: str, rgb: RGB) -> bool:
    """``rgb`` could loosely be called ``family``: at any shade, within ``NEAR_HUE`` of its hue
    band (brown: any dark warm colour; pink: any light red to purple); for the achromatic
    families, close to it (black: dark; white: very light, nearly grey; gray: dull)."""
    hue, sat, light = hsl(rgb)
    chroma = (max(rgb) - min(rgb)) / 255
    if family == "black":
        return light < 0.3
    if family == "white":
        return light > 0.8 and chroma < 0.2  # cream, a bluish snow: not white, not surely not
    if family == "gray":
        return chroma < 0.2 and 0.12 < light < 0.975
    if chroma < 0.06 or light < 0.06 or light > 0.97:
        return family in colour_families(rgb)
    if family == "brown":
        return (hue <= 60 or hue >= 330) and light < 0.75  # tan is light brown
    if family == "pink":
        return (hue >= 270 or hue <= 25) and light >= 0.45
    if family in ("yellow", "orange") and light < 0.3:
        return False  # dark yellow and dark orange read as brown
    bands = _HUE_BANDS.get(family, ())
    return any(_hue_gap(hue, lo, hi) <= NEAR_HUE for lo, hi in bands)


def _pale_shade(family: str, modifier: str | None, rgb: RGB) -> bool:
    """The pale shades basic families leave out: off-white (a warm or cool tint of white),
    light brown (tan, a light wood: brown's own family stops at dark colours) and the
    lightest greys (which the grey family leaves to white)."""
    hue, sat, light = hsl(rgb)
    chroma = (max(rgb) - min(rgb)) / 255
    if family == "white" and modifier == "off":
        return light >= 0.85 and chroma <= 0.2
    if family == "brown" and modifier in ("light", "pale"):
        return (hue <= 50 or hue >= 345) and 0.45 <= light <= 0.82 and chroma >= 0.12
    if family == "gray" and modifier in ("light", "pale"):
        return 0.7 <= light <= 0.975 and chroma <= 0.06  # a page's #f3f4f6: grey, not white
    return False


def _hue_gap(hue: float, lo: float, hi: float) -> float:
    """Degrees from ``hue`` to the band [lo, hi] around the colour wheel (0 inside it)."""
    if lo <= hue <= hi:
        return 0.0
    return min((lo - hue) % 360, (hue - hi) % 360)


def _modifier_ok(modifier: str | None, rgb: RGB) -> bool:
    _, sat, light = hsl(rgb)
    if modifier in ("light", "pale", "pastel"):
        return light >= 0.58
    if modifier in ("dark", "deep"):
        return light <= 0.42
    if modifier in ("bright", "vivid"):
        return sat >= 0.5 and 0.3 <= light <= 0.8
    return True


def _toned(spec: ColorSpec, rgb: RGB) -> bool:
    """A named colour made darker ("deep royal blue") or lighter ("pale sky blue"): what the
    name allows or its hue further that way (darker only up to halfway to black: past it,
    another name, navy, not a deep royal blue), never a shade the other way."""
    (hue_a, _, light_a), (hue_b, _, light_b) = hsl(spec.rgb), hsl(rgb)
    darker = spec.modifier in ("dark", "deep")
    if (light_b > light_a + 0.05) if darker else (light_b < light_a - 0.05):
        return False
    return replace(spec, modifier=None).matches(rgb) or (
        bool(colour_families(spec.rgb) & colour_families(rgb))
        and _hue_gap(hue_b, hue_a, hue_a) <= 10 and (not darker or light_b >= light_a / 2))


def _distance(a: RGB, b: RGB) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def color_spec(phrase: str) -> ColorSpec | None:
    """Read a colour phrase from a requirement (lower case): ``"light blue"``, ``"navy blue"``,
    ``"crimson"``, ``"#f80"``; None if it is not one."""
    text = " ".join(phrase.lower().replace("grey", "gray").split())
    if not text:
        return None
    if text.startswith(("#", "rgb", "hsl")):
        parsed = parse_color(text)
        return ColorSpec(text, rgb=parsed.rgb) if parsed else None
    words = text.split(" ")
    if len(words) == 3 and words[0] in MODIFIERS:
        return _toned_name(text, words[0], " ".join(words[1:]))
    if len(words) > 2:
        return None
    if len(words) == 2:
        return _two_words(text, *words)
    return _one_word(text)


def _two_words(text: str, first: str, last: str) -> ColorSpec | None:
    """"light blue", "navy blue", "off white", "grass green"."""
    joined = first + last
    if first in MODIFIERS:
        base = color_spec(last)
        if base is None:
            return None
        if base.family is not None:
            return ColorSpec(text, family=base.family, modifier=first)
        return ColorSpec(text, rgb=CSS_COLORS[joined]) if joined in CSS_COLORS \
            else replace(base, text=text)
    if joined in CSS_COLORS:
        return ColorSpec(text, rgb=CSS_COLORS[joined])
    if first == "off" and last == "white":
        return ColorSpec(text, family="white", modifier="off")
    head, tail = color_spec(first), color_spec(last)
    if (head is None and first not in DESCRIPTIVE) or tail is None:
        return None
    return ColorSpec(text, family=tail.family, modifier=tail.modifier, rgb=tail.rgb)


def _toned_name(text: str, modifier: str, name: str) -> ColorSpec | None:
    """"deep royal blue", "light sky blue": a CSS name joined, else the shades ``_toned``."""
    joined, base = text.replace(" ", ""), color_spec(name)
    if joined in CSS_COLORS or base is None:
        return ColorSpec(text, rgb=CSS_COLORS[joined]) if joined in CSS_COLORS else None
    return replace(base, text=text, modifier=modifier,
                   family=base.family if base.rgb is None else None)


def _one_word(word: str) -> ColorSpec | None:
    if word in EVERYDAY:
        family, modifier = EVERYDAY[word]
        return ColorSpec(word, family=family, modifier=modifier, rgb=CSS_COLORS[word])
    if word in EXTRA_RGB:
        return ColorSpec(word, rgb=EXTRA_RGB[word])
    if word in FAMILIES:
        return ColorSpec(word, family=word)
    if word in CSS_COLORS:
        return ColorSpec(word, rgb=CSS_COLORS[word])
    if word in SYNONYMS:
        return ColorSpec(word, family=SYNONYMS[word])
    return None

COLOR_WORDS = sorted({*CSS_COLORS, *FAMILIES, *SYNONYMS, *EXTRA_RGB}, key=len, reverse=True)
"""Every single word ``color_spec`` accepts, longest first (for building regexes)."""
