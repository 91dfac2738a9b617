"""What people call a colour, measured: the mean colour each name was given in the xkcd
colour survey (Randall Munroe, 2010: five million answers; its 954 most common names and
their mean RGB were released under CC0). Kept here: the names the free-text reader can meet
(a basic colour word, with an optional shade word before it).

The hue bands of ``colour_names`` are rules; the survey is what people said. A colour close
to the survey's mean for a name is that colour whatever the rules say ("dark yellow" for
#d5b60a, "royal blue" for #0504aa, "deep pink" for #cb0162).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

_MEANS = """
baby_blue a2cffe baby_green 8cff9e baby_pink ffb7ce baby_purple ca9bf7 beige e6daa6
black 000000 blood_orange fe4b03 blood_red 980002 blue 0343df brick_orange c14a09
brick_red 8f1402 bright_blue 0165fc bright_cyan 41fdfe bright_green 01ff07
bright_lavender c760ff bright_magenta ff08e8 bright_orange ff5b00 bright_pink fe01b1
bright_purple be03fd bright_red ff000d bright_teal 01f9c6 bright_turquoise 0ffef9
bright_violet ad0afd bright_yellow fffd01 brown 653700 burnt_orange c04e01 burnt_red 9f2305
burnt_yellow d5ab09 charcoal 343837 cool_blue 4984b8 cool_green 33b864 cream ffffc2
crimson 8c000f cyan 00ffff dark_beige ac9362 dark_blue 00035b dark_brown 341c02
dark_cream fff39a dark_cyan 0a888a dark_gold b59410 dark_green 033500 dark_indigo 1f0954
dark_lavender 856798 dark_magenta 960056 dark_maroon 3c0008 dark_navy 000435
dark_orange c65102 dark_pink cb416b dark_purple 35063e dark_red 840000 dark_teal 014d4e
dark_turquoise 045c5a dark_violet 34013f dark_yellow d5b60a deep_blue 040273
deep_brown 410200 deep_green 02590f deep_lavender 8d5eb7 deep_magenta a0025c
deep_orange dc4d01 deep_pink cb0162 deep_purple 36013f deep_red 9a0200 deep_teal 00555a
deep_turquoise 017374 deep_violet 490648 dusty_blue 5a86ad dusty_green 76a973
dusty_lavender ac86a8 dusty_orange f0833a dusty_pink d58a94 dusty_purple 825f87
dusty_red b9484e dusty_teal 4c9085 emerald_green 028f1e forest_green 06470c gold dbb40c
golden f5bf03 green 15b01a hot_green 25ff29 hot_magenta f504c9 hot_pink ff028d
hot_purple cb00f5 ice_blue d7fffe indigo 380282 lavender c79fef light_beige fffeb6
light_blue 95d0fc light_brown ad8150 light_cyan acfffc light_gold fddc5c light_green 96f97b
light_indigo 6d5acf light_lavender dfc5fe light_magenta fa5ff7 light_maroon a24857
light_navy 155084 light_orange fdaa48 light_pink ffd1df light_purple bf77f6
light_red ff474c light_teal 90e4c1 light_turquoise 7ef4cc light_violet d6b4fc
light_yellow fffe7a lime_green 89fe05 lime_yellow d0fe1d magenta c20078 maroon 650021
medium_blue 2c6fbb medium_brown 7f5112 medium_green 39ad48 medium_pink f36196
medium_purple 9e43a2 midnight_blue 020035 midnight_purple 280137 mint_green 8fff9f
navy 01153e navy_blue 001146 navy_green 35530a neon_blue 04d9ff neon_green 0cff0c
neon_pink fe019a neon_purple bc13fe neon_red ff073a neon_yellow cfff04 off_blue 5684ae
off_green 6ba353 off_white ffffe4 off_yellow f1f33f olive_brown 645403 olive_green 677a04
olive_yellow c2b709 orange f97306 pale_blue d0fefe pale_brown b1916e pale_cyan b7fffa
pale_gold fdde6c pale_green c7fdb5 pale_lavender eecffe pale_magenta d767ad
pale_orange ffa756 pale_pink ffcfdc pale_purple b790d4 pale_red d9544d pale_teal 82cbb2
pale_turquoise a5fbd5 pale_violet ceaefa pale_yellow ffff84 pastel_blue a2bffe
pastel_green b0ff9d pastel_orange ff964f pastel_pink ffbacd pastel_purple caa0ff
pastel_red db5856 pastel_yellow fffe71 pink ff81c0 purple 7e1e9c red e50000
rich_blue 021bf9 rich_purple 720058 royal_blue 0504aa royal_purple 4b006e scarlet be0119
sea_blue 047495 sea_green 53fca1 silver c5c9c7 sky_blue 75bbfd slate_blue 5b7c99
slate_green 658d6d soft_blue 6488ea soft_green 6fc276 soft_pink fdb0c0 soft_purple a66fb5
steel_blue 5a7d9a teal 029386 turquoise 06c2ac violet 9a0eea vivid_blue 152eff
vivid_green 2fef10 vivid_purple 9900fa warm_blue 4b57db warm_brown 964e02 warm_pink fb5581
warm_purple 952e8f white ffffff yellow ffff14
"""
SURVEY: dict[str, RGB] = {
    name.replace("_", " "): (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    for name, h in zip(_MEANS.split()[::2], _MEANS.split()[1::2], strict=True)}
"""Name (lower case, "gray" spelt so) -> the survey's mean colour for it."""

CLOSE = 12.0
"""CIELAB distance (CIE76) from a name's mean within which a colour is that name: about
the step between neighbouring survey names of one hue, so a mean never speaks for its
neighbour."""

GREYISH = 10.0
"""A mean with less CIELAB chroma than this names no hue (white, grey, black); such names
keep the rules' narrow readings (pale pink is not white)."""


def survey_says(name: str, rgb: RGB) -> bool:
    """Whether ``rgb`` lies within ``CLOSE`` of the survey's mean for ``name``.

    >>> survey_says("dark yellow", (0xd5, 0xb6, 0x0a)), survey_says("dark yellow", (0, 0, 255))
    (True, False)
    """
    mean = SURVEY.get(name)
    if mean is None:
        return False
    a, b = lab(mean), lab(rgb)
    if (a[1] ** 2 + a[2] ** 2) ** 0.5 < GREYISH:
        return False  # white, grey, black: a tint away from the mean is another name
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 <= CLOSE


def lab(rgb: RGB) -> tuple[float, float, float]:
    """sRGB (D65) to CIELAB."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)
