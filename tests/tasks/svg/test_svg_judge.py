"""The OpenAI-compatible judge, against a real local HTTP endpoint speaking the chat API."""

from __future__ import annotations

import asyncio

import pytest

from designrl.tasks.svg import OpenAIJudge, SvgReward
from designrl.tasks.svg.judge import judge_messages, parse_verdict

NS = 'xmlns="http://www.w3.org/2000/svg"'
SVG = f'<svg {NS} viewBox="0 0 100 100"><circle cx="50" cy="50" r="30" fill="red"/></svg>'
REQUIREMENTS = ["Include a red circle", "Include a blue square", "The drawing must feel calm"]

# The reply each "model" gives; None answers HTTP 500.
REPLIES = {
    "fenced": '```json\n{"fulfilled": [1, 3]}\n```',
    "prose": 'Looking at it: {"fulfilled": ["3", 1]} - the square is missing.',
    "all": '{"fulfilled": [1, 2, 3]}',
    "malformed": "I think two of the three requirements are met.",
    "out_of_range": '{"fulfilled": [1, 7]}',
    "empty": "",
    "broken": None,
}


@pytest.fixture(scope="module")
def endpoint(chat_server):
    return chat_server.url


def _judge(endpoint: str, model: str, **kwargs):
    async def run():
        judge = OpenAIJudge(endpoint, model, api_key="test-key", timeout=10, **kwargs)
        try:
            return await judge.judge(SVG, REQUIREMENTS, png=b"\x89PNG fake")
        finally:
            await judge.close()

    return asyncio.run(run())


@pytest.mark.parametrize(("model", "fulfilled"), [("fenced", {0, 2}), ("prose", {0, 2}),
                                                   ("all", {0, 1, 2})])
def test_judge_reads_fulfilled_requirements(endpoint, model, fulfilled):
    verdict = _judge(endpoint, model)
    assert verdict.ok and verdict.fulfilled == fulfilled
    assert verdict.score == pytest.approx(len(fulfilled) / 3)


@pytest.mark.parametrize(("model", "error"), [
    ("malformed", "judge_malformed: no JSON object"),
    ("out_of_range", "judge_malformed: 7 is not in 1..3"),
    ("empty", "judge_malformed: empty reply"),
    ("broken", "judge_request_failed: InternalServerError"),
])
def test_judge_failures_are_recorded_not_raised(endpoint, model, error):
    verdict = _judge(endpoint, model)
    assert not verdict.ok and verdict.score is None
    assert verdict.error.startswith(error), verdict.error


def test_unreachable_judge_is_a_recorded_error():
    verdict = _judge("http://127.0.0.1:9/v1", "fenced")
    assert verdict.error.startswith("judge_request_failed: APIConnectionError")


def test_request_lists_numbered_requirements_and_the_code(endpoint, chat_server):
    chat_server.requests.clear()
    _judge(endpoint, "fenced")
    request = chat_server.requests[-1]
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer test-key"
    user = request["body"]["messages"][-1]["content"]
    assert isinstance(user, str)  # not multimodal: no image part
    assert "1. Include a red circle\n2. Include a blue square\n3. The drawing" in user
    assert SVG in user and '{"fulfilled"' in user


def test_multimodal_request_carries_the_png_as_a_data_url(endpoint, chat_server):
    chat_server.requests.clear()
    _judge(endpoint, "fenced", multimodal=True)
    parts = chat_server.requests[-1]["body"]["messages"][-1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url"]
    assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_reward_prefers_the_judge_and_falls_back_when_it_fails(endpoint, chat_server):
    async def run(model):
        judge = OpenAIJudge(endpoint, model, timeout=10, multimodal=True)
        try:
            return await SvgReward(judge=judge).score(f"```svg\n{SVG}\n```", REQUIREMENTS)
        finally:
            await judge.close()

    good = asyncio.run(run("fenced"))
    assert good.components["judge"] == pytest.approx(2 / 3)
    assert good.total == pytest.approx(0.1 + 0.1 + 0.8 * 2 / 3)
    assert [d.verdict for d in good.details] == ["pass", "fail", "pass"]
    assert good.details[2].source == "judge"

    bad = asyncio.run(run("malformed"))
    assert "judge" not in bad.components
    assert bad.judge_error.startswith("judge_malformed")
    assert bad.total == pytest.approx(0.1 + 0.1 + 0.8 * 0.5)  # predicates: 1 of 2 checked
    assert bad.details[2].verdict == "unchecked"


@pytest.mark.parametrize("reply", ['{"fulfilled": "1,2"}', '{"fulfilled": [true]}',
                                   '{"fulfilled": [1.5]}', '[1, 2]', '{"fulfilled": [1,}'])
def test_parse_verdict_rejects_malformed_json(reply):
    assert parse_verdict(reply, 3).error.startswith("judge_malformed")


def test_long_svg_is_truncated_in_the_prompt():
    messages = judge_messages("<svg>" + "x" * 100_000 + "</svg>", ["a"])
    assert len(messages[-1]["content"]) < 40_000 and "truncated" in messages[-1]["content"]
