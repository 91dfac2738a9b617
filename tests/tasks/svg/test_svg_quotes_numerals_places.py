"""Readings the blind set v20 found wrong: a quoted name inside a line of body text
("report.pdf will be permanently deleted.") is not missing, only not sure; "the number
4 between a minus button ..." shows a numeral, it counts nothing; and a label given two
opposite places at once ("... a minus button on the left and a plus button on the
right") is given the places of other parts, not its own (rough raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.counting import thing_counts
from designrl.tasks.svg.places import one_place
from designrl.tasks.svg.predicates import quotes, text_matches


def _verdicts(body: str, requirements: list[str], view: str = "0 0 300 300") -> list[str]:
    return rough_verdicts(body, requirements, view)


def _text(x: int, y: int, words: str) -> str:
    return f'<text x="{x}" y="{y}" font-size="14">{words}</text>'


def test_a_name_quoted_inside_a_sentence_is_not_missing():
    wanted = "A line of body text under the title names the file 'report.pdf'."
    sentence = _text(20, 120, "report.pdf will be permanently deleted.")
    assert quotes("report.pdf", "report.pdf will be permanently deleted.")
    assert not text_matches("report.pdf", "report.pdf will be permanently deleted.")
    assert _verdicts(_text(20, 60, "Delete file?") + sentence, [wanted]) != ["fail"]
    assert _verdicts(_text(20, 60, "Delete file?") + _text(20, 120, "notes.txt will go."),
                     [wanted]) == ["fail"]


def test_the_requirement_written_out_as_text_still_passes_nothing():
    wanted = "The button is labelled 'Search'"
    assert _verdicts(_text(10, 150, wanted), [wanted]) != ["pass"]


def test_a_numeral_shown_is_not_a_count():
    assert thing_counts("a 'guests' stepper shows the number 4 between a minus button") == []
    assert thing_counts("4 between a minus and a plus") == []
    assert [a.n for a in thing_counts("exactly four round windows")] == [4]


def test_a_label_is_not_in_two_opposite_places_at_once():
    assert not one_place(["left", "right"]) and not one_place(["top", "bottom"])
    assert one_place(["top", "left"]) and one_place([])
    wanted = ("A 'Guests' stepper shows the number 4 between a minus button on the left and "
              "a plus button on the right.")
    stepper = (_text(20, 100, "Guests") + '<circle cx="40" cy="140" r="16" fill="none" '
               'stroke="#8e1b1b"/>' + _text(140, 146, "4")
               + '<circle cx="260" cy="140" r="16" fill="none" stroke="#8e1b1b"/>')
    assert _verdicts(stepper, [wanted]) != ["fail"]
