"""A reading the blind set v30 found wrong: quoted labels naming the parts a sentence
ranks by size ("the 'Rent' band is the thickest and the 'Transport' band the thinnest")
only name them; whether the labels are written is another requirement's to ask (rough
raster, no browser)."""

from __future__ import annotations

from svg_fixtures import rough_verdicts

from designrl.tasks.svg.marks import Text
from designrl.tasks.svg.reader import read_requirement


def test_labels_of_parts_ranked_by_size_only_name_them():
    rule = ("The width of each band matches its amount, so the 'Rent' band is the thickest "
            "and the 'Transport' band the thinnest")
    assert not any(isinstance(a, Text) for a in read_requirement(rule).atoms)
    bands = ('<rect x="100" y="60" width="200" height="120" fill="#f28c28"/>'
             '<rect x="100" y="300" width="200" height="20" fill="#7b3fa0"/>'
             '<text x="320" y="125">Rent</text><text x="320" y="315">Travel</text>')
    assert rough_verdicts(bands, [rule]) != ["fail"]
    assert any(isinstance(a, Text) and a.words == "Lions"
               for a in read_requirement("The 'Lions' enclosure is in the top-left").atoms)

