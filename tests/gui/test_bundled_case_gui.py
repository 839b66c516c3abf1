# SPDX-License-Identifier: LGPL-2.1-or-later
"""A bundled case scored from the toolbar in the real FreeCAD GUI (under Xvfb), checked
against the figures its case.yaml derives from its construction (``candidates: expect``)."""

import os
import shutil
from fractions import Fraction

import pytest
from conftest import ROOT
from scenario import metric_row, require_display_programs, scenario_report

from cadbench_wb.case_model import cases
from cadbench_wb.gui import panel_model

pytestmark = pytest.mark.gui

CASES = os.path.join(ROOT, "cases")
CASE_ID = "bearing_block"
CANDIDATE = "wrong_hole_diameter.step"


@pytest.fixture(scope="module")
def bundled(fc, tmp_path_factory):
    require_display_programs()
    from cadbench_wb.app.cases import build as case_build

    folder = tmp_path_factory.mktemp("bundled")
    # A fresh clone holds no generated files (cases/.gitignore): build a copy of the case.
    shutil.copytree(
        os.path.join(CASES, CASE_ID),
        folder / "cases" / CASE_ID,
        ignore=shutil.ignore_patterns("reference.step", "candidates", "__pycache__"),
    )
    case = cases.load_case(str(folder / "cases" / CASE_ID))
    case_build.build_missing(case)
    expect = next(c.expect for c in case.candidates if os.path.basename(c.file) == CANDIDATE)
    env = {
        "CADBENCH_GUI_CASES": str(folder / "cases"),
        "CADBENCH_GUI_CASE": CASE_ID,
        "CADBENCH_GUI_CANDIDATE": CANDIDATE,
        # No CADBENCH_PYTHON: the workbench finds the checkout's .venv as an installed one does.
    }
    data = scenario_report(folder, "bundled", env)
    return data, expect, case


def test_bundled_case_scores_as_its_construction_says(bundled):
    data, expect, case = bundled
    shape = metric_row(data, "shapeIoU")
    target = expect["shapeIoU"]
    assert float(shape["cells"][1]) == pytest.approx(target["value"], abs=max(target["tol"], 1e-4))
    recall = metric_row(data, "dimensionRecall")
    assert float(recall["cells"][1]) == pytest.approx(
        float(Fraction(expect["dimensionRecall"])), abs=1e-4
    )
    assert recall["cells"][3] == "FAIL" and recall["colour"] == panel_model.COLOURS["FAIL"]
    rows = data["panel"]["dimensions"]
    assert [r["cells"][0] for r in rows] == [d.id for d in case.dimensions]


def test_clicking_the_wrong_diameter_shows_it_on_the_reference(bundled):
    data, _, case = bundled
    wrong = [d.id for d in case.dimensions if d.kind == "diameter" and d.value == 11]
    rows = {r["cells"][0]: r for r in data["panel"]["dimensions"]}
    # The candidate's bore is the wrong size: its nearest diameter is named beside the miss.
    assert rows[wrong[0]]["cells"][4].startswith("not found (nearest ")
    assert data["failed_rows"], "no failed dimension row to click"
    selected = {name for obj, names in data["selection"] for name in names}
    assert selected and all(n.startswith(("Edge", "Face")) for n in selected)
    assert {obj for obj, _ in data["selection"]} <= {"Reference", "Candidate"}
    assert data["camera_moved"]


def test_generate_drawing_opens_a_techdraw_page_of_the_candidate(bundled):
    data, _, _ = bundled
    assert "Drawing written to" in data["drawing_message"], data["drawing_message"]
    # Drawn as the metric draws it: the candidate in the pose the scoring aligned it to.
    assert "candidate in the scored pose" in data["drawing_message"]
    pages = [n for n, types in data["drawing_documents"].items() if "TechDraw::DrawPage" in types]
    assert pages, data["drawing_documents"]
