# SPDX-License-Identifier: LGPL-2.1-or-later
"""The workbench end to end in the real FreeCAD GUI under Xvfb (one FreeCAD session).

The case is built here from analytic solids, so every expected figure follows from the
construction: a 40 x 30 x 20 block with a Ø10 through hole; the candidate has a Ø12 hole
(missing ring 20·π·(6²-5²) = 220π mm³), a 10 x 10 x 5 boss on top (extra 500 mm³), and
is turned 30° and moved 50 mm, so it must be aligned to be scored.
"""

import importlib.util
import json
import math
import os
import sys

import pytest
import yaml
from conftest import ROOT, run_cli
from scenario import require_display_programs, scenario_report

from cadbench_wb.gui import panel_model

pytestmark = pytest.mark.gui

V_BLOCK = 40 * 30 * 20
V_REFERENCE = V_BLOCK - 20 * math.pi * 5**2
V_MISSING = 20 * math.pi * (6**2 - 5**2)
V_EXTRA = 10 * 10 * 5
V_COMMON = V_REFERENCE - V_MISSING
IOU = V_COMMON / (V_REFERENCE + V_EXTRA)
HAS_DIMENSIONS = importlib.util.find_spec("cadbench_wb.app.dimensions.stage") is not None


def _build_case(fc, part, folder):
    case = folder / "cases" / "holed_block"
    (case / "candidates").mkdir(parents=True)
    hole = part.makeCylinder(5, 20, fc.Vector(12, 10, 0))
    part.makeBox(40, 30, 20).cut(hole).Solids[0].exportStep(str(case / "reference.step"))
    wrong = part.makeBox(40, 30, 20).cut(part.makeCylinder(6, 20, fc.Vector(12, 10, 0)))
    wrong = wrong.fuse(part.makeBox(10, 10, 5, fc.Vector(25, 5, 20))).removeSplitter()
    wrong = wrong.Solids[0]
    wrong.rotate(fc.Vector(0, 0, 0), fc.Vector(0, 0, 1), 30)
    wrong.translate(fc.Vector(50, 0, 0))
    wrong.exportStep(str(case / "candidates" / "wrong_hole.step"))
    text = {
        "id": "holed_block",
        "title": "Block with a through hole",
        "reference": "reference.step",
        "group": "gui-test",
        "anchoring": False,
        "dimensions": [
            {"id": "L", "kind": "length", "value": 40},
            {"id": "W", "kind": "length", "value": 30},
            {"id": "H", "kind": "length", "value": 20},
            {"id": "HOLE", "kind": "diameter", "value": 10},
        ],
    }
    (case / "case.yaml").write_text(yaml.safe_dump(text, sort_keys=False))
    return case


@pytest.fixture(scope="module")
def gui_run(fc, part, tmp_path_factory):
    require_display_programs()
    folder = tmp_path_factory.mktemp("gui")
    case = _build_case(fc, part, folder)
    broken = folder / "broken" / "empty.step"
    broken.parent.mkdir()
    broken.write_bytes(b"")
    env = {
        "CADBENCH_GUI_BROKEN": str(broken),
        "CADBENCH_GUI_CASES": str(case.parent),
        "CADBENCH_GUI_CASE": "holed_block",
        "CADBENCH_GUI_CANDIDATE": "wrong_hole.step",
        "CADBENCH_GUI_AUTHOR_DIR": str(folder / "authored"),
        "CADBENCH_PYTHON": sys.executable,
    }
    data = scenario_report(folder, "analytic", env)
    data["case_folder"] = str(case)
    return data


def _row(rows, first_cell_part):
    return next(r for r in rows if first_cell_part in r["cells"][0])


def test_workbench_activates_with_its_toolbar(gui_run):
    assert gui_run["workbench"] == "CadBenchWorkbench"
    for command in ("CadBench_OpenCase", "CadBench_Score", "CadBench_ShowDiff"):
        assert command in gui_run["toolbar"]
    assert gui_run["icons_null"] == []


def test_case_browser_lists_the_case_and_its_candidates(gui_run):
    row = gui_run["browser_cases"][0]
    assert row["cells"][:2] == ["holed_block", "Block with a through hole"]
    assert row["cells"][4:] == ["4", "1"]
    assert gui_run["browser_candidates"] == ["wrong_hole.step"]


def test_score_from_the_toolbar_fills_the_table(gui_run):
    assert gui_run["score_enabled"] and gui_run["busy_after_trigger"]
    shape = _row(gui_run["panel"]["metrics"], "shapeIoU")
    assert float(shape["cells"][1]) == pytest.approx(IOU, abs=2e-3)
    assert shape["cells"][3] == "PASS"
    assert shape["colour"] == panel_model.COLOURS["PASS"]
    assert "holed_block" in gui_run["panel"]["header"]
    missing = _row(gui_run["panel"]["shape"], "Missing volume")
    # As FreeCAD prints a volume in its standard unit schema: "691.15 mm^3".
    number, unit = missing["cells"][1].split(" ")
    assert float(number) == pytest.approx(V_MISSING, rel=0.03) and unit == "mm^3"
    thread = _row(gui_run["panel"]["metrics"], "threadMatch")
    assert thread["cells"][3] in (panel_model.NOT_APPLICABLE, "not run")  # no thread here


def test_failed_dimension_is_red_and_clicking_selects_its_geometry(gui_run):
    if not HAS_DIMENSIONS:
        assert _row(gui_run["panel"]["metrics"], "dimensionRecall")["cells"][3] == "not run"
        pytest.skip("the dimension stage is not built yet")
    rows = {r["cells"][0]: r for r in gui_run["panel"]["dimensions"]}
    assert set(rows) == {"L", "W", "H", "HOLE"}
    assert rows["HOLE"]["colour"] == panel_model.COLOURS["FAIL"]
    assert all(rows[k]["colour"] == panel_model.COLOURS["PASS"] for k in ("L", "W", "H"))
    recall = _row(gui_run["panel"]["metrics"], "dimensionRecall")
    assert float(recall["cells"][1]) == pytest.approx(0.75)
    assert gui_run["selection"], "clicking the failed row selected nothing"
    # HOLE is not on the candidate: its place on the reference is shown and zoomed to.
    assert gui_run["selection"] == [["Reference", rows["HOLE"]["cells"][5].split()[-1].split("+")]]
    assert gui_run["camera_moved"]


def test_show_diff_adds_coloured_group_in_the_reference_frame(gui_run):
    objects = gui_run["diff_objects"]
    assert objects["CadBenchDiff"]["children"] == ["DiffCommon", "DiffMissing", "DiffExtra"]
    for part, name in (
        ("common", "DiffCommon"),
        ("missing", "DiffMissing"),
        ("extra", "DiffExtra"),
    ):
        rgb, transparency = panel_model.DIFF_STYLE[part]
        assert objects[name]["colour"] == [round(c, 3) for c in rgb]
        assert objects[name]["transparency"] == transparency
        assert objects[name]["visible"]
    assert objects["DiffMissing"]["volume"] == pytest.approx(V_MISSING, rel=0.03)
    assert objects["DiffExtra"]["volume"] == pytest.approx(V_EXTRA, rel=0.03)
    assert objects["DiffCommon"]["volume"] == pytest.approx(V_COMMON, rel=0.01)
    # The common part lies where the reference lies: the candidate was aligned onto it.
    box = objects["DiffCommon"]["bbox"]
    assert box == pytest.approx([0, 0, 0, 40, 30, 20], abs=0.5)
    assert not objects["Reference"]["visible"] and not objects["Candidate"]["visible"]
    assert gui_run["panel_after_diff"]["visibility"]["missing"] is True


def test_alignment_applies_and_undoes(gui_run):
    assert gui_run["placement_before"] == [[0, 0, 0], [0, 0, 0, 1]]
    # Applied, the candidate's block sits on the reference's 40 x 30 footprint.
    box = gui_run["candidate_bbox_applied"]
    assert box[:2] == pytest.approx([0, 0], abs=0.5)
    assert box[3:5] == pytest.approx([40, 30], abs=0.5)
    assert gui_run["placement_undone"] == gui_run["placement_before"]


def test_authored_case_is_accepted_by_cadbench_score(gui_run):
    saved = gui_run["saved_case"]
    assert saved, gui_run["authoring_message"]
    rows = gui_run["authoring"]["rows"]
    assert [r[1:3] for r in rows] == [["diameter", "10"], ["length", "20"]]
    assert rows[0][5] == gui_run["picked"]["circle"]
    assert rows[1][5] == "+".join(gui_run["picked"]["planes"])
    if HAS_DIMENSIONS:
        assert [r[6] for r in rows] == ["measurable", "measurable"]
        assert "1.0000 (2 of 2)" in gui_run["authoring"]["live"]
    else:
        assert "referenceCoverage</b> n/a" in gui_run["authoring"]["live"]
    data = yaml.safe_load(open(os.path.join(saved, "case.yaml")))
    assert data["anchoring"] is True and data["id"] == "authored_block"
    assert [(d["kind"], d["value"]) for d in data["dimensions"]] == [
        ("diameter", 10),
        ("length", 20),
    ]
    assert os.path.isfile(os.path.join(saved, data["reference"]))
    # Picked faces of the reference are bound by place (a picked edge is not a face: none).
    assert "geometry" not in data["dimensions"][0]
    place = data["dimensions"][1]["geometry"]
    assert len(place["at"]) == 2 and place["normal"] in ([0, 0, 1], [0, 0, -1])
    candidate = os.path.join(gui_run["case_folder"], "candidates", "wrong_hole.step")
    status, out, err = run_cli("score", "--case", saved, candidate, "--json", "-")
    assert status == 0, err
    result = json.loads(out)
    assert result["case"]["id"] == "authored_block"
    assert [d["located"]["binding"] for d in result["dimensions"]] == ["inferred", "at"]
    assert result["shapeIoU"] == pytest.approx(IOU, abs=2e-3)
    assert os.path.dirname(saved) != ROOT


def test_cancel_stops_the_scoring_and_says_so(gui_run):
    assert gui_run["cancel_visible"] and gui_run["progress_visible"]
    assert gui_run["after_cancel"]["message"] == "Cancelled."
    # The table still shows the last finished scoring.
    shape = _row(gui_run["after_cancel"]["metrics"], "shapeIoU")
    assert float(shape["cells"][1]) == pytest.approx(IOU, abs=2e-3)


def test_broken_candidate_is_a_failed_delivery_in_the_panel(gui_run):
    assert gui_run["broken_loaded"]
    assert "empty_file" in gui_run["broken_load_message"]
    assert "NOT DELIVERED: empty_file" in gui_run["broken"]["header"]
    shape = _row(gui_run["broken"]["metrics"], "shapeIoU")
    assert shape["cells"][1:4] == ["0.0000", "0.90", "FAIL"]
    assert "not delivered" in shape["tooltip"]


def test_score_folder_fills_the_batch_table(gui_run):
    rows = gui_run["folder"]["batch"]
    assert [r["cells"][0] for r in rows] == ["wrong_hole.step"]
    assert rows[0]["cells"][1].startswith(f"{IOU:.4f}"[:5])
    assert rows[0]["cells"][-2] == "FAIL" if HAS_DIMENSIONS else "PASS"
    assert "1 of 1" in gui_run["folder"]["message"]


def test_diff_and_alignment_buttons_are_enabled_right_after_scoring(gui_run):
    assert gui_run["enabled_after_score"] == {
        "CadBench_ShowDiff": True,
        "CadBench_ApplyAlignment": True,
    }


def test_the_verdict_message_is_coloured_by_the_reachable_verdict(gui_run):
    # Dimension recall 0.75 fails this candidate: reachable FAIL, so the line is red.
    assert gui_run["panel"]["message"] == "Scored: case verdict FAIL"
    assert gui_run["panel"]["message_kind"] == "FAIL"
    assert "#b00020" in gui_run["message_style_after_score"]


def test_choosing_a_candidate_after_the_diff_shows_both_models_again(gui_run):
    objects = gui_run["objects_after_next_candidate"]
    assert "CadBenchDiff" not in objects
    assert objects["Reference"]["visible"] and objects["Candidate"]["visible"]
    assert gui_run["enabled_after_next_candidate"] is False  # no result yet: nothing to show


def test_a_missed_dimension_names_the_nearest_candidate_value(gui_run):
    if not HAS_DIMENSIONS:
        pytest.skip("the dimension stage is not built yet")
    rows = {r["cells"][0]: r for r in gui_run["panel"]["dimensions"]}
    # The candidate's hole is Ø12 where the drawing asks Ø10.
    # Lengths as FreeCAD's standard schema prints them (Quantity.UserString, 2 decimals).
    assert rows["HOLE"]["cells"][4] == "not found (nearest 12.00 mm, off by +2.00 mm)"
    assert rows["HOLE"]["cells"][2].startswith("Ø10.00 mm ±")  # FreeCAD says 0.05 mm "50.00 µm"


def test_a_broken_file_is_named_by_its_file_name_only(gui_run):
    message = gui_run["broken_load_message"]
    assert "empty.step" in message and os.sep + "broken" + os.sep not in message


def test_preferences_page_loads_and_its_time_limit_is_used(gui_run):
    assert gui_run["preference_widgets"] == [
        ["Gui::PrefDoubleSpinBox", "TimeoutSeconds"],
        ["Gui::PrefFileChooser", "CasesFolder"],
        ["Gui::PrefFileChooser", "Python"],
        ["Gui::PrefSpinBox", "MemoryMB"],
    ]
    assert gui_run["scoring_timeout"] == 123.0


def test_the_scratch_folder_is_gone_after_freecad_quits(gui_run):
    assert gui_run["workdir"] and not os.path.exists(gui_run["workdir"])


def test_deviation_is_freecads_inspection_of_the_aligned_candidate(gui_run):
    deviation = gui_run["deviation"]
    assert deviation["type"] == "Inspection::Feature"
    assert deviation["distances"] == deviation["points"] > 50
    # 2 % of the reference's diagonal (40, 30, 20).
    assert deviation["search_radius"] == pytest.approx(0.02 * math.sqrt(40**2 + 30**2 + 20**2))
    low, high, count = deviation["hole_wall"]
    assert (
        count > 10 and low == pytest.approx(1.0, abs=0.01) and high == pytest.approx(1.0, abs=0.01)
    )
    assert "Deviation shown" in deviation["message"]
    # The child's distances are the feature's own: the document does not measure again.
    assert deviation["state"] == ["Up-to-date"], deviation
    assert deviation["longest_own_s"] < 0.5, deviation  # test_engineer_gui's limit


def test_show_deviation_is_one_undo_step(gui_run):
    undone = gui_run["undo_deviation"]
    assert undone["undo_names"][0].removeprefix("-> ") == "Show deviation", undone
    # Undone: the Inspection feature and its two meshes are gone, the diff stays.
    assert undone["left"] == ["CadBenchDiff"], undone


def test_located_recall_agreeing_with_the_value_match_is_shown_unflagged(gui_run):
    if not HAS_DIMENSIONS:
        pytest.skip("the dimension stage is not built yet")
    # The Ø10 hole drilled Ø12 in its place: wrong for both matchings, L, W, H right for
    # both, so located recall is 3/4 too and the row says they agree.
    located = _row(gui_run["panel"]["metrics"], "(dimensionRecallLocated)")
    assert located["cells"][1:4] == ["0.7500", "-", panel_model.AGREES]
    assert located["colour"] is None
    hole = {r["cells"][0]: r for r in gui_run["panel"]["dimensions"]}["HOLE"]
    assert hole["cells"][6] == "not found: 0 of 1 at its place"
    assert hole["cells"][7].endswith("(12.000)")
    assert set(hole["cell_colours"]) == {panel_model.COLOURS["FAIL"]}
