"""The HTML report: one self-contained, escaped, script-free file."""

import base64
import re
from html.parser import HTMLParser

from designrl.report import write_html_report
from designrl.tasks.layout.render import layout_to_svg
from designrl.tasks.layout.spec import Element, Layout, designgym_task


def svg_for(task_id: str, template: str) -> str:
    task = designgym_task(task_id)
    boxes = task.templates[template]
    layout = Layout([Element(e.id, list(boxes[e.id]), e.z) for e in task.elements])
    return layout_to_svg(task, layout, brief=task.briefs[0])


def records():
    out = []
    for i, (policy, task_id) in enumerate(
        [("random", "poster_basic_v1"), ("random", "poster_basic_v1"),
         ("heuristic", "dense_flyer_v1"), ('<script>alert("p")</script>', "editorial_cover_v1")]
    ):
        out.append({
            "policy": policy, "task_id": task_id, "family": "poster", "profile": "default",
            "seed": 100 + i, "start_score": 0.4 + i / 100, "final_score": 0.5 - i / 50,
            "instruction_score": 0.6, "total_reward": 1.25 * i, "steps": 10 + i,
            "invalid_actions": i % 2, "seconds": 0.5 * i,
            "before_svg": svg_for(task_id, "draft"), "after_svg": svg_for(task_id, "draft"),
            "actions": [{"op": "move", "element_id": "<img src=x onerror=1>", "dx": 0.1}] * (i + 1),
        })
    out[2].pop("actions")
    out[2]["after_svg"] = None
    return out


class Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.imgs, self.articles = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "img":
            self.imgs.append(attrs)
        if tag == "article":
            self.articles.append(attrs.get("id"))


def test_report_has_every_episode_and_no_scripts_or_urls(tmp_path):
    recs = records()
    path = write_html_report(recs, tmp_path / "out", title="Eval <run> & co")
    assert path == tmp_path / "out" / "report.html"
    text = path.read_text(encoding="utf-8")
    assert "<script" not in text.lower()
    assert not re.search(r"https?://", text)
    assert "<run>" not in text and "Eval &lt;run&gt; &amp; co" in text
    assert "onerror=1>" not in text
    page = Collect()
    page.feed(text)
    assert page.articles == [f"ep-{i}" for i in range(1, len(recs) + 1)]
    assert {"h1", "h2", "h3", "table", "th", "details", "summary"} <= set(page.tags)
    assert page.tags.count("details") == len(recs) - 1  # one record has no actions
    assert len(page.imgs) == 2 * len(recs) - 1  # one missing render
    for img in page.imgs:
        assert img["alt"]
        assert img["src"].startswith("data:image/svg+xml;base64,")
        assert base64.b64decode(img["src"].split(",", 1)[1]).startswith(b"<svg")
    for r in recs:
        assert f"seed {r['seed']}" in text


def test_summary_means_per_policy_and_task(tmp_path):
    text = write_html_report(records(), tmp_path, title="t").read_text()
    summary = text.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = summary.count("<tr>")
    assert rows == 3  # random×poster (2 episodes), heuristic×flyer, script×editorial
    random_row = next(r for r in summary.split("</tr>") if ">random<" in r)
    assert "<td>2</td>" in random_row  # two episodes
    assert "0.405" in random_row  # mean start score (0.40 + 0.41) / 2
    assert "10.5" in random_row  # mean steps


def test_empty_results(tmp_path):
    text = write_html_report([], tmp_path, title="empty").read_text()
    assert "No episodes" in text and "<script" not in text
