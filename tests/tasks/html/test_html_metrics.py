"""html family metrics on hand-built blocks and trees (no browser)."""

import numpy as np
import pytest

from designrl.render.types import ElementBox, RenderResult, TextBlock
from designrl.tasks.html.degrade import LADDER, ladder
from designrl.tasks.html.extract import extract_html
from designrl.tasks.html.reward import score_renders
from designrl.tasks.html.structure import structure_similarity, tree_bleu
from designrl.tasks.html.text_blocks import block_scores, color_similarity, match_blocks
from designrl.tasks.html.visual import mask_text, ssim_similarity


def block(text, x=0, y=0, w=100, h=20, color=(0, 0, 0)):
    return TextBlock(text, (x, y, w, h), color, (255, 255, 255), 16.0, 400)


def test_identical_blocks_score_one():
    blocks = [block("Welcome home", 10, 10), block("About us", 10, 60, color=(200, 0, 0))]
    s = block_scores(blocks, blocks, (1280, 800), (1280, 800))
    assert s.matches == 2
    assert s.as_dict() == pytest.approx({"block_match": 1, "text": 1, "position": 1, "color": 1})


def test_matching_is_an_assignment_and_drops_weak_pairs():
    ref = [block("Pricing plans"), block("Contact the team")]
    cand = [block("Contact our team"), block("zzzz qqqq"), block("Pricing plan")]
    pairs = {(i, j) for i, j, _ in match_blocks(ref, cand)}
    assert pairs == {(0, 2), (1, 0)}


def test_moved_and_recoloured_blocks_score_lower():
    ref = [block("Hello world", 0, 0)]
    moved = [block("Hello world", 640, 400)]
    s = block_scores(ref, moved, (1280, 800), (1280, 800))
    assert s.position == pytest.approx(0.5)
    assert color_similarity([(0, 0, 0)], [(255, 255, 255)])[0] == pytest.approx(0.0)
    assert 0.5 < color_similarity([(200, 0, 0)], [(180, 20, 20)])[0] < 1


def test_no_match_scores_zero():
    assert block_scores([block("a b c d")], [], (1, 1), (1, 1)).matches == 0


def tree(*pairs):
    return [ElementBox(tag, (0, 0, 1, 1), 0, parent) for tag, parent in pairs]


def test_structure_similarity():
    ref = tree(("body", -1), ("div", 0), ("p", 1), ("p", 1), ("img", 0))
    same = tree(("body", -1), ("div", 0), ("p", 1), ("p", 1), ("img", 0))
    other = tree(("body", -1), ("span", 0), ("a", 1))
    assert structure_similarity(ref, same) == 1.0 and tree_bleu(ref, same) == 1.0
    assert structure_similarity(ref, other) == 0.0
    bloated = ref + tree(("ul", 0)) + [ElementBox("li", (0, 0, 1, 1), 0, 5)]
    assert tree_bleu(ref, bloated) < 1.0 or structure_similarity(ref, bloated) < 1.0


def test_extract_html():
    doc = "<!DOCTYPE html><html><body>hi</body></html>"
    assert extract_html(doc) == (doc, True)
    assert extract_html(f"```html\n{doc}\n```") == (doc, True)
    assert extract_html(f"Sure! Here it is:\n{doc}\nEnjoy.") == (doc, False)
    assert extract_html("I cannot do that.") == (None, False)


def test_mask_text_and_ssim():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (80, 120, 3), dtype=np.uint8)
    masked = mask_text(image, [block("x", 10, 10, 50, 30)])
    assert masked[20:40, 10:60].std(axis=(0, 1)).max() == 0
    assert ssim_similarity(image, image) == pytest.approx(1.0)
    assert ssim_similarity(image, np.full_like(image, 255)) < 0.2


def test_invalid_candidates_score_zero():
    ref = RenderResult(png=b"", width=10, height=10)
    for bad in (RenderResult.failure("timeout", timed_out=True),
                RenderResult.failure("resource_exceeded"),
                RenderResult(png=b"not a png", width=10, height=10)):  # blank
        score = score_renders(ref, bad)
        assert score.total == 0.0 and score.components["validity"] == 0.0 and score.error


def test_ladder_makes_every_step():
    html = "<html><head><style>p{color:#123456}</style></head><body><div><p>First words here</p><p style='color:rgb(10,20,30)'>Second line of text</p></div><span>tail</span></body></html>"
    steps = dict(ladder(html, seed=1))
    assert list(steps) == list(LADDER)
    assert "#123456" not in steps["colors"] and "rgb(10,20,30)" not in steps["colors"]
    assert "<style>" not in steps["no_styles"] and "style=" not in steps["no_styles"]
    assert "First" not in steps["no_text"] and "<p>" in steps["no_text"]
    assert steps["shuffled"] != html and "Second line of text" in steps["shuffled"]
    order = sorted(("First words", "Second line", "tail"), key=steps["shuffled"].index)
    assert order != ["First words", "Second line", "tail"]


def test_loaders(tmp_path):
    from designrl.tasks.html.dataset import iter_websight, load_design2code

    for name in ("10.html", "9.html", "100.html"):
        (tmp_path / name).write_text(f"<html><body>{name}</body></html>")
    assert [i.id for i in load_design2code(tmp_path)] == ["9", "10", "100"]
    good = tmp_path / "ws.jsonl"
    good.write_text('{"text": "<html></html>", "image": "ignored"}\n\n{"id": "b", "html": "<p>x</p>"}\n')
    assert [(i.id, i.html) for i in iter_websight(good)] == [("1", "<html></html>"), ("b", "<p>x</p>")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "<html></html>"}\n{"image": "only"}\n')
    with pytest.raises(ValueError, match="bad.jsonl:2: no 'html' or 'text'"):
        list(iter_websight(bad))
