"""The shared fence finder: language filter, unterminated fences, several blocks."""

from designrl.fences import Fence, fenced_blocks


def test_several_blocks_in_order_with_their_tags_and_spans():
    text = "intro\n```svg\n<svg/>\n```\nthen\n```\nbare\n```"
    blocks = fenced_blocks(text)
    assert [(b.language, b.body) for b in blocks] == [("svg", "<svg/>\n"), ("", "bare\n")]
    assert text[blocks[0].start:blocks[0].end] == "```svg\n<svg/>\n```"
    assert blocks[1].end == len(text)


def test_any_tag_ignores_the_rest_of_the_opening_line():
    text = "```svg title=\"logo\"\n<svg/>```"
    assert fenced_blocks(text) == [Fence("svg", "<svg/>", 0, len(text))]


def test_language_filter_keeps_only_those_tags():
    text = "```python\nprint(1)\n```\n```html\n<p>hi</p>\n```"
    assert [b.body for b in fenced_blocks(text, ("html", "HTML"))] == ["<p>hi</p>\n"]
    assert fenced_blocks("```Html\n<p/>```", ("html", "HTML")) == []
    assert [b.language for b in fenced_blocks("```\n<p/>```", ("html", ""))] == [""]


def test_a_filtered_fence_is_not_skipped_as_a_block():
    # Only matching openings are blocks: the closing fence of the python block
    # opens a bare one (the families have always read completions this way).
    text = "```python\nx\n```\nprose\n```html\n<p/>```"
    assert [b.body for b in fenced_blocks(text, ("html", ""))] == ["prose\n"]


def test_unterminated_fence_is_no_block():
    assert fenced_blocks("```html\n<html></html>") == []
    assert [b.body for b in fenced_blocks("```json\n{}\n```\n```json\n{\"a\": 1}")] == ["{}\n"]


def test_inline_body_and_case():
    assert fenced_blocks('```json {"a": 1}```') == []
    assert [b.body for b in fenced_blocks('```json {"a": 1}```', ("json", ""), inline=True)] \
        == ['{"a": 1}']
    assert [b.language for b in fenced_blocks("```JSON\n{}```", ("json",), ignore_case=True)] \
        == ["JSON"]
