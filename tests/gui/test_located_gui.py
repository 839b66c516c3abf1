# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located recall in the real FreeCAD GUI (under Xvfb): the panel shows it beside the value
match's dimensionRecall and flags where the two differ.

The case is built here, so every figure follows from the construction: a 120 x 60 x 10
plate with a Ø12 hole at (95, 30) and four Ø6 holes at (15|45, 15|45). The candidate drills
the Ø12 hole Ø10, one pattern hole, (45, 45), Ø7, and stands an unrelated Ø12 boss, 8 high,
at (70, 30) on top. The value match still finds every value (Ø12 on the boss, Ø6 on three
pattern holes): dimensionRecall 5/5. Located, Ø12 is wrong where the drawing puts it (0)
and the pattern loses one member of four: (1 + 1 + 1 + 0 + 3/4) / 5 = 0.75.
"""

import math
import sys

import pytest
import yaml
from scenario import metric_row, require_display_programs, scenario_report

from cadbench_wb.gui import panel_model

pytestmark = pytest.mark.gui

PATTERN = [(15, 15), (15, 45), (45, 15), (45, 45)]
WRONG_MEMBER = 3  # the hole at (45, 45) drilled Ø7
HOLE_AT, BOSS_AT = (95, 30), (70, 30)
LOCATED = (1 + 1 + 1 + 0 + 3 / 4) / 5


def _plate(fc, part, hole: float, wrong_member=None, boss=False):
    body = part.makeBox(120, 60, 10)
    for index, (x, y) in enumerate(PATTERN):
        diameter = 7.0 if index == wrong_member else 6.0
        body = body.cut(part.makeCylinder(diameter / 2, 10, fc.Vector(x, y, 0)))
    body = body.cut(part.makeCylinder(hole / 2, 10, fc.Vector(*HOLE_AT, 0)))
    if boss:
        body = body.fuse(part.makeCylinder(6, 8, fc.Vector(*BOSS_AT, 10))).removeSplitter()
    return body.Solids[0]


def _build_case(fc, part, folder):
    case = folder / "cases" / "located_plate"
    (case / "candidates").mkdir(parents=True)
    _plate(fc, part, 12.0).exportStep(str(case / "reference.step"))
    candidate = _plate(fc, part, 10.0, WRONG_MEMBER, boss=True)
    candidate.exportStep(str(case / "candidates" / "coincidence.step"))
    text = {
        "id": "located_plate",
        "title": "Plate with a hole pattern",
        "reference": "reference.step",
        "group": "gui-test",
        "anchoring": False,
        "dimensions": [
            {"id": "L", "kind": "length", "value": 120},
            {"id": "W", "kind": "length", "value": 60},
            {"id": "T", "kind": "length", "value": 10},
            {"id": "HOLE", "kind": "diameter", "value": 12, "source": "Ø12"},
            {"id": "PATTERN", "kind": "diameter", "value": 6, "source": "4X Ø6"},
        ],
    }
    (case / "case.yaml").write_text(yaml.safe_dump(text, sort_keys=False))
    return case


@pytest.fixture(scope="module")
def located_run(fc, part, tmp_path_factory):
    require_display_programs()
    folder = tmp_path_factory.mktemp("located_gui")
    case = _build_case(fc, part, folder)
    env = {
        "CADBENCH_GUI_CASES": str(case.parent),
        "CADBENCH_GUI_CASE": "located_plate",
        "CADBENCH_GUI_CANDIDATE": "coincidence.step",
        "CADBENCH_GUI_LOCATED_ROW": "HOLE",
        "CADBENCH_PYTHON": sys.executable,
    }
    return scenario_report(folder, "located", env)


def _dimensions(data):
    return {r["cells"][0]: r for r in data["panel"]["dimensions"]}


def test_located_recall_stands_under_dimension_recall_flagged_as_differing(located_run):
    recall = metric_row(located_run, "dimensionRecall")
    # The verdict stays the value match's: every value is found somewhere.
    assert recall["cells"][1:4] == ["1.0000", "0.95", "PASS"]
    names = [r["cells"][0] for r in located_run["panel"]["metrics"]]
    located = metric_row(located_run, "dimensionRecallLocated")
    assert names.index(located["cells"][0]) == names.index(recall["cells"][0]) + 1
    assert float(located["cells"][1]) == pytest.approx(LOCATED, abs=5e-5)
    assert located["cells"][5] == "1.0000"  # every target has its geometry on the reference
    assert located["cells"][3] == panel_model.DIFFERS
    assert located["colour"] == panel_model.COLOURS[panel_model.DIFFERS]
    assert "Not a verdict" in located["tooltip"]


def test_a_value_found_elsewhere_is_flagged_on_its_row_with_why(located_run):
    hole = _dimensions(located_run)["HOLE"]
    assert hole["cells"][4] == "found"  # the value match: the boss is Ø12
    assert hole["colour"] == panel_model.COLOURS[panel_model.PASS]
    assert hole["cells"][6] == "not found: 0 of 1 at its place"
    # The reference's hole maps onto the candidate's hole, which measures Ø10.
    assert hole["cells"][7].endswith("(10.000)")
    why = hole["cells"][8]
    assert why.startswith("value found, but elsewhere:") and "measures 12" in why
    # The boss answers 12 on its base circle, top circle or cylinder (z = 10, 18, 14); the
    # reference hole's middle is at z = 5, 25 mm along x from the boss.
    places = {f"{math.hypot(25, z - 5):.4g} mm" for z in (10, 18, 14)}
    assert any(place in why for place in places), why
    violet = panel_model.COLOURS[panel_model.DIFFERS]
    assert hole["cell_colours"][6:9] == [violet] * 3


def test_one_wrong_member_of_the_pattern_shows_as_a_partial_row(located_run):
    pattern = _dimensions(located_run)["PATTERN"]
    assert pattern["cells"][4] == "found"
    assert pattern["cells"][6] == "partial: 3 of 4 at their place"
    # The member off its place is named first, with what the candidate measures there.
    assert pattern["cells"][7].split(";")[0].endswith("(7.000)")
    assert "(3 of 4 members at their place)" in pattern["cells"][8]


def test_rows_where_both_matchings_agree_are_not_flagged(located_run):
    rows = _dimensions(located_run)
    for ident in ("L", "W", "T"):
        assert rows[ident]["cells"][6].startswith("found"), rows[ident]["cells"]
        assert rows[ident]["cells"][8] == ""
        assert set(rows[ident]["cell_colours"]) == {panel_model.COLOURS[panel_model.PASS]}


def test_clicking_the_flagged_row_selects_where_it_is_and_where_the_value_was_found(
    located_run,
):
    selection = dict((obj, items) for obj, items in located_run["located_selection"])
    assert set(selection) == {"Reference", "Candidate"}
    (reference,) = selection["Reference"]
    assert reference["radius"] == pytest.approx(6.0)
    assert reference["centre"][:2] == pytest.approx(list(HOLE_AT))
    found = {(round(e["radius"], 3), tuple(round(c, 3) for c in e["centre"][:2])) for e in
             selection["Candidate"]}  # fmt: skip
    # The candidate's Ø10 hole at the drawing's place, and the Ø12 boss the value came from.
    assert (5.0, HOLE_AT) in found
    assert (6.0, BOSS_AT) in found
    # The message line says why the row is flagged.
    message = located_run["located_message"]
    assert "HOLE: located not found: 0 of 1 at its place; value found, but elsewhere" in message


def test_the_batch_table_flags_the_candidate_whose_located_recall_differs(located_run):
    (row,) = located_run["folder"]["batch"]
    recall = row["cells"][1 + [m for m, _ in panel_model.METRICS].index("dimensionRecall")]
    assert recall == f"1.0000 PASS (located {LOCATED:.4f} {panel_model.DIFFERS})"
