"""The CLIP visual term, on a tiny CLIP built here with random weights (no download).

Needs torch and transformers (the ``train`` extra, which ``make setup`` installs)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from designrl.render.types import RenderResult, TextBlock
from designrl.tasks.html.reward import score_renders
from designrl.tasks.html.visual import ClipSimilarity

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory) -> str:
    """A CLIP checkpoint directory: a 1-layer model and its image processor."""
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel

    torch.manual_seed(0)
    small = {"hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 1,
             "num_attention_heads": 2}
    config = CLIPConfig(text_config={**small, "vocab_size": 64, "eos_token_id": 2},
                        vision_config={**small, "image_size": 64, "patch_size": 16},
                        projection_dim=8)
    path = tmp_path_factory.mktemp("tiny-clip")
    CLIPModel(config).save_pretrained(path)
    CLIPImageProcessor(size={"shortest_edge": 64}, crop_size={"height": 64, "width": 64}
                       ).save_pretrained(path)
    return str(path)


def page(colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> np.ndarray:
    image = np.full((240, 320, 3), 255, dtype=np.uint8)
    x, y, w, h = box
    image[y:y + h, x:x + w] = colour
    return image


def test_identical_screenshots_score_one_and_different_ones_less(tiny_clip):
    clip = ClipSimilarity(tiny_clip)
    red = page((220, 30, 30), (20, 20, 200, 80))
    blue = page((30, 30, 220), (120, 120, 180, 100))
    assert clip(red, red) == pytest.approx(1.0, abs=1e-5)
    assert 0.0 <= clip(red, blue) < 0.99
    assert clip(red, blue) == pytest.approx(clip(blue, red), abs=1e-5)


def test_clip_is_the_visual_term_of_the_design2code_component(tiny_clip):
    buffer = io.BytesIO()
    image = page((20, 120, 60), (40, 40, 160, 60))
    image[60:70, 50:190:3] = 255  # the block's "glyphs": text that draws ink
    Image.fromarray(image).save(buffer, "PNG")
    block = TextBlock(text="Hello", bbox=(40, 40, 160, 60), color=(0, 0, 0),
                      background=(255, 255, 255), font_size=16, font_weight=400)
    render = RenderResult(png=buffer.getvalue(), width=320, height=240, text_blocks=[block])
    score = score_renders(render, render, visual=ClipSimilarity(tiny_clip))
    assert score.components["visual"] == pytest.approx(1.0, abs=1e-5)
    assert score.components["design2code"] == pytest.approx(1.0, abs=1e-5)


def test_a_missing_checkpoint_is_a_clear_error(tmp_path):
    with pytest.raises(OSError):
        ClipSimilarity(str(tmp_path / "nowhere"))(page((0, 0, 0), (0, 0, 1, 1)),
                                                    page((0, 0, 0), (0, 0, 1, 1)))
