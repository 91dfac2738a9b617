"""PNG bytes to RGB arrays and back: the one codec every family's reward reads renders with."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image


def decode_png(png: bytes) -> np.ndarray:
    """RGB uint8 array (H, W, 3) of a PNG; PIL's error when the bytes are not one."""
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 3) uint8 array."""
    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG")
    return out.getvalue()
