"""The optional OpenDesign-rubric judge, against a real local HTTP endpoint speaking the
chat-completions API; malformed or failed replies are recorded errors, never exceptions."""

from __future__ import annotations

import asyncio

import pytest

from designrl.tasks.webpage import OpenAIJudge, WebpageReward
from designrl.tasks.webpage.judge import build_messages, parse_verdict
from designrl.tasks.webpage.ladders import ladder_pages
from designrl.tasks.webpage.reward import JUDGE_WEIGHT

GOOD = '{"instruction_alignment": 36, "aesthetics_readability": 27, "structural_integrity": 27}'

# The reply each "model" gives; None answers HTTP 500.
REPLIES = {
    "fenced": f"```json\n{GOOD}\n```",
    "prose": "Overall solid. " + GOOD.replace("36", '"36"') + " Nice work.",
    "malformed": "I would give it about 80 out of 100.",
    "out_of_range": GOOD.replace("36", "55"),
    "missing": '{"instruction_alignment": 30}',
    "broken": None,
}


@pytest.fixture(scope="module")
def endpoint(chat_server):
    return chat_server.url


def test_parse_verdict_is_tolerant_but_strict():
    verdict = parse_verdict(f"```json\n{GOOD}\n```")
    assert verdict.ok and verdict.total == 90 and verdict.score == pytest.approx(0.9)
    spelled = parse_verdict('Scores: {"Instruction Alignment": 40, "aesthetics": {"score": 30},'
                            ' "structure": "30"}')
    assert spelled.ok and spelled.total == 100
    for bad in ("", "no json", "{not json}", "[1, 2]", '{"instruction_alignment": 10}',
                GOOD.replace("36", "41"), GOOD.replace("36", "true"), GOOD.replace("36", '"x"')):
        verdict = parse_verdict(bad)
        assert not verdict.ok and verdict.error.startswith("judge_malformed"), bad
        assert verdict.score is None


def test_messages_carry_prompt_code_and_optional_image():
    text_only = build_messages("A pricing table", "<p>x</p>")
    assert text_only[0]["role"] == "system"
    assert "instruction_alignment (0-40)" in text_only[0]["content"]
    assert "A pricing table" in text_only[1]["content"] and "<p>x</p>" in text_only[1]["content"]
    with_image = build_messages(None, "<p>x</p>", b"\x89PNG fake")
    parts = with_image[1]["content"]
    assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "(no request given)" in parts[0]["text"]
    huge = build_messages("p", "x" * 100_000)
    assert len(huge[1]["content"]) < 45_000


def test_openai_judge_over_http(endpoint, chat_server):
    async def ask(model: str, png: bytes | None = None, multimodal: bool = False):
        judge = OpenAIJudge(endpoint, model, timeout=10, multimodal=multimodal)
        try:
            return await judge.judge("A landing page", "<h1>Hi</h1>", png)
        finally:
            await judge.close()

    chat_server.requests.clear()
    assert asyncio.run(ask("fenced")).total == 90
    assert asyncio.run(ask("prose")).total == 90
    for model, prefix in (("malformed", "judge_malformed"), ("out_of_range", "judge_malformed"),
                          ("missing", "judge_malformed"), ("broken", "judge_request_failed")):
        verdict = asyncio.run(ask(model))
        assert not verdict.ok and verdict.error.startswith(prefix), (model, verdict.error)
    asyncio.run(ask("fenced", b"\x89PNG", multimodal=True))
    sent = chat_server.requests[-1]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["body"]["messages"][1]["content"][1]["type"] == "image_url"
    # A closed port is a recorded error too.
    closed = OpenAIJudge("http://127.0.0.1:9/v1", "fenced", timeout=2)
    verdict = asyncio.run(closed.judge("p", "<p>x</p>"))
    assert verdict.error.startswith("judge_request_failed")


@pytest.mark.integration
def test_reward_with_judge(runner, endpoint, chat_server):
    page = ladder_pages()["pricing-table"]["good"]

    async def score(model: str):
        judge = OpenAIJudge(endpoint, model, timeout=10, multimodal=True)
        try:
            return await WebpageReward(runner.pool, judge=judge).score(page, "A pricing table")
        finally:
            await judge.close()

    plain = runner.run(WebpageReward(runner.pool).score(page, "A pricing table"))
    judged = runner.run(score("fenced"))
    assert judged.components["judge"] == pytest.approx(0.9)
    assert judged.details["judge"]["parts"]["instruction_alignment"] == 36
    expected = (1 - JUDGE_WEIGHT) * plain.total + JUDGE_WEIGHT * 0.9
    assert judged.total == pytest.approx(expected, abs=0.05)
    assert judged.judge_error is None
    for model in ("malformed",):  # a failed request is covered over HTTP above
        failed = runner.run(score(model))
        assert "judge" not in failed.components and failed.judge_error
        assert failed.total == pytest.approx(plain.total, abs=0.05)
    # No judge call for a page that earns nothing anyway.
    before = len(chat_server.requests)
    blank = runner.run(WebpageReward(runner.pool, judge=_CountingJudge())
                       .score("<html><body></body></html>"))
    assert blank.total == 0.0 and "judge" not in blank.details
    assert len(chat_server.requests) == before


class _CountingJudge:
    multimodal = False

    async def judge(self, prompt, html, png=None):  # pragma: no cover - must not be called
        raise AssertionError("the judge was asked about a blank page")
