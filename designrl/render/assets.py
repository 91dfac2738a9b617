"""The only files a rendered page may load: a placeholder image, plus any the caller adds.

Design2Code pages reference ``rick.jpg`` by a relative URL; we serve a neutral
placeholder of the same size (1920x1080) under that name, drawn with Pillow so
the package ships no third-party image.
"""

from __future__ import annotations

import io
import mimetypes
from collections.abc import Mapping
from functools import lru_cache

PLACEHOLDER_NAMES = ("rick.jpg", "placeholder.jpg")
PLACEHOLDER_SIZE = (1920, 1080)


@lru_cache(maxsize=1)
def placeholder_jpeg() -> bytes:
    """A grey 1920x1080 JPEG with a lighter frame and diagonals: reads as "image here"."""
    from PIL import Image, ImageDraw

    width, height = PLACEHOLDER_SIZE
    image = Image.new("RGB", (width, height), (176, 180, 186))
    draw = ImageDraw.Draw(image)
    line = (206, 209, 214)
    draw.rectangle((24, 24, width - 25, height - 25), outline=line, width=12)
    draw.line((24, 24, width - 25, height - 25), fill=line, width=12)
    draw.line((24, height - 25, width - 25, 24), fill=line, width=12)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def content_type(name: str) -> str:
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


class AssetStore:
    """Name -> bytes for the asset route; lookups use the file name only (``a/b/rick.jpg`` -> ``rick.jpg``)."""

    def __init__(self, extra: Mapping[str, bytes] | None = None) -> None:
        self._extra = dict(extra or {})

    def get(self, name: str) -> bytes | None:
        name = name.rsplit("/", 1)[-1]
        if name in self._extra:
            return self._extra[name]
        if name in PLACEHOLDER_NAMES:
            return placeholder_jpeg()
        return None
