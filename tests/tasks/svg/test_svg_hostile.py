"""Hostile SVGs come back as scored failures, quickly, with a clear error."""

from __future__ import annotations

import asyncio
import time

import pytest

from designrl.tasks.svg import SvgReward
from designrl.tasks.svg.parse import SvgError, parse_svg

NS = 'xmlns="http://www.w3.org/2000/svg"'
BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(f' <!ENTITY lol{i} "{f"&lol{i - 1};" if i > 1 else "&lol;" * 1}'
              f'{(f"&lol{i - 1};" if i > 1 else "&lol;") * 9}">\n' for i in range(1, 10))
    + f"]>\n<svg {NS}><text>&lol9;</text></svg>"
)
XXE = (f'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
       f'<svg {NS}><text x="10" y="20">&xxe;</text></svg>')
PARAMETER_ENTITY = (f'<!DOCTYPE svg [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]>'
                    f"<svg {NS}/>")
INTERNAL_ENTITY = f'<!DOCTYPE svg [<!ENTITY name "World">]><svg {NS}><text>&name;</text></svg>'
UNDECLARED_ENTITY = f"<svg {NS}><text>&xxe;</text></svg>"
DEEP = f"<svg {NS}>" + "<g>" * 10_000 + '<circle r="5"/>' + "</g>" * 10_000 + "</svg>"
MANY = f"<svg {NS}>" + "<g/>" * 100_000 + "</svg>"
USE_BOMB = (f'<svg {NS}><defs><circle id="a0" r="1" fill="red"/>'
            + "".join(f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>"
                      for i in range(1, 9))
            + '</defs><use href="#a8"/></svg>')
PATH_BOMB = f'<svg {NS}><path fill="red" d="M0 0 ' + "C1 1 2 2 3 3 " * 70_000 + '"/></svg>'
USE_DEPTH = (f"<svg {NS}><defs>"
             + "".join(f'<g id="c{i}">' + "<g>" * 60 + f'<use href="#c{i + 1}"/>' + "</g>" * 60
                       + "</g>" for i in range(60))
             + '<circle id="c60" r="3"/></defs><use href="#c0"/></svg>')
HUGE = f"<svg {NS}><desc>" + "x" * 1_500_000 + "</desc></svg>"
FIFTY_MB = "```svg\n<svg>" + "<g>" * (50 * 2**20 // 3) + "\n```"

CASES = [
    ("billion_laughs", BILLION_LAUGHS, "dtd_forbidden"),
    ("external_entity", XXE, "dtd_forbidden"),
    ("parameter_entity", PARAMETER_ENTITY, "dtd_forbidden"),
    ("internal_entity", INTERNAL_ENTITY, "dtd_forbidden"),
    ("undeclared_entity", UNDECLARED_ENTITY, "xml_syntax"),
    ("deep_nesting", DEEP, "too_deep"),
    ("100k_elements", MANY, "too_many_elements"),
    ("use_bomb", USE_BOMB, "too_many_shapes"),
    ("path_bomb", PATH_BOMB, "too_many_shapes"),
    ("use_depth", USE_DEPTH, "too_deep"),
    ("huge_svg", HUGE, "svg_too_large"),
    ("50mb_completion", FIFTY_MB, "completion_too_large"),
]


@pytest.mark.parametrize(("name", "completion", "code"), CASES, ids=[c[0] for c in CASES])
def test_hostile_completion_is_a_quick_scored_failure(name, completion, code):
    requirements = ["The background must be white", "Include a red circle"]
    started = time.monotonic()
    score = asyncio.run(SvgReward().score(completion, requirements))
    elapsed = time.monotonic() - started
    assert elapsed < 5.0, f"{name} took {elapsed:.2f} s"  # ~1 s on an idle core
    assert score.total == 0.0
    assert score.components["validity"] == 0.0
    assert score.error is not None and score.error.startswith(code), score.error
    assert [d.verdict for d in score.details] == ["fail", "fail"]
    assert "root:" not in repr(score)  # nothing of /etc/passwd leaked into the result


def test_a_polygon_with_many_points_is_scored_in_bounded_time():
    points = " ".join(f"{i},{(i % 2) * 10 if i < 20_000 else 0}" for i in range(40_000))
    started = time.monotonic()
    score = asyncio.run(SvgReward().score(
        f'<svg {NS} viewBox="0 0 40000 100"><polygon points="{points}" fill="red"/></svg>',
        ["Include a red triangle"]))
    assert time.monotonic() - started < 5.0
    assert score.error is None and score.details[0].verdict == "fail"


def test_the_svg_1_1_public_doctype_is_allowed():
    doctype = ('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
               '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">')
    root = parse_svg(f'<?xml version="1.0"?>{doctype}<svg {NS}><circle r="2"/></svg>')
    assert root.tag.endswith("svg")


def test_a_doctype_with_an_internal_subset_is_refused_even_without_entities():
    with pytest.raises(SvgError) as info:
        parse_svg(f'<!DOCTYPE svg [<!ATTLIST svg a CDATA "x">]><svg {NS}/>')
    assert info.value.code == "dtd_forbidden"


def test_non_svg_root_is_refused():
    with pytest.raises(SvgError) as info:
        parse_svg("<html><body/></html>")
    assert info.value.code == "not_svg"


def test_external_references_are_recorded_not_fetched():
    svg = (f'<svg {NS} viewBox="0 0 10 10"><circle cx="5" cy="5" r="3" fill="red"/>'
           '<image href="file:///etc/passwd" width="5" height="5"/>'
           '<image href="https://example.com/cat.png" width="5" height="5"/></svg>')
    score = asyncio.run(SvgReward().score(svg, ["Use red"]))
    assert score.error is None and score.total > 0.9
    assert any("external references are not loaded" in w for w in score.warnings)


def test_scripts_are_noted_and_never_run():
    svg = (f'<svg {NS} viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script>'
           '<circle cx="5" cy="5" r="4" fill="red"/></svg>')
    score = asyncio.run(SvgReward().score(svg, ["Include a red circle"]))
    assert score.total == pytest.approx(1.0)
    assert any("scripts are ignored" in w for w in score.warnings)
