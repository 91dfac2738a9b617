"""``designrl bench --tasks svgbench``: SVGBench's score (fulfilled / N, pass at 0.5) through
the real CLI, real Chromium and, with ``--judge``, a real local chat endpoint whose
replies are scripted per prompt, so every figure of the report is known in advance."""

from __future__ import annotations

import json

import pytest
from browser_support import require_chromium
from sqlalchemy import select

from designrl.cli import main
from designrl.store import make_engine, make_sessionmaker
from designrl.store.models import Job
from designrl.tasks.svg.svgbench_score import svgbench_figures

pytestmark = pytest.mark.integration

NS = 'xmlns="http://www.w3.org/2000/svg"'
# Each prompt, its answer and (in comments) the computed verdicts the reward gives it.
QUESTIONS = [
    {"id": "sun", "prompt": "A yellow sun on white", "requirements": [
        "The background of the SVG must be white.",  # pass
        "Include a yellow circle.",  # pass
        "Include a blue square.",  # fail
        "The drawing must feel calm."]},  # undecided
    {"id": "flag", "prompt": "A red square and a greeting", "requirements": [
        "Include a red square.",  # pass
        "Include a green triangle.",  # fail
        "The text 'HELLO' must appear.",  # pass
        "The mood must be festive."]},  # undecided
    {"id": "night", "prompt": "A night sky", "requirements": [
        "The background must be dark blue.",  # pass
        "Include a white circle for the moon.",  # undecided
        "Include an orange star."]},  # fail
    {"id": "dusk", "prompt": "A dark square", "requirements": [
        "The background must be black.",  # pass
        "Include a green square."]},  # pass
    {"id": "house", "prompt": "A house", "requirements": [  # answered with no SVG: all fail
        "Include a brown door.", "Include a red roof."]},
]
ANSWERS = {
    "sun": f'<svg {NS} viewBox="0 0 100 100"><rect width="100" height="100" fill="white"/>'
           '<circle cx="50" cy="50" r="30" fill="yellow"/></svg>',
    "flag": f'<svg {NS} viewBox="0 0 100 100"><rect width="100" height="100" fill="white"/>'
            '<rect x="10" y="10" width="30" height="30" fill="red"/>'
            '<text x="60" y="80" font-size="12" fill="black">HELLO</text></svg>',
    "night": f'<svg {NS} viewBox="0 0 100 100"><rect width="100" height="100" fill="navy"/>'
             '<circle cx="80" cy="20" r="10" fill="white"/></svg>',
    "dusk": f'<svg {NS} viewBox="0 0 100 100"><rect width="100" height="100" fill="black"/>'
            '<rect x="30" y="30" width="40" height="40" fill="green"/></svg>',
    "house": "I cannot draw that.",
}
COMPUTED = {"sun": 2 / 4, "flag": 2 / 4, "night": 1 / 3, "dusk": 2 / 2, "house": 0.0}
UNDECIDED = {"sun": 1, "flag": 1, "night": 1, "dusk": 0, "house": 0}
# The judge's reply per prompt (told apart by a requirement only that prompt has): sun all
# four; flag only the triangle it does not draw; night an HTTP 500; dusk no JSON.
JUDGE_REPLIES = {
    "Include a yellow circle.": '```json\n{"fulfilled": [1, 2, 3, 4]}\n```',
    "Include a green triangle.": '{"fulfilled": [2]}',
    "Include an orange star.": None,
    "Include a green square.": "Both of the requirements are met, I think.",
}


def _reply(body: dict) -> str | None:
    user = body["messages"][-1]["content"]
    text = user if isinstance(user, str) else user[0]["text"]
    (reply,) = [r for marker, r in JUDGE_REPLIES.items() if marker in text]
    return reply


REPLIES = {"scripted": _reply}  # the chat_server fixture answers model "scripted" with it


@pytest.fixture(scope="module")
def questions(tmp_path_factory):
    require_chromium()
    folder = tmp_path_factory.mktemp("svgbench")
    (folder / "questions.json").write_text(json.dumps(QUESTIONS))
    lines = [{"id": key, "completion": f"```svg\n{svg}\n```" if svg.startswith("<") else svg}
             for key, svg in ANSWERS.items()]
    (folder / "answers.jsonl").write_text("\n".join(map(json.dumps, lines)))
    return folder


def _bench(questions, out, *extra: str) -> int:
    return main(["bench", "--tasks", "svgbench", "--path",
                 f"svgbench={questions / 'questions.json'}", "--predictions",
                 str(questions / "answers.jsonl"), "--out", str(out), *extra])


def _figures(out) -> tuple[dict, dict, dict]:
    """The svg summary row's figures, the episodes by item, and all of results.json."""
    results = json.loads((out / "results.json").read_text())
    (row,) = results["single_turn"]
    return row["figures"], {e["item_key"]: e for e in results["episodes"]}, results


def test_without_a_judge_the_score_is_the_computed_one(questions, tmp_path, capsys):
    assert _bench(questions, tmp_path) == 0
    printed = capsys.readouterr().out
    assert "by the computed checks (no judge configured)" in printed
    figures, episodes, results = _figures(tmp_path)
    assert results["judge"] is None and figures["judge"] == "not configured"
    prompts = {p["item_id"]: p for p in figures["prompts"]}
    assert {k: p["computed_score"] for k, p in prompts.items()} == pytest.approx(COMPUTED)
    # pass at a score of at least 0.5: the two at exactly 0.5 pass, night's 1/3 does not
    assert {k for k, p in prompts.items() if p["computed_pass"]} == {"sun", "flag", "dusk"}
    assert {k: p["undecided"] for k, p in prompts.items()} == UNDECIDED
    assert all(p["judge"] == "not configured" and p["judge_score"] is None
               for p in prompts.values())
    # the counts are the episodes' own recorded verdicts: undecided is never fulfilled
    recorded = episodes["sun"]["details"]["requirements"]
    assert [r["verdict"] for r in recorded] == ["pass", "pass", "fail", "unchecked"]
    assert episodes["house"]["outcome"] == "invalid_output"
    assert figures["score"] == {"by": "computed", "mean": pytest.approx(sum(COMPUTED.values()) / 5),
                                "pass_rate": pytest.approx(3 / 5), "prompts": 5}
    # coverage: of the 13 requirements of the four drawings, 10 decided (house drew nothing)
    assert (figures["computed"]["requirements"], figures["computed"]["decided"]) == (13, 10)
    assert figures["judged"] is None and figures["agreement"] is None
    assert "judge fails" not in figures["headline"]
    assert "SVGBench&#x27;s score" in (tmp_path / "report.html").read_text()


def test_a_judge_scores_beside_the_computed_verdicts_and_its_failures_are_no_score(
        questions, tmp_path, chat_server, capsys, monkeypatch):
    monkeypatch.setenv("DESIGNRL_JUDGE_API_KEY", "judge-secret")
    chat_server.requests.clear()
    assert _bench(questions, tmp_path, "--judge", chat_server.url, "--judge-model",
                  "scripted", "--judge-multimodal", "--json") == 0
    printed = json.loads(capsys.readouterr().out)
    figures, episodes, results = _figures(tmp_path)
    assert printed["single_turn"][0]["figures"] == figures
    # the judge was asked once per drawing (not for the reply with no SVG), with the key
    # from the environment and the render beside the code
    assert len(chat_server.requests) == 4
    assert {r["auth"] for r in chat_server.requests} == {"Bearer judge-secret"}
    assert all(r["body"]["messages"][-1]["content"][1]["type"] == "image_url"
               for r in chat_server.requests)
    prompts = {p["item_id"]: p for p in figures["prompts"]}
    # the computed scores do not move with a judge
    assert {k: p["computed_score"] for k, p in prompts.items()} == pytest.approx(COMPUTED)
    assert {k: p["judge"] for k, p in prompts.items()} == {
        "sun": "answered", "flag": "answered", "night": "failed", "dusk": "failed",
        "house": "not drawn"}
    assert {k: p["judge_score"] for k, p in prompts.items()} == {
        "sun": 1.0, "flag": 0.25, "night": None, "dusk": None, "house": 0.0}
    assert {k: p["judge_pass"] for k, p in prompts.items()} == {
        "sun": True, "flag": False, "night": None, "dusk": None, "house": False}
    # a judge failure is recorded with why, and is no score
    assert prompts["night"]["judge_error"].startswith("judge_request_failed: InternalServerError")
    assert prompts["dusk"]["judge_error"].startswith("judge_malformed")
    assert episodes["night"]["details"]["judge_error"] == prompts["night"]["judge_error"]
    assert "judge" not in episodes["night"]["components"]
    # ... and the run went on: every episode scored
    assert [e["outcome"] for e in episodes.values()] == ["ok"] * 4 + ["invalid_output"]
    # per requirement, where both decided: sun's three decided verdicts against all-fulfilled
    # (agree, agree, computed fail/judge pass); flag's against only the triangle (computed
    # pass/judge fail twice, computed fail/judge pass once)
    assert [(prompts[k]["both_decided"], prompts[k]["agree"]) for k in ("sun", "flag")] == [
        (3, 2), (3, 0)]
    assert prompts["sun"]["score_difference"] == pytest.approx(0.5 - 1.0)
    assert prompts["flag"]["score_difference"] == pytest.approx(0.5 - 0.25)
    assert figures["agreement"] == {
        "requirements": 6, "agree": pytest.approx(2 / 6), "computed_pass_judge_fail": 2,
        "computed_fail_judge_pass": 2, "prompts": 2,
        "mean_difference": pytest.approx((-0.5 + 0.25) / 2),
        "mean_abs_difference": pytest.approx((0.5 + 0.25) / 2)}
    # SVGBench's score is the judge's, over the prompts it scored (no SVG scores 0)
    assert figures["judged"] == {"mean": pytest.approx((1.0 + 0.25 + 0.0) / 3),
                                 "pass_rate": pytest.approx(1 / 3), "prompts": 3,
                                 "answered": 2, "not_drawn": 1, "failures": 2}
    assert figures["score"]["by"] == "judge"
    assert figures["score"]["mean"] == pytest.approx(1.25 / 3)
    assert figures["headline"]["judge fails"] == 2
    # the judge is written down without its key, in results.json and the stored job
    assert results["judge"] == {"base_url": chat_server.url, "model": "scripted",
                                "multimodal": True}
    assert "judge-secret" not in (tmp_path / "results.json").read_text()
    with make_sessionmaker(make_engine(f"sqlite:///{tmp_path / 'designrl.db'}"))() as session:
        (job,) = session.scalars(select(Job)).all()
    assert job.spec["judge"] == results["judge"]
    assert "judge-secret" not in json.dumps(job.spec)


def test_an_episode_with_no_reward_is_unscored_not_zero():
    lost = {"item_key": "x", "outcome": "infra_error", "total_reward": None, "components": {},
            "details": {}}
    figures = svgbench_figures([lost], judged=True)
    assert figures["unscored"] == 1 and figures["prompts"] == []
    assert figures["score"]["mean"] is None and figures["judged"]["failures"] == 0
