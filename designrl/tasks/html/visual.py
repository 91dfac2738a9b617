"""Design2Code's visual term: similarity of two screenshots with text blocks masked out.

The reward's own screenshot terms are in ``appearance``; this one feeds only the
``design2code`` component, kept for comparison with Design2Code's published scores.

Text is scored by the block metrics, so it is painted over here (each text
block's box filled with the median colour of its border, a cheap stand-in for
Design2Code's inpainting). The default measure is SSIM on grey images squashed
to 256 × 256, which needs no downloaded weights. ``ClipSimilarity`` computes
Design2Code's CLIP term instead when a local CLIP checkpoint is configured.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity

from designrl.render.png import decode_png as png_array

SIDE = 256


def decode_png(png: bytes) -> np.ndarray:
    """RGB uint8 array (H, W, 3) of a PNG; a 1 × 1 white image for empty or broken input."""
    try:
        return png_array(png)
    except Exception:  # noqa: BLE001 - a broken screenshot scores as blank
        return np.full((1, 1, 3), 255, dtype=np.uint8)


def mask_text(image: np.ndarray, blocks: Sequence, scale: float = 1.0) -> np.ndarray:
    """A copy with every text block's box filled with the median colour of its border."""
    out = image.copy()
    height, width = out.shape[:2]
    for block in blocks:
        x, y, w, h = (v * scale for v in block.bbox)
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(width, int(np.ceil(x + w))), min(height, int(np.ceil(y + h)))
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue
        border = np.concatenate([
            out[y0, x0:x1], out[y1 - 1, x0:x1], out[y0:y1, x0], out[y0:y1, x1 - 1]])
        out[y0:y1, x0:x1] = np.median(border, axis=0).astype(np.uint8)
    return out


def squash(image: np.ndarray, side: int = SIDE, grey: bool = True) -> np.ndarray:
    """Resize to side × side (aspect not kept, as Design2Code does), floats in [0, 1]."""
    pil = Image.fromarray(image).convert("L" if grey else "RGB")
    return np.asarray(pil.resize((side, side), Image.Resampling.BILINEAR), dtype=float) / 255.0


def ssim_similarity(reference: np.ndarray, candidate: np.ndarray) -> float:
    """SSIM of the two images squashed to grey squares, clipped to [0, 1]."""
    score = structural_similarity(squash(reference), squash(candidate), data_range=1.0)
    return float(min(1.0, max(0.0, score)))


class ClipSimilarity:
    """Cosine similarity of CLIP image embeddings from a local checkpoint directory
    (e.g. ``openai/clip-vit-base-patch32`` saved with ``save_pretrained``: the model and
    its image processor; no tokenizer is needed). Needs the ``train`` extra (torch,
    transformers); nothing is downloaded. Images are squashed to the model's square
    input, as Design2Code does."""

    def __init__(self, path: str):
        self.path = path

    @cached_property
    def _model(self):
        from transformers import CLIPImageProcessor, CLIPModel

        model = CLIPModel.from_pretrained(self.path, local_files_only=True).eval()
        return model, CLIPImageProcessor.from_pretrained(self.path, local_files_only=True)

    def __call__(self, reference: np.ndarray, candidate: np.ndarray) -> float:
        import torch

        model, processor = self._model
        side = model.config.vision_config.image_size
        images = [Image.fromarray(i).convert("RGB").resize((side, side)) for i in (reference,
                                                                                   candidate)]
        with torch.no_grad():
            features = model.get_image_features(**processor(images=images, return_tensors="pt"))
        if not isinstance(features, torch.Tensor):  # newer transformers return an output object
            features = features.pooler_output
        features = torch.nn.functional.normalize(features, dim=-1)
        return float(min(1.0, max(0.0, (features[0] @ features[1]).item())))
